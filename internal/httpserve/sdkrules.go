package httpserve

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/internal/rpcguard"
)

// The rules the SDK's Streamable HTTP handler (go-sdk v1.8.0) applies to
// a request before a session sees it, with its own words. The endpoint's
// own sessions apply them the same way, so that a client is answered as
// the SDK's handler answers it; the plain-text refusals become JSON-RPC
// errors in the endpoint's writer, as the SDK's do (rpcanswer.go).

// methodFlags are what the SDK's method table says of a method.
type methodFlags uint8

const (
	isNotification methodFlags = 1 << iota // sent without an id
	paramsOptional                         // "params" may be absent
)

// sdkMethods are the methods an SDK server receives (serverMethodInfos).
var sdkMethods = map[string]methodFlags{
	"completion/complete":              0,
	"server/discover":                  paramsOptional,
	"initialize":                       0,
	"ping":                             paramsOptional,
	"prompts/list":                     paramsOptional,
	"prompts/get":                      0,
	"tools/list":                       paramsOptional,
	"tools/call":                       0,
	"resources/list":                   paramsOptional,
	"resources/templates/list":         paramsOptional,
	"resources/read":                   0,
	"logging/setLevel":                 0,
	"resources/subscribe":              0,
	"subscriptions/listen":             0,
	"resources/unsubscribe":            0,
	"notifications/cancelled":          isNotification | paramsOptional,
	"notifications/initialized":        isNotification | paramsOptional,
	"notifications/roots/list_changed": isNotification | paramsOptional,
	"notifications/progress":           isNotification,
}

// checkRequest is the SDK's check of a request against the methods the
// server receives (extra: its own, registered with params optional): an
// error in the SDK's words, and whether the method is unknown.
func checkRequest(req *jsonrpc.Request, extra func(string) bool) (err error, unknown bool) {
	flags, ok := sdkMethods[req.Method]
	if !ok {
		if extra == nil || !extra(req.Method) {
			return fmt.Errorf("JSON RPC not handled: %q unsupported", req.Method), true
		}
		flags = paramsOptional
	}
	switch {
	case flags&isNotification != 0 && req.IsCall():
		return fmt.Errorf("invalid request: unexpected id for %q", req.Method), false
	case flags&isNotification == 0 && !req.IsCall():
		return fmt.Errorf("invalid request: missing id for %q", req.Method), false
	case flags&paramsOptional == 0 && len(req.Params) == 0:
		return fmt.Errorf(`invalid request: missing required "params"`), false
	}
	return nil, false
}

// metaVersion is the protocol version in a request's _meta, as the SDK
// reads it (a string, else none).
func metaVersion(params []byte) string {
	v, _ := rpcguard.String(rpcguard.Member(rpcguard.Member(params, "_meta"), mcp.MetaKeyProtocolVersion))
	return v
}

// writeSDKError writes the JSON-RPC error the SDK's handler answers some
// refusals with (writeJSONRPCError).
func writeSDKError(w http.ResponseWriter, status int, id jsonrpc.ID, jerr *jsonrpc.Error) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	if data, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: id, Error: jerr}); err == nil {
		_, _ = w.Write(data)
	}
}

// statefulRefusal is the SDK's answer to a request of the 2026-07-28
// protocol sent to a server with sessions: the versions it serves.
func statefulRefusal(w http.ResponseWriter, id jsonrpc.ID, version string) {
	legacy := slices.DeleteFunc(slices.Clone(supportedVersions), func(v string) bool { return v >= standardHeadersVersion })
	data, _ := json.Marshal(mcp.UnsupportedProtocolVersionData{Supported: legacy, Requested: version})
	writeSDKError(w, http.StatusBadRequest, id, &jsonrpc.Error{Code: mcp.CodeUnsupportedProtocolVersion,
		Message: fmt.Sprintf("protocol version %q is not supported by this server", version), Data: data})
}

// newProtocolFault is the SDK's answer to a request that carries the
// 2026-07-28 protocol's _meta version (or a call under its header), whose
// header and _meta disagree; nil when they agree.
func newProtocolFault(header http.Header, meta string) *jsonrpc.Error {
	h := header.Get(versionHeader)
	switch {
	case h == "":
		return &jsonrpc.Error{Code: mcp.CodeHeaderMismatch,
			Message: fmt.Sprintf("%s header is required for requests carrying %q", versionHeader, mcp.MetaKeyProtocolVersion)}
	case meta == "":
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
			Message: fmt.Sprintf("missing or invalid _meta field %q", mcp.MetaKeyProtocolVersion)}
	case h != meta:
		return &jsonrpc.Error{Code: mcp.CodeHeaderMismatch,
			Message: fmt.Sprintf("%s header %q does not match request %s %q", versionHeader, h, mcp.MetaKeyProtocolVersion, meta)}
	}
	return nil
}

// methodHeaderFault is the SDK's check of Mcp-Method on a single request
// of the 2026-07-28 protocol or later (validateMcpHeaders), for the
// methods that name nothing; "" when it passes.
func methodHeaderFault(h http.Header, method string) string {
	if v := h.Get(versionHeader); v == "" || v < standardHeadersVersion {
		return ""
	}
	got := h.Get(methodHeader)
	switch {
	case got == "":
		return "missing required Mcp-Method header"
	case got != method:
		return fmt.Sprintf("header mismatch: Mcp-Method header value '%s' does not match body value '%s'", got, method)
	}
	return ""
}
