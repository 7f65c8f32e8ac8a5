package httpserve

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// taskRequest is a tasks/* call with params, as a 2026-07-28 client sends
// it: the per-request _meta, and the standard headers (name nil: no
// Mcp-Name at all).
func taskRequest(t *testing.T, url, method, params string, name []string) *http.Request {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":7,"method":"` + method + `"`
	if params != "" {
		body += `,"params":` + params
	}
	r, err := http.NewRequest("POST", url, strings.NewReader(body+"}"))
	if err != nil {
		t.Fatal(err)
	}
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	r.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	r.Header.Set("Mcp-Method", method)
	if name != nil {
		r.Header["Mcp-Name"] = name
	}
	return r
}

// TestTaskNameHeader: on tasks/get, tasks/update and tasks/cancel under
// 2026-07-28, an Mcp-Name that is not params.taskId, or none, is answered
// 400 with -32020 in the SDK's words for tools/call, before the SDK sees
// the request; a match, and every request the SDK would not check, go on.
func TestTaskNameHeader(t *testing.T) {
	t.Parallel()
	var reached atomic.Int32
	sdk := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		reached.Add(1)
	})
	h, err := New(Options{MCP: sdk, Path: "/mcp", Stateless: true, MaxBodyBytes: 1 << 20, BodyTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	const (
		missing = `{"jsonrpc":"2.0","id":7,"error":{"code":-32020,"message":"missing required Mcp-Name header for method \"%s\""}}`
		noName  = `{"jsonrpc":"2.0","id":7,"error":{"code":-32020,"message":"failed to extract name from parameters for method \"%s\""}}`
	)
	long := strings.Repeat("x", 200)
	for _, tc := range []struct {
		name    string
		method  string // tasks/get when empty
		params  string
		header  []string
		edit    func(*http.Request)
		refusal string // the answer, with the method for %s, or (when it names values) whole; "" passes
	}{
		{name: "match", params: `{"taskId":"abc"}`, header: []string{"abc"}},
		{name: "match update", method: "tasks/update", params: `{"taskId":"abc","inputResponses":{}}`, header: []string{"abc"}},
		{name: "match with an escaped id", params: `{"taskId":"a\u0062c"}`, header: []string{"abc"}},
		{name: "mismatch", params: `{"taskId":"abc"}`, header: []string{"abd"},
			refusal: `{"jsonrpc":"2.0","id":7,"error":{"code":-32020,"message":"header mismatch: Mcp-Name header value 'abd' does not match body value 'abc'"}}`},
		{name: "mismatch on update", method: "tasks/update", params: `{"taskId":"abc"}`, header: []string{"x"},
			refusal: `{"jsonrpc":"2.0","id":7,"error":{"code":-32020,"message":"header mismatch: Mcp-Name header value 'x' does not match body value 'abc'"}}`},
		{name: "mismatch on cancel", method: "tasks/cancel", params: `{"taskId":"abc"}`, header: []string{"x"},
			refusal: `{"jsonrpc":"2.0","id":7,"error":{"code":-32020,"message":"header mismatch: Mcp-Name header value 'x' does not match body value 'abc'"}}`},
		{name: "case counts", params: `{"taskId":"abc"}`, header: []string{"ABC"},
			refusal: `{"jsonrpc":"2.0","id":7,"error":{"code":-32020,"message":"header mismatch: Mcp-Name header value 'ABC' does not match body value 'abc'"}}`},
		// In a request built in the process, as in the SDK, nothing trims
		// the header (net/http trims it on the wire: see the next test).
		{name: "space kept in process", params: `{"taskId":"abc"}`, header: []string{" abc"},
			refusal: `{"jsonrpc":"2.0","id":7,"error":{"code":-32020,"message":"header mismatch: Mcp-Name header value ' abc' does not match body value 'abc'"}}`},
		{name: "the first header counts", params: `{"taskId":"abc"}`, header: []string{"abc", "x"}},
		{name: "the last taskId counts", params: `{"taskId":"x","taskId":"abc"}`, header: []string{"abc"}},
		{name: "taskId is case-sensitive", params: `{"TaskId":"abc"}`, header: []string{"abc"},
			refusal: `{"jsonrpc":"2.0","id":7,"error":{"code":-32020,"message":"header mismatch: Mcp-Name header value 'abc' does not match body value ''"}}`},
		{name: "a nested taskId is not it", params: `{"x":{"taskId":"abc"}}`, header: []string{"abc"},
			refusal: `{"jsonrpc":"2.0","id":7,"error":{"code":-32020,"message":"header mismatch: Mcp-Name header value 'abc' does not match body value ''"}}`},
		{name: "long values cut", params: `{"taskId":"` + long + `"}`, header: []string{long + "y"},
			refusal: `{"jsonrpc":"2.0","id":7,"error":{"code":-32020,"message":"header mismatch: Mcp-Name header value '` + long[:128] + `…' does not match body value '` + long[:128] + `…'"}}`},
		{name: "missing", params: `{"taskId":"abc"}`, refusal: missing},
		{name: "empty", params: `{"taskId":"abc"}`, header: []string{""}, refusal: missing},
		{name: "missing on cancel", method: "tasks/cancel", params: `{"taskId":"abc"}`, refusal: missing},
		{name: "taskId a number", params: `{"taskId":5}`, header: []string{"5"}, refusal: noName},
		{name: "taskId an object", params: `{"taskId":{"id":"abc"}}`, header: []string{"abc"}, refusal: noName},
		{name: "params an array", params: `["abc"]`, header: []string{"abc"}, refusal: noName},
		{name: "no params", header: []string{"abc"}, refusal: noName},
		{name: "taskId null", params: `{"taskId":null}`, header: []string{"abc"},
			refusal: `{"jsonrpc":"2.0","id":7,"error":{"code":-32020,"message":"header mismatch: Mcp-Name header value 'abc' does not match body value ''"}}`},
		{name: "params null", params: `null`, header: []string{"abc"},
			refusal: `{"jsonrpc":"2.0","id":7,"error":{"code":-32020,"message":"header mismatch: Mcp-Name header value 'abc' does not match body value ''"}}`},
		// What the SDK does not check, or answers first, goes on to it.
		{name: "2025-11-25", params: `{"taskId":"abc"}`, header: []string{"x"},
			edit: func(r *http.Request) { r.Header.Set("Mcp-Protocol-Version", "2025-11-25") }},
		{name: "no version", params: `{"taskId":"abc"}`,
			edit: func(r *http.Request) { r.Header.Del("Mcp-Protocol-Version") }},
		{name: "no Mcp-Method", params: `{"taskId":"abc"}`, header: []string{"x"},
			edit: func(r *http.Request) { r.Header.Del("Mcp-Method") }},
		{name: "another Mcp-Method", params: `{"taskId":"abc"}`, header: []string{"x"},
			edit: func(r *http.Request) { r.Header.Set("Mcp-Method", "tasks/cancel") }},
		{name: "tasks/list", method: "tasks/list", params: `{"taskId":"abc"}`, header: []string{"x"}},
		{name: "tools/call is the SDK's", method: "tools/call", params: `{"name":"abc"}`, header: []string{"x"}},
	} {
		method := tc.method
		if method == "" {
			method = "tasks/get"
		}
		r := taskRequest(t, "/mcp", method, tc.params, tc.header)
		if tc.edit != nil {
			tc.edit(r)
		}
		reached.Store(0)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if tc.refusal == "" {
			if w.Code != http.StatusOK || reached.Load() != 1 {
				t.Errorf("%s: HTTP %d %s, reached the SDK %d times; want it passed on", tc.name, w.Code, w.Body, reached.Load())
			}
			continue
		}
		want := tc.refusal
		if strings.Contains(want, `\"%s\"`) {
			want = strings.Replace(want, "%s", method, 1)
		}
		if w.Code != http.StatusBadRequest || w.Body.String() != want || reached.Load() != 0 ||
			w.Header().Get("Content-Type") != "application/json" {
			t.Errorf("%s: HTTP %d %s (%s), reached the SDK %d times;\nwant 400 %s", tc.name, w.Code, w.Body, w.Header().Get("Content-Type"), reached.Load(), want)
		}
	}
}

// TestTaskNameHeaderOnAStatefulServer: a stateful server refuses
// 2026-07-28 requests whole (the SDK's -32022), so no Mcp-Name is checked
// before it does.
func TestTaskNameHeaderOnAStatefulServer(t *testing.T) {
	t.Parallel()
	reached := 0
	sdk := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { reached++ })
	h, err := New(Options{MCP: sdk, Path: "/mcp", MaxBodyBytes: 1 << 20, BodyTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	r := taskRequest(t, "/mcp", "tasks/get", `{"taskId":"abc"}`, []string{"x"})
	r.Header.Set("Mcp-Session-Id", "s")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if reached != 1 {
		t.Errorf("HTTP %d %s; want it passed on to the SDK", w.Code, w.Body)
	}
}

// taskParams and taskResult are a tasks/get for the SDK server below,
// which answers the id it was asked for.
type taskParams struct {
	mcp.ParamsBase
	TaskID string `json:"taskId"`
}

type taskResult struct {
	mcp.ResultBase
	TaskID string `json:"taskId"`
}

// TestTaskNameHeaderAsTheSDKChecksToolsCall: through the whole endpoint
// over a real connection, a tasks/get with an Mcp-Name gets what a
// tools/call with the same name in params.name gets from the SDK (the
// status, and the answer bar the method's name), and a refused tasks/get
// never reaches the SDK's handler. net/http trims the spaces and tabs
// around a header's value on the wire, for both.
func TestTaskNameHeaderAsTheSDKChecksToolsCall(t *testing.T) {
	t.Parallel()
	var handled atomic.Int32
	server := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "abc"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
	})
	if err := mcp.AddReceivingCustomMethod(server, "tasks/get", func(_ context.Context, _ *mcp.ServerSession, p *taskParams) (*taskResult, error) {
		handled.Add(1)
		return &taskResult{TaskID: p.TaskID}, nil
	}); err != nil {
		t.Fatal(err)
	}
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	h, err := New(Options{MCP: sdk, Path: "/mcp", Stateless: true, MaxBodyBytes: 1 << 20, BodyTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	post := func(method, params string, name []string, version string) (int, string) {
		r := taskRequest(t, srv.URL+"/mcp", method, params, name)
		r.Header.Set("Mcp-Protocol-Version", version)
		res, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, strings.TrimSpace(string(b))
	}
	for _, tc := range []struct {
		name    string
		value   string // the name in the body, JSON
		header  []string
		version string
		pass    bool
	}{
		{"match", `"abc"`, []string{"abc"}, "2026-07-28", true},
		{"spaces and tabs around it on the wire", `"abc"`, []string{" \tabc\t "}, "2026-07-28", true},
		{"mismatch", `"abc"`, []string{"abd"}, "2026-07-28", false},
		{"case", `"abc"`, []string{"Abc"}, "2026-07-28", false},
		{"space inside", `"a bc"`, []string{"abc"}, "2026-07-28", false},
		{"missing", `"abc"`, nil, "2026-07-28", false},
		{"empty", `"abc"`, []string{""}, "2026-07-28", false},
		{"not a string", `5`, []string{"5"}, "2026-07-28", false},
		{"older version, mismatch", `"abc"`, []string{"abd"}, "2025-11-25", true},
	} {
		handled.Store(0)
		meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"` + tc.version + `","io.modelcontextprotocol/clientCapabilities":{}}`
		toolStatus, toolAnswer := post("tools/call", `{"name":`+tc.value+`,"arguments":{},`+meta+`}`, tc.header, tc.version)
		taskStatus, taskAnswer := post("tasks/get", `{"taskId":`+tc.value+`,`+meta+`}`, tc.header, tc.version)
		if toolStatus != taskStatus {
			t.Errorf("%s: tools/call HTTP %d %s, tasks/get HTTP %d %s", tc.name, toolStatus, toolAnswer, taskStatus, taskAnswer)
			continue
		}
		if tc.pass {
			if toolStatus != http.StatusOK || handled.Load() != 1 {
				t.Errorf("%s: tools/call HTTP %d, tasks/get HTTP %d %s, handled %d times", tc.name, toolStatus, taskStatus, taskAnswer, handled.Load())
			}
			continue
		}
		if want := strings.ReplaceAll(toolAnswer, "tools/call", "tasks/get"); taskStatus != http.StatusBadRequest || taskAnswer != want ||
			!strings.Contains(taskAnswer, `"code":-32020`) || handled.Load() != 0 {
			t.Errorf("%s: tasks/get HTTP %d %s, handled %d times;\nwant 400 %s", tc.name, taskStatus, taskAnswer, handled.Load(), want)
		}
	}
}

// TestTaskNameCostIsLinear: the check costs a pass over params and no
// more. A tasks/get whose params hold a MiB of members before the taskId
// (and one whose taskId is a MiB long, refused with the id cut), checked
// under 2026-07-28, costs the endpoint little more than the same body
// under 2025-11-25, which nothing checks.
func TestTaskNameCostIsLinear(t *testing.T) {
	sdk := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.Copy(io.Discard, r.Body) })
	h, err := New(Options{MCP: sdk, Path: "/mcp", Stateless: true, MaxBodyBytes: 4 << 20, BodyTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	var members strings.Builder
	for members.Len() < 1<<20 {
		members.WriteString(`"k\u0030":[{"taskId":"x"}],`)
	}
	for name, tc := range map[string]struct {
		params string
		status int
	}{
		"many members":  {`{` + members.String() + `"taskId":"abc"}`, http.StatusOK},
		"a long taskId": {`{"taskId":"` + strings.Repeat("a", 1<<20) + `"}`, http.StatusBadRequest},
	} {
		cost := func(version string, status int) time.Duration {
			best := time.Duration(1 << 62)
			for range 3 {
				r := taskRequest(t, "/mcp", "tasks/get", tc.params, []string{"abc"})
				r.Header.Set("Mcp-Protocol-Version", version)
				w := httptest.NewRecorder()
				start := time.Now()
				h.ServeHTTP(w, r)
				best = min(best, time.Since(start))
				if w.Code != status || w.Body.Len() > 1024 {
					t.Fatalf("%s under %s: HTTP %d, %d bytes", name, version, w.Code, w.Body.Len())
				}
			}
			return best
		}
		plain, checked := cost("2025-11-25", http.StatusOK), cost("2026-07-28", tc.status)
		if ratio := float64(checked) / float64(plain); ratio > 10 {
			t.Errorf("%s: checked %v, unchecked %v: ratio %.1f, want < 10", name, checked, plain, ratio)
		} else {
			t.Logf("%s: checked %v, unchecked %v: ratio %.2f", name, checked, plain, ratio)
		}
	}
}
