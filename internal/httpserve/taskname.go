package httpserve

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/internal/rpcguard"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// The standard headers from protocol version 2026-07-28 on (SEP-2243):
// Mcp-Method repeats a request's method, Mcp-Name the name it acts on.
const (
	methodHeader = "Mcp-Method"
	nameHeader   = "Mcp-Name"
	// standardHeadersVersion is the first protocol version whose requests
	// carry them, compared as the SDK compares it: as text.
	standardHeadersVersion = "2026-07-28"
)

// taskMethods are the methods of the tasks extension (SEP-2663) whose
// Mcp-Name is their params.taskId.
var taskMethods = map[string]bool{"tasks/get": true, "tasks/update": true, "tasks/cancel": true}

// echoBytes bounds each text of the client's that a mismatch quotes; a
// task id is at most 64.
const echoBytes = 128

// guardTaskName refuses, as the SDK refuses a tools/call whose Mcp-Name
// is not its params.name (400 and -32020 HeaderMismatch, in the SDK's
// words), a tasks/* call whose Mcp-Name is not its params.taskId: the SDK
// checks the header for its own methods only (validateMcpHeaders), and
// the extension asks it of these. It reads the call the body guard read,
// and then only params.taskId.
//
// It stands where the SDK checks (just before it, after authentication),
// and only where the SDK would: on a stateless server (a stateful one
// refuses 2026-07-28 requests whole), for a single request (the SDK
// refuses batches under that version), whose Mcp-Method is its method (the
// SDK answers a missing or different one first).
func guardTaskName(stateless bool, log *Refusals) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		if !stateless {
			return next
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			c := callOf(w)
			if msg := taskNameFault(r.Header, c); msg != "" {
				log.Refused(r, "header_mismatch", "Mcp-Name does not name the task", "method", c.method)
				writeRPCError(w, http.StatusBadRequest, errorAnswer(c.id, mcperr.Code(mcp.CodeHeaderMismatch), msg))
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// taskNameFault returns what is wrong with the Mcp-Name header of the
// call c with header h, in the words the SDK uses for tools/call; "" when
// nothing is, or when the header is not due. As in the SDK, the values
// are compared as they are (net/http has trimmed a header's surrounding
// spaces and tabs), and an absent or empty header is missing.
func taskNameFault(h http.Header, c call) string {
	if !taskMethods[c.method] {
		return ""
	}
	if v := h.Get(versionHeader); v == "" || v < standardHeadersVersion || h.Get(methodHeader) != c.method {
		return ""
	}
	name := h.Get(nameHeader)
	if name == "" {
		return fmt.Sprintf("missing required Mcp-Name header for method %q", c.method)
	}
	taskID, ok := taskIDOf(c.params)
	if !ok {
		return fmt.Sprintf("failed to extract name from parameters for method %q", c.method)
	}
	if name != taskID {
		return fmt.Sprintf("header mismatch: Mcp-Name header value '%s' does not match body value '%s'",
			ellipsis(name, echoBytes), ellipsis(taskID, echoBytes))
	}
	return ""
}

// taskIDOf reads params.taskId as the SDK's decoder reads a string field:
// params must be an object or null, and taskId a string, null or absent
// ("" for both); ok is false otherwise, and when params is absent.
func taskIDOf(params []byte) (taskID string, ok bool) {
	if string(params) == "null" {
		return "", true
	}
	if len(params) == 0 || params[0] != '{' { // params is the value alone, no space around it
		return "", false
	}
	raw := rpcguard.Member(params, "taskId")
	if raw == nil {
		return "", true
	}
	return taskID, json.Unmarshal(raw, &taskID) == nil
}
