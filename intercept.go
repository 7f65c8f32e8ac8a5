package mcpcore

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/seed417024ea/mcpcore/mcperr"
)

// A Call is one call of a definition as an [Interceptor] sees it: the
// definition it is for, and its input, decoded and validated.
type Call struct {
	// Kind is "tool", "resource" or "prompt".
	Kind string
	// Name is the definition's name.
	Name string
	// Input is the decoded input: the tool's In, the resource's Params or
	// the prompt's Args, after validation against its schema and its
	// Validate method. An interceptor may replace it with another value of
	// the same type before it calls next; a value of another type fails
	// the call with an InternalError.
	Input any
}

// A CallFunc runs a call: the rest of the interceptors, then the handler.
// Its output is what the handler returns: a tool's Out, a resource's Out, a
// prompt's []*mcp.PromptMessage.
type CallFunc func(ctx *Context, call *Call) (any, error)

// An Interceptor wraps the handler of every definition of a server: it
// receives the next CallFunc and returns the one that runs in its place,
// to add caching, audit records, quotas or argument rewriting around the
// handler.
//
// It sits inside the call pipeline: the call was admitted, its input
// decoded and validated, and its span and Context exist; what it returns
// goes on as the handler's would, through output validation, rendering,
// logging and telemetry. So an error it returns is the call's failure,
// exactly as a handler's: ctx.Fail works with the definition's contract,
// and an error outside the contract is classified. A panic is recovered
// into an InternalError, as a handler's is. An output it returns instead
// of calling next must have the handler's output type; another type fails
// the call with an InternalError.
//
// The interceptor itself is called once per definition, when the server
// is built; the CallFunc it returns runs for every call, concurrently.
type Interceptor func(next CallFunc) CallFunc

// intercepted returns h wrapped in the server's interceptors, the first of
// them outermost; h itself when there are none.
func intercepted[In, Out any](s *Server, kind, name string, h func(*Context, In) (Out, error)) (func(*Context, In) (Out, error), error) {
	if len(s.interceptors) == 0 {
		return h, nil
	}
	chain := CallFunc(func(ctx *Context, call *Call) (any, error) {
		in, ok := call.Input.(In)
		if !ok {
			return nil, internalError(kind, name, mcperr.WithCause(fmt.Errorf("an interceptor gave the handler of %s %q a %T as its input, where it takes a %v", kind, name, call.Input, reflect.TypeFor[In]())))
		}
		return h(ctx, in)
	})
	for i := len(s.interceptors) - 1; i >= 0; i-- {
		if chain = s.interceptors[i](chain); chain == nil {
			return nil, fmt.Errorf("%s %q: ServerOptions.Interceptors[%d] returned a nil CallFunc", kind, name, i)
		}
	}
	return func(ctx *Context, in In) (Out, error) {
		var zero Out
		out, err := chain(ctx, &Call{Kind: kind, Name: name, Input: in})
		if err != nil {
			return zero, err
		}
		if out == nil {
			return zero, nil
		}
		o, ok := out.(Out)
		if !ok {
			return zero, internalError(kind, name, mcperr.WithCause(fmt.Errorf("an interceptor returned a %T as the output of %s %q, whose handler returns a %v", out, kind, name, reflect.TypeFor[Out]())))
		}
		return o, nil
	}, nil
}

// errNilInterceptor is the error of a nil element of
// ServerOptions.Interceptors.
var errNilInterceptor = errors.New("ServerOptions.Interceptors holds a nil Interceptor")
