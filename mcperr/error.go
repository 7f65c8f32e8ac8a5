package mcperr

import (
	"encoding/json"
	"errors"
	"maps"
)

// An Error is a failure with a JSON-RPC code, a message for the client, an
// optional data map that travels to the client with it, and an optional cause
// that stays on the server (logs only).
//
// Build one with [New] or a factory such as [NotFound]; turn any other error
// into one with [From]. The zero value is not useful.
//
// Every method is safe on a nil *Error, which reads as an empty error (code
// 0, no message, no data, no cause): a handler that returns a typed nil as
// error must not crash whoever classifies, renders or logs it.
type Error struct {
	code    Code
	message string
	data    map[string]any
	cause   error
}

// An Option adjusts an [Error] while [New] or a factory builds it. A nil
// Option is ignored.
type Option func(*Error)

// WithData merges data into the error's data map; a later WithData overwrites
// keys of an earlier one. The map is copied, so the caller may reuse it.
// WithData(nil) leaves the data absent, while an empty map yields an empty,
// present data map.
func WithData(data map[string]any) Option {
	return func(e *Error) {
		if data == nil {
			return
		}
		if e.data == nil {
			e.data = make(map[string]any, len(data))
		}
		maps.Copy(e.data, data)
	}
}

// WithCause records the error that led to this one. The cause is reachable
// through [errors.Unwrap], [errors.Is] and [errors.As], and is logged, but it
// never travels to the client.
func WithCause(err error) Option {
	return func(e *Error) { e.cause = err }
}

// New returns an error with the given code and message.
//
// A top-level "auth" key never survives in the data: request contexts that
// carry bearer tokens there are often passed along as data, and this keeps
// the token off the wire.
func New(code Code, message string, opts ...Option) *Error {
	e := &Error{code: code, message: message}
	for _, opt := range opts {
		if opt != nil { // an option chosen at run time may be absent
			opt(e)
		}
	}
	delete(e.data, "auth")
	return e
}

// Code returns the error's code, or 0 for a nil *Error.
func (e *Error) Code() Code {
	if e == nil {
		return 0
	}
	return e.code
}

// Message returns the message meant for the client. It may be empty, and is
// for a nil *Error.
func (e *Error) Message() string {
	if e == nil {
		return ""
	}
	return e.message
}

// Data returns the error's data, or nil when none was set. The map belongs to
// the error: callers must not modify it.
func (e *Error) Data() map[string]any {
	if e == nil {
		return nil
	}
	return e.data
}

// Cause returns the error this one was built from, or nil.
func (e *Error) Cause() error {
	if e == nil {
		return nil
	}
	return e.cause
}

// Error returns the message, or the code's name when the message is empty,
// or "<nil>" for a nil *Error, as fmt prints a nil pointer.
func (e *Error) Error() string {
	if e == nil {
		return "<nil>"
	}
	if e.message == "" {
		return e.code.String()
	}
	return e.message
}

// Unwrap returns the cause, so that errors.Is and errors.As look through it;
// nil for a nil *Error, which ends the chain there.
func (e *Error) Unwrap() error {
	if e == nil {
		return nil
	}
	return e.cause
}

// wireError is the JSON-RPC error object: the only shape in which an Error
// ever leaves the process.
type wireError struct {
	Code    Code           `json:"code"`
	Message string         `json:"message"`
	Data    map[string]any `json:"data,omitempty"`
}

// MarshalJSON encodes the error as a JSON-RPC error object,
// {"code":…,"message":…,"data":…}, with "data" present exactly when the error
// has data (an empty map encodes as {}). The cause is never encoded. A nil
// *Error encodes as null.
func (e *Error) MarshalJSON() ([]byte, error) {
	if e == nil {
		return []byte("null"), nil
	}
	if e.data != nil && len(e.data) == 0 {
		// omitempty would drop an empty but present map.
		return json.Marshal(struct {
			Code    Code           `json:"code"`
			Message string         `json:"message"`
			Data    map[string]any `json:"data"`
		}{e.code, e.message, e.data})
	}
	return json.Marshal(wireError{e.code, e.message, e.data})
}

// UnmarshalJSON decodes a JSON-RPC error object, as received from a peer. It
// fails on a nil *Error, which has nowhere to keep the result.
func (e *Error) UnmarshalJSON(b []byte) error {
	if e == nil {
		return errors.New("mcperr: UnmarshalJSON on a nil *Error")
	}
	var w wireError
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	// A peer's data obeys the same rule as ours: no bearer tokens relayed.
	delete(w.Data, "auth")
	*e = Error{code: w.Code, message: w.Message, data: w.Data}
	return nil
}
