package httpserve

import (
	"mime"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/internal/rpcguard"
)

// legacyVersion is the protocol version of a request without the
// Mcp-Protocol-Version header, as the SDK reads it.
const legacyVersion = "2025-03-26"

// sharedMethods are the calls a shared session may serve: those that
// change nothing of the session they run on. initialize, logging/setLevel,
// server/discover, resources/subscribe and the rest write the session's
// state, which would become every later caller's; subscriptions/listen
// keys its listener by session.
var sharedMethods = map[string]bool{
	"ping": true, "tools/list": true, "tools/call": true,
	"resources/list": true, "resources/templates/list": true, "resources/read": true,
	"prompts/list": true, "prompts/get": true, "completion/complete": true,
}

// paramsRequired are the shared methods the SDK refuses without params.
var paramsRequired = map[string]bool{
	"tools/call": true, "resources/read": true, "prompts/get": true, "completion/complete": true,
}

// supportedVersions are the protocol versions the SDK serves.
var supportedVersions = mcp.SupportedProtocolVersions()

// maxSharedParams bounds the params of a call a shared session serves.
// The session reads its calls one after another until each is handed to
// a goroutine of its own, decoding their params on the way: a large one
// would hold up every other client's calls. A larger call gets a session
// of its own, as on the SDK's handler.
const maxSharedParams = 64 << 10

// A sharedCall is a POST that a shared session serves: a single call,
// which the SDK's handler would pass on to a session as it is.
type sharedCall struct {
	id      jsonrpc.ID // the client's
	method  string
	params  []byte
	version string // the request's protocol version (its header's)
}

// shareable returns the call of r, a POST whose body passed the guard,
// when a shared session may serve it: a single call of sharedMethods (or
// extra), which the SDK's handler would hand to a session unchanged. Any
// request it refuses, or which the SDK would refuse or treat apart, takes
// the SDK's own way, so that its answer stays the SDK's: a shared
// session only ever sees calls the SDK would have served.
func shareable(r *http.Request, c call, extra func(method string) bool, headerBound func(tool string) bool) (sharedCall, bool) {
	if c.method == "" || len(c.params) > maxSharedParams || !(sharedMethods[c.method] || extra != nil && extra(c.method)) ||
		paramsRequired[c.method] && c.params == nil || !sdkServesPOST(r) {
		return sharedCall{}, false
	}
	id, ok := rpcguard.ParseID(c.id)
	if !ok {
		return sharedCall{}, false
	}
	version := r.Header.Get(versionHeader)
	if version == "" {
		version = legacyVersion
	}
	meta := metaVersion(c.params)
	switch {
	case version < standardHeadersVersion:
		// Per-request metadata asks for the header rules of the new
		// protocol, which the SDK applies and answers itself.
		if meta != "" || !slices.Contains(supportedVersions, version) {
			return sharedCall{}, false
		}
	case meta != version || !slices.Contains(supportedVersions, version) || !headersMatch(r.Header, c, headerBound):
		return sharedCall{}, false
	}
	return sharedCall{id: id, method: c.method, params: c.params, version: version}, true
}

// headersMatch reports whether the standard headers of a request of the
// new protocol agree with its body, as the SDK checks them: Mcp-Method
// always, Mcp-Name for the methods that name something. A tool whose
// input binds a header of its own (x-mcp-header) is left to the SDK.
func headersMatch(h http.Header, c call, headerBound func(tool string) bool) bool {
	if h.Get(methodHeader) != c.method {
		return false
	}
	member := "name"
	switch c.method {
	case "resources/read":
		member = "uri"
	case "tools/call", "prompts/get":
	default:
		return true
	}
	name, ok := rpcguard.String(rpcguard.Member(c.params, member))
	if !ok || name == "" || h.Get(nameHeader) != name {
		return false
	}
	return c.method != "tools/call" || headerBound == nil || !headerBound(name)
}

// sdkServesPOST reports whether the SDK's handler takes a POST's headers
// as they are, on to its session: no Last-Event-ID, a JSON body, an
// Accept of both types, a Host its protection from DNS rebinding lets in.
func sdkServesPOST(r *http.Request) bool {
	return len(r.Header.Values("Last-Event-ID")) == 0 && jsonContent(r.Header.Get("Content-Type")) &&
		acceptsBoth(r) && hostAllowed(r)
}

// jsonContent reports whether a Content-Type is application/json, with
// any parameters.
func jsonContent(v string) bool {
	t, _, err := mime.ParseMediaType(v)
	return err == nil && t == "application/json"
}

// acceptsBoth reports whether r's Accept lists both application/json and
// text/event-stream, which the SDK asks of a POST.
func acceptsBoth(r *http.Request) bool {
	jsonOK, streamOK := accepts(r.Header.Values("Accept"))
	return jsonOK && streamOK
}

// accepts reads Accept values as the SDK does: whether they take JSON,
// and event streams (wildcards included).
func accepts(values []string) (jsonOK, streamOK bool) {
	for _, v := range values {
		for part := range strings.SplitSeq(v, ",") {
			t, _, _ := strings.Cut(part, ";")
			switch strings.ToLower(strings.TrimSpace(t)) {
			case "application/json", "application/*":
				jsonOK = true
			case "text/event-stream", "text/*":
				streamOK = true
			case "*/*":
				jsonOK, streamOK = true, true
			}
		}
	}
	return jsonOK, streamOK
}

// hostAllowed reports whether the SDK's protection from DNS rebinding
// lets r in: on a loopback address, only loopback Host names.
func hostAllowed(r *http.Request) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok || local == nil || !loopback(local.String()) {
		return true
	}
	return loopback(r.Host)
}

// loopback reports whether hostport names the loopback interface.
func loopback(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = strings.Trim(hostport, "[]")
	}
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}
