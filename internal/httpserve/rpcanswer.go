package httpserve

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/seed417024ea/mcpcore/mcperr"
)

// jsonRPCAnswers makes the plain-text refusals of the SDK and of its auth
// middleware (an unknown method, an unknown session, a missing Accept
// header, a missing token, …) JSON-RPC error objects with a real code,
// under the request's id when it is one request, as the stdio guard
// answers: clients parse a JSON-RPC error, not prose that may echo their
// input. The HTTP status and headers (WWW-Authenticate among them) stay.
type jsonRPCAnswers struct {
	http.ResponseWriter
	id      json.RawMessage // nil: no single request to answer (null id)
	method  string
	pending int // the status of a refusal not yet answered
	rewrote bool
}

// A call is what the body guard read of a POST: the id and method of a
// single JSON-RPC request (none for a notification, a response or a batch).
type call struct {
	id     json.RawMessage
	method string
	// sessionless is the answer to a call that needs a session and has
	// none (see requireSession), or nil.
	sessionless []byte
}

type callKey struct{}

// callOf returns the call that the body guard read for r, if any.
func callOf(r *http.Request) call {
	c, _ := r.Context().Value(callKey{}).(call)
	return c
}

// withCall records c in r's context for the middleware behind the guard.
func withCall(r *http.Request, c call) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), callKey{}, c))
}

// readCall reads the id and method of a single JSON-RPC request; the zero
// call for a notification, a response or a batch.
func readCall(body []byte) call {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(body, &m) != nil || len(m.ID) == 0 || m.Method == "" {
		return call{}
	}
	return call{id: m.ID, method: m.Method}
}

func (w *jsonRPCAnswers) WriteHeader(status int) {
	if w.pending != 0 || w.rewrote {
		return
	}
	if status < 400 || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain") {
		w.ResponseWriter.WriteHeader(status)
		return
	}
	w.pending = status // answered at the first Write, which says why
}

func (w *jsonRPCAnswers) Write(b []byte) (int, error) {
	switch {
	case w.rewrote:
		return len(b), nil // the rest of the SDK's text, replaced
	case w.pending != 0:
		w.answer(string(b))
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

// finish answers a refusal whose text never came.
func (w *jsonRPCAnswers) finish() {
	if w.pending != 0 && !w.rewrote {
		w.answer("")
	}
}

// answer writes the JSON-RPC error for a refusal with status and text. The
// client's input is never echoed but for the method's name; the text of an
// authentication refusal is the verifier's own, which names no part of
// the token.
func (w *jsonRPCAnswers) answer(text string) {
	status := w.pending
	code, msg := mcperr.CodeInvalidRequest, "Invalid request: "+http.StatusText(status)+"."
	switch {
	case status == http.StatusUnauthorized:
		code, msg = mcperr.CodeUnauthorized, "Unauthorized: "+strings.TrimSpace(text)+
			". Send a valid bearer token in the Authorization header; WWW-Authenticate says where to get one."
	case status == http.StatusForbidden && strings.Contains(text, "user mismatch"):
		code, msg = mcperr.CodeForbidden, "Forbidden: this session belongs to another user; start a session of your own with initialize."
	case status == http.StatusForbidden:
		code, msg = mcperr.CodeForbidden, "Forbidden: this server does not accept requests for this Host."
	case status == http.StatusNotFound:
		code, msg = mcperr.CodeNotFound, "Session not found: it ended or never existed; start a new one with initialize."
	case strings.Contains(text, "not handled") || strings.Contains(text, "unsupported"):
		code, msg = mcperr.CodeMethodNotFound, "Method not found: the server does not handle "+quote(w.method)+" here."
	case status == http.StatusNotAcceptable || strings.Contains(text, "Accept"):
		msg = "Not acceptable: the client must accept both application/json and text/event-stream."
	case status == http.StatusUnsupportedMediaType:
		msg = "Unsupported media type: send the request as application/json."
	case status == http.StatusMethodNotAllowed:
		msg = "Method not allowed on this endpoint."
	}
	body := errorAnswer(w.id, code, msg)
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Del("Content-Length")
	h.Del("X-Content-Type-Options")
	w.ResponseWriter.WriteHeader(status)
	w.ResponseWriter.Write(body)
	w.rewrote = true
}

// Flush keeps streaming answers streaming.
func (w *jsonRPCAnswers) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (w *jsonRPCAnswers) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// errorAnswer is a JSON-RPC error response: under id, or null when the
// request's id is not known.
func errorAnswer(id json.RawMessage, code mcperr.Code, msg string) []byte {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	type object struct {
		Code    mcperr.Code `json:"code"`
		Message string      `json:"message"`
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   object          `json:"error"`
	}{"2.0", id, object{code, msg}})
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
	if len(method) > 64 {
		method = method[:64] + "…"
	}
	b, _ := json.Marshal(method)
	return string(b)
}
