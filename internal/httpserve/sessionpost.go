package httpserve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/internal/rpcguard"
)

// post serves a POST of session c, by the SDK's rules and in their order (servePOST): its
// messages go to the session, its calls' answers come back as one event
// stream, a POST without calls is accepted with 202.
func (t *ownSessions) post(w http.ResponseWriter, r *http.Request, c *sessionConn) {
	if len(r.Header.Values("Last-Event-ID")) > 0 {
		http.Error(w, "can't send Last-Event-ID for POST request", http.StatusBadRequest)
		return
	}
	var first [1]jsonrpc.Message
	msgs, isBatch, err := t.messages(w, r, first[:0])
	if err != nil {
		http.Error(w, fmt.Sprintf("malformed payload: %v", err), http.StatusBadRequest)
		return
	}
	version := r.Header.Get(versionHeader)
	if version == "" {
		version = legacyVersion
	}
	if isBatch && version >= "2025-06-18" {
		http.Error(w, fmt.Sprintf("JSON-RPC batching is not supported in %s and later (request version: %s)", "2025-06-18", version), http.StatusBadRequest)
		return
	}
	extra := requestExtra(r)
	var one [1]jsonrpc.ID
	calls := one[:0]
	initialize := false
	for _, msg := range msgs {
		req, ok := msg.(*jsonrpc.Request)
		if !ok {
			continue
		}
		if err, unknown := checkRequest(req, t.opts.Methods); err != nil {
			if version >= standardHeadersVersion && unknown && req.IsCall() {
				writeSDKError(w, http.StatusNotFound, req.ID, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: err.Error()})
				return
			}
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		initialize = initialize || req.Method == "initialize"
		if meta := metaVersion(req.Params); req.IsCall() && version >= standardHeadersVersion || meta != "" {
			if req.Method != "server/discover" {
				t.log.Refused(r, "protocol_version", "a request of the 2026-07-28 protocol to a server with sessions", "version", version)
				statefulRefusal(w, req.ID, version)
				return
			}
			if fault := newProtocolFault(r.Header, meta); fault != nil {
				writeSDKError(w, http.StatusBadRequest, req.ID, fault)
				return
			}
		}
		req.Extra = extra
		if req.IsCall() {
			calls = append(calls, req.ID)
		}
	}
	if req, ok := msgs[0].(*jsonrpc.Request); ok && !isBatch {
		if fault := methodHeaderFault(r.Header, req.Method); fault != "" {
			writeSDKError(w, http.StatusBadRequest, req.ID, &jsonrpc.Error{Code: mcp.CodeHeaderMismatch, Message: fault})
			return
		}
	}
	if len(calls) == 0 {
		for _, msg := range msgs {
			if !c.send(msg) {
				http.Error(w, "session is closing", http.StatusNotFound)
				return
			}
		}
		w.WriteHeader(http.StatusAccepted)
		return
	}
	streamHeaders(w.Header())
	if initialize {
		w.Header().Set("Mcp-Session-Id", c.id)
	}
	ex := newExchange(w, version, len(calls))
	if dup, ok := c.register(calls, ex); !ok {
		writeSDKError(w, http.StatusBadRequest, dup, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest,
			Message: fmt.Sprintf("duplicate in-flight request ID %v", dup.Raw())})
		return
	}
	attach(w, ex)
	for _, msg := range msgs {
		if !c.send(msg) {
			return
		}
	}
	if !c.wait(r.Context(), ex) {
		return
	}
	// The client hung up: its calls still in flight are cancelled, as if
	// it had sent notifications/cancelled for each.
	for _, id := range c.forget(calls, ex) {
		if !c.cancel(id.Raw()) {
			return
		}
	}
}

// messages appends to msgs the messages of r's body, which the body guard
// has checked: a single call as the guard read it, anything else (a batch,
// a notification, the client's answer to a request of the server's)
// decoded by the SDK.
func (t *ownSessions) messages(w http.ResponseWriter, r *http.Request, msgs []jsonrpc.Message) (_ []jsonrpc.Message, isBatch bool, err error) {
	if aw := answerWriterOf(w); aw != nil && aw.answers.call.method != "" {
		call := aw.answers.call
		id, ok := rpcguard.ParseID(call.id)
		if ok {
			// The body is this request's alone: its params are not copied.
			return append(msgs, &jsonrpc.Request{ID: id, Method: call.method, Params: call.params}), false, nil
		}
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, false, err
	}
	body = bytes.TrimLeft(body, " \t\r\n")
	if len(body) > 0 && body[0] == '[' {
		var raws []json.RawMessage
		if err := json.Unmarshal(body, &raws); err != nil {
			return nil, true, err
		}
		for _, raw := range raws {
			msg, err := jsonrpc.DecodeMessage(raw)
			if err != nil {
				return nil, true, err
			}
			msgs = append(msgs, msg)
		}
		return msgs, true, nil
	}
	msg, err := jsonrpc.DecodeMessage(body)
	return append(msgs, msg), false, err
}
