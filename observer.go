package mcpcore

import (
	"context"
	"net/http"

	"github.com/seed417024ea/mcpcore/mcperr"
)

// An Observer is told of every call and session the server serves, so that
// metrics and traces can be recorded without the server knowing how:
// package github.com/seed417024ea/mcpcore/mcpotel is the OpenTelemetry
// one, and package app gives it the providers it builds from the OTEL_*
// variables. Give one in [ServerOptions].Observer; with none, the server
// records nothing and the call path pays nothing for it.
//
// The server calls it from many goroutines at once. A panic in it is
// recovered at the end of a call: telemetry is not worth a call.
type Observer interface {
	// StartCall is told of a call as it is admitted, before its handler
	// runs. The context it returns is the one the call runs in: one that
	// carries the call's span, so that spans the handler starts nest
	// under it. It returns the ctx it was given and a nil CallObservation
	// when it records nothing of the call.
	StartCall(ctx context.Context, call CallInfo) (context.Context, CallObservation)
	// StartSession is told of a session once its client has initialized
	// it; it returns nil when it records nothing of the session.
	StartSession(session SessionInfo) SessionObservation
	// TraceIDs returns the ids of the trace and span ctx carries, in hex,
	// for the traceId and spanId of the call's log records; "" when ctx
	// carries none.
	TraceIDs(ctx context.Context) (traceID, spanID string)
}

// A CallObservation is one call being observed, from
// [Observer.StartCall] to its End, which the server calls once, as the
// call ends, with what the client was told.
type CallObservation interface {
	End(CallOutcome)
}

// A TaskObservation is a CallObservation that is told when its call
// becomes a task (see [TaskSupport]): BecameTask is called once, as the
// request is answered with the task's id, and End later, once, when the
// task ends, with its final outcome. An observation that lacks BecameTask
// sees a task as one long call, from its admission to End at the task's
// end.
type TaskObservation interface {
	CallObservation
	// BecameTask is told the id of the task the call became; the handler
	// still runs, in the context StartCall returned.
	BecameTask(taskID string)
}

// A SessionObservation is one session being observed, from
// [Observer.StartSession] to its End, which the server calls once, when
// the session has ended: err is why, as the SDK reports it (nil, io.EOF or
// context.Canceled when the session was closed rather than broken).
type SessionObservation interface {
	End(err error)
}

// CallInfo is a call as the server admits it.
type CallInfo struct {
	// Kind is "tool", "resource" or "prompt".
	Kind string
	// Name is the definition's name: a tool's or prompt's name, a
	// resource's name. It comes from the definition, never from the
	// request, so it is bounded.
	Name string
	// URI is the URI a resources/read asked for, as the client sent it:
	// it may hold credentials in its user information or query.
	URI string
	// Template is a resource's URI template ("" for a fixed URI): unlike
	// the URIs read, it is bounded.
	Template string
	// SessionID is the MCP session's id; "" when the transport has none.
	SessionID string
	// RequestID is the JSON-RPC id, as a string; "" when unknown (the SDK
	// does not hand it to the server).
	RequestID string
	// Transport is "stdio" or "http".
	Transport string
	// ProtocolVersion is the MCP protocol version the session negotiated;
	// "" when unknown.
	ProtocolVersion string
	// Meta is the request's params._meta, where a client puts its trace
	// context (traceparent, tracestate), as the MCP semantic conventions
	// recommend. It is the request's own: read it, do not change it.
	Meta map[string]any
	// Header holds the HTTP request's headers, another place for the trace
	// context; nil on stdio.
	Header http.Header
	// InputBytes is the size of the input, in bytes of JSON: a tool's or
	// prompt's arguments, a resource's URI.
	InputBytes int
}

// CallOutcome is how a call ended, as the client was told.
type CallOutcome struct {
	// Failed is true when the client got a failure: an error result for a
	// tool, a JSON-RPC error for a resource or a prompt.
	Failed bool
	// Code is the failure's code.
	Code mcperr.Code
	// Message is the message the client got, scrubbed as it was for the
	// client and the failure's log record: one text on every surface.
	Message string
	// Severity is the declared severity of a tool's declared failure when
	// it is not SeverityError, and "" for anything else.
	Severity Severity
	// Cause is the error the failure was classified from: for its type;
	// its text may hold what the client was never sent.
	Cause error
	// OutputBytes is the size of the answer, in bytes of JSON: a
	// success's result, a failure's error object.
	OutputBytes int
	// Messages is the number of messages a prompt generated.
	Messages int
}

// SessionInfo is a session as its client initialized it.
type SessionInfo struct {
	// Transport is "stdio" or "http".
	Transport string
	// ProtocolVersion is the MCP protocol version the session negotiated.
	ProtocolVersion string
}
