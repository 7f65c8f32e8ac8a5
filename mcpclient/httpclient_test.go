package mcpclient_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/seed417024ea/mcpcore/mcpclient"
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
