package rpcguard

import (
	"encoding/json"
	"fmt"
)

// The JSON-RPC 2.0 error codes the guard answers with.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// An rpcError is the error object of an answer.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func parseError(why string) *rpcError {
	return &rpcError{Code: codeParseError, Message: "Parse error: " + why}
}

func invalidRequest(why string) *rpcError {
	return &rpcError{Code: codeInvalidRequest, Message: "Invalid Request: " + why}
}

func tooLong(limit int) *rpcError {
	return parseError(fmt.Sprintf("the line is longer than %d bytes", limit))
}

// answer encodes the error response to a message: under its id when given,
// under null otherwise.
func answer(e *rpcError, to *id) []byte {
	idJSON := json.RawMessage("null")
	if to != nil {
		idJSON = to.json()
	}
	return answerRaw(e, idJSON)
}

// answerRaw encodes the error response under idJSON, an id as written.
func answerRaw(e *rpcError, idJSON json.RawMessage) []byte {
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *rpcError       `json:"error"`
	}{"2.0", idJSON, e})
	return b
}
