package mcpclient_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore/mcpclient"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// TestHTTPClientPassesTheRest: the body goes on byte for byte, requests
// other than tasks/* are not read, and base's transport is used.
func TestHTTPClientPassesTheRest(t *testing.T) {
	type seen struct{ name, body string }
	var got []seen
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got = append(got, seen{r.Header.Get("Mcp-Name"), string(b)})
	}))
	defer hs.Close()
	base := &http.Client{Transport: http.DefaultTransport}
	c := mcpclient.HTTPClient(base)
	if base.Transport != http.DefaultTransport {
		t.Error("HTTPClient changed base")
	}
	post := func(method, body string) {
		req, _ := http.NewRequest(http.MethodPost, hs.URL, strings.NewReader(body))
		req.Header.Set("Mcp-Method", method)
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	get := `{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"_meta":{"x":1},"taskId":"ABC234"}}`
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"compute","taskId":"ABC234"}}`
	odd := `{"jsonrpc":"2.0","id":3,"method":"tasks/get","params":{"taskId":"A B\n"}}`
	post("tasks/get", get)
	post("tools/call", call)
	post("tasks/get", odd)
	want := []seen{{"ABC234", get}, {"", call}, {"", odd}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the server saw\n%q\nwant\n%q", got, want)
	}
}

// TestHTTPClientSetsMcpName: each tasks/* POST carries Mcp-Name equal to
// its params.taskId; without HTTPClient it carries none, and a server that
// checks it refuses the poll.
func TestHTTPClientSetsMcpName(t *testing.T) {
	s := &taskServer{}
	cs := overHTTP(t, s, nil)
	ctx := context.Background()
	if _, err := mcpclient.Call[answerOut](ctx, cs, "compute", nil); err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "forever", Arguments: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	id := mcpclient.TaskOf(res).TaskID
	if err := mcpclient.CancelTask(ctx, cs, id); err != nil {
		t.Fatal(err)
	}
	first := "T1QJ5V2XHKZ7TQ4M6W3LRB5Y2A"
	want := []string{"Mcp-Name tasks/get " + first, "Mcp-Name tasks/get " + first, "Mcp-Name tasks/get " + first, "Mcp-Name tasks/cancel " + id}
	if got := s.calls("Mcp-Name"); !reflect.DeepEqual(got, want) {
		t.Errorf("headers on the wire:\n got %q\nwant %q", got, want)
	}

	bare := &taskServer{}
	cs = connectHTTP(t, bare, mcpclient.NewClient(&mcp.Implementation{Name: "test"}, nil), nil)
	_, err = mcpclient.Call[answerOut](ctx, cs, "compute", nil)
	if e := asError(t, err); e.Code() != mcperr.Code(mcp.CodeHeaderMismatch) {
		t.Errorf("without HTTPClient: error %v %q, want the server's HeaderMismatch", e.Code(), e.Message())
	}
	if got := bare.calls("Mcp-Name"); len(got) == 0 || got[0] != "Mcp-Name tasks/get " {
		t.Errorf("without HTTPClient the headers were %q, want none", got)
	}
}
