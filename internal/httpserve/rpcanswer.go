package httpserve

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/seed417024ea/mcpcore/internal/rpcguard"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// jsonRPCAnswers makes the plain-text refusals of the SDK and of its auth
// middleware (an unknown method, an unknown session, a missing Accept
// header, a missing token, …) JSON-RPC error objects with a real code,
// under the request's id when it is one request, as the stdio guard
// answers: clients parse a JSON-RPC error, not prose that may echo their
// input. The HTTP status and headers (WWW-Authenticate among them) stay.
// It is the answerWriter's part that the body guard turns on (see
// answerRefusals), and only the handler's goroutine touches it.
type jsonRPCAnswers struct {
	on      bool
	call        // the request's, when it is one (nil id: answer under null)
	pending int // the status of a refusal not yet answered
	rewrote bool
	status  int // the status written, once it is
	// log and r log each refusal (nil log: not logged).
	log *Refusals
	r   *http.Request
}

// answerRefusals turns on the JSON-RPC answers of w, the endpoint's
// answerWriter (see New), for the request r whose call the body guard read.
func answerRefusals(w http.ResponseWriter, r *http.Request, c call, log *Refusals) {
	if aw, ok := w.(*answerWriter); ok {
		aw.answers = jsonRPCAnswers{on: true, call: c, log: log, r: r}
	}
}

// A call is what the body guard read of a POST: the id, method and params
// of a single JSON-RPC request (none for a notification, a response or a
// batch).
type call struct {
	id     json.RawMessage
	method string
	params []byte // as written, a part of the body; nil when absent
	// sessionless is the answer to a call that needs a session and has
	// none (see requireSession), or nil.
	sessionless []byte
}

// callOf returns the call that the body guard read for the request whose
// writer is w, if any: the guard's writer carries it, so that no request
// is copied to carry it in its context.
func callOf(w http.ResponseWriter) call {
	if a, ok := w.(*answerWriter); ok {
		return a.answers.call
	}
	return call{}
}

// readCall reads the id, method and params of a single JSON-RPC request;
// the zero call for a notification, a response or a batch.
func readCall(body []byte) call {
	id, method, params, ok := rpcguard.Request(body)
	if !ok {
		return call{}
	}
	return call{id: id, method: method, params: params}
}

// header reports whether the status line with status goes out now; a
// refusal's waits for its text, which says why.
func (a *jsonRPCAnswers) header(w *answerWriter, status int) bool {
	if a.pending != 0 || a.rewrote {
		return false
	}
	if a.status == 0 {
		a.status = status
	}
	if status < 400 || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain") {
		return true
	}
	a.pending = status // answered at the first Write
	return false
}

// write reports whether b, written by the handler, is taken here: the text
// of a refusal, answered, or what follows it, replaced.
func (a *jsonRPCAnswers) write(w *answerWriter, b []byte) bool {
	switch {
	case a.rewrote:
		return true
	case a.pending != 0:
		a.answer(w, string(b))
		return true
	}
	if a.status == 0 {
		a.status = http.StatusOK
	}
	return false
}

// finish answers a refusal whose text never came.
func (a *jsonRPCAnswers) finish(w *answerWriter) {
	if a.pending != 0 && !a.rewrote {
		a.answer(w, "")
	}
}

// A refusal is how one of the SDK's (or its auth middleware's) plain-text
// refusals is answered: matched by status and the start of its text, which
// the SDK writes (see mcp/streamable.go); the first match wins.
type refusal struct {
	status int    // 0: any
	prefix string // "": any
	kind   string // for the log
	code   mcperr.Code
	msg    string // "%s" takes the text, for the refusals whose text is ours
}

