package mcpclient

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"

	"github.com/seed417024ea/mcpcore/internal/rpcguard"
)

// The standard headers of Streamable HTTP from protocol 2026-07-28 on
// (SEP-2243): Mcp-Method repeats a request's method, Mcp-Name the name it
// acts on, which for tasks/* is params.taskId.
const (
	methodHeader = "Mcp-Method"
	nameHeader   = "Mcp-Name"
)

// maxTaskBody bounds the body HTTPClient reads to find a task id: the
// SDK's own bound on a message (mcp.DefaultMaxLineLength). A longer
// tasks/* request is sent as it is, without Mcp-Name.
const maxTaskBody = 16 << 20

// HTTPClient returns a copy of base (nil: http.DefaultClient) that sets
// the Mcp-Name header of each tasks/* request to its params.taskId, as the
// tasks extension requires of a client ("so that load balancers route the
// requests of a task to the server instance holding its state"), and as
// an mcpcore server checks; the SDK sets Mcp-Name for tools/call,
// prompts/get and resources/read only. Give it to
// [mcp.StreamableClientTransport].HTTPClient.
//
// It acts on a POST whose Mcp-Method header (which the SDK sets from
// protocol 2026-07-28 on) starts with "tasks/": it reads the body once,
// up to 16 MiB, and sends it on unchanged. Every other request goes
// through base's transport untouched.
func HTTPClient(base *http.Client) *http.Client {
	if base == nil {
		base = http.DefaultClient
	}
	c := *base
	next := c.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	c.Transport = taskNameTransport{next: next}
	return &c
}

type taskNameTransport struct {
	next http.RoundTripper
}

// RoundTrip sets Mcp-Name on a tasks/* request, as HTTPClient says.
func (t taskNameTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodPost || !strings.HasPrefix(req.Header.Get(methodHeader), "tasks/") || req.Body == nil {
		return t.next.RoundTrip(req)
	}
	body, err := io.ReadAll(io.LimitReader(req.Body, maxTaskBody+1))
	if err != nil {
		req.Body.Close()
		return nil, err
	}
	out := req.Clone(req.Context())
	if len(body) > maxTaskBody {
		out.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(body), req.Body), req.Body}
		return t.next.RoundTrip(out)
	}
	req.Body.Close()
	out.Body = io.NopCloser(bytes.NewReader(body))
	out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	out.ContentLength = int64(len(body))
	if id, ok := taskIDOf(body); ok {
		out.Header.Set(nameHeader, id)
	}
	return t.next.RoundTrip(out)
}

// taskIDOf reads params.taskId of a JSON-RPC request; ok is false when it
// has none, is not JSON, or is not a header's printable ASCII (which a
// task id, unguessable text, is).
func taskIDOf(body []byte) (id string, ok bool) {
	if !json.Valid(body) {
		return "", false
	}
	raw := rpcguard.Member(rpcguard.Member(body, "params"), "taskId")
	if raw == nil || json.Unmarshal(raw, &id) != nil || id == "" {
		return "", false
	}
	for i := 0; i < len(id); i++ {
		if id[i] < 0x21 || id[i] > 0x7e {
			return "", false
		}
	}
	return id, true
}
