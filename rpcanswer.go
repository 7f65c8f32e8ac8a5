package mcpcore

import (
	"encoding/json"
	"net/http"
	"strings"
)

// jsonRPCAnswers makes the SDK's plain-text refusals of a JSON-RPC request
// (an unknown method, an unknown session, a missing Accept header, …)
// JSON-RPC error objects under the request's id, with a real code, as the
// stdio guard answers: clients parse a JSON-RPC error, not prose that may
// echo their input. The HTTP status stays the SDK's.
type jsonRPCAnswers struct {
	http.ResponseWriter
	id      json.RawMessage
	method  string
	pending int // the status of a refusal not yet answered
	rewrote bool
}

// rpcRequest reads the id and method of a single JSON-RPC request; ok is
// false for a notification, a response or a batch, whose refusals stay as
// they are.
func rpcRequest(body []byte) (id json.RawMessage, method string, ok bool) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(body, &m) != nil || len(m.ID) == 0 || m.Method == "" {
		return nil, "", false
	}
	return m.ID, m.Method, true
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

// answer writes the JSON-RPC error for the SDK's refusal with status and
// text. The client's input is never echoed but for the method's name.
func (w *jsonRPCAnswers) answer(text string) {
	status := w.pending
	code, msg := int64(-32600), "Invalid request: "+http.StatusText(status)+"."
	switch {
	case status == http.StatusNotFound:
		code, msg = -32001, "Session not found: it ended or never existed; start a new one with initialize."
	case strings.Contains(text, "not handled") || strings.Contains(text, "unsupported"):
		code, msg = -32601, "Method not found: the server does not handle "+quote(w.method)+" here."
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
func errorAnswer(id json.RawMessage, code int64, msg string) []byte {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   wireObject      `json:"error"`
	}{"2.0", id, wireObject{Code: code, Message: msg}})
	return b
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