var sdkRefusals = []refusal{
	{http.StatusUnauthorized, "", "unauthorized", mcperr.CodeUnauthorized,
		"Unauthorized: %s. Send a valid bearer token in the Authorization header; WWW-Authenticate says where to get one."},
	{http.StatusForbidden, "session user mismatch", "session_user_mismatch", mcperr.CodeForbidden,
		"Forbidden: this session belongs to another user; start a session of your own with initialize."},
	{http.StatusForbidden, "", "forbidden_host", mcperr.CodeForbidden,
		"Forbidden: this server does not accept requests for this Host."},
	{http.StatusNotFound, "", "session_not_found", mcperr.CodeNotFound,
		"Session not found: it ended or never existed; start a new one with initialize."},
	{0, "JSON RPC not handled", "method_not_found", mcperr.CodeMethodNotFound,
		"Method not found: the server does not handle %q here."},
	{0, "Bad Request: Unsupported protocol version", "protocol_version", mcperr.CodeInvalidRequest,
		"Unsupported protocol version in the Mcp-Protocol-Version header%s."},
	{0, "Bad Request: GET requires", "no_session", mcperr.CodeInvalidRequest,
		"A GET needs the Mcp-Session-Id header of a session: start one with initialize."},
	{0, "Bad Request: DELETE requires", "no_session", mcperr.CodeInvalidRequest,
		"A DELETE needs the Mcp-Session-Id header of the session to end."},
	{0, "malformed Last-Event-ID", "last_event_id", mcperr.CodeInvalidRequest,
		"Malformed Last-Event-ID header."},
	{0, "stream replay unsupported", "last_event_id", mcperr.CodeInvalidRequest,
		"This server does not replay streams: reconnect without Last-Event-ID."},
	{0, "JSON-RPC batching is not supported", "batch", mcperr.CodeInvalidRequest,
		"Batches are not supported from protocol version 2025-06-18 on: send one request per POST."},
	{0, "Accept must contain", "not_acceptable", mcperr.CodeInvalidRequest,
		"Not acceptable: the client must accept both application/json and text/event-stream."},
	{http.StatusNotAcceptable, "", "not_acceptable", mcperr.CodeInvalidRequest,
		"Not acceptable: the client must accept both application/json and text/event-stream."},
	{http.StatusUnsupportedMediaType, "", "media_type", mcperr.CodeInvalidRequest,
		"Unsupported media type: send the request as application/json."},
	{http.StatusMethodNotAllowed, "", "method_not_allowed", mcperr.CodeInvalidRequest,
		"Method not allowed on this endpoint."},
}

// answer writes the JSON-RPC error for a refusal with status and text, and
// logs it. The client's input is never echoed but for the method's name;
// the text of an authentication refusal is the verifier's own, which names
// no part of the token, and the supported protocol versions are the
// server's.
func (a *jsonRPCAnswers) answer(w *answerWriter, text string) {
	status := a.pending
	text = strings.TrimSpace(text)
	kind, code, msg := "bad_request", mcperr.CodeInvalidRequest, "Invalid request: "+http.StatusText(status)+"."
	if status >= 500 {
		kind, code, msg = "internal", mcperr.CodeInternalError, "Internal error: the server could not serve this request."
	}
	for _, f := range sdkRefusals {
		if (f.status == 0 || f.status == status) && strings.HasPrefix(text, f.prefix) {
			kind, code, msg = f.kind, f.code, f.msg
			switch f.kind {
			case "unauthorized":
				msg = fmt.Sprintf(msg, strings.TrimSuffix(text, "."))
			case "method_not_found":
				msg = "Method not found: the server does not handle " + quote(a.method) + " here."
			case "protocol_version":
				_, versions, _ := strings.Cut(text, "(")
				msg = fmt.Sprintf(msg, " ("+strings.TrimSuffix(versions, ")")+")")
			}
			break
		}
	}
	if a.log != nil {
		a.log.Refused(a.r, kind, strings.ReplaceAll(kind, "_", " "), "status", status)
	}
	body := errorAnswer(a.call.id, code, msg)
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Del("Content-Length")
	h.Del("X-Content-Type-Options")
	a.rewrote = true
	w.sendHeader(status)
	w.send(body)
}

// errorAnswer is a JSON-RPC error response: under id, or null when the
// request's id is not known.
func errorAnswer(id json.RawMessage, code mcperr.Code, msg string) []byte {
	return errorAnswerData(id, code, msg, nil)
}

// errorAnswerData is errorAnswer with the error's data (none when nil).
func errorAnswerData(id json.RawMessage, code mcperr.Code, msg string, data map[string]any) []byte {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	type object struct {
		Code    mcperr.Code    `json:"code"`
		Message string         `json:"message"`
		Data    map[string]any `json:"data,omitempty"`
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   object          `json:"error"`
	}{"2.0", id, object{code, msg, data}})
	return b
}

// writeRPCError writes answer, a JSON-RPC error, with status.
func writeRPCError(w http.ResponseWriter, status int, answer []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(answer)
}

// quote is a method name for a message: quoted, and cut, since it is the
// client's text.
func quote(method string) string {
	b, _ := json.Marshal(ellipsis(method, 64))
	return string(b)
}
