package mcpclient

import (
	"math"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore/internal/errchain"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// FromRPC returns an error from a [mcp.ClientSession] method (CallTool,
// ReadResource, GetPrompt, …) as an [*mcperr.Error], with err as its cause,
// so that errors.Is and errors.As still find what err holds; FromRPC(nil) is
// nil.
//
// When the server answered with a JSON-RPC error (a [*jsonrpc.Error] in
// err's chain: a resource or prompt failure, a protocol error such as
// MissingClientCapability, an unknown tool), the result has its code, its
// message and its data, decoded as [ErrorOf] decodes data; a code beyond
// the int32 range of [mcperr.Code] becomes [mcperr.CodeUnknownError].
//
// Any other error is the client's own: the call never reached the server or
// its answer never came back. It is classified as [mcperr.From] classifies
// errors (a cancelled context is RequestCancelled, an expired one Timeout,
// a refused connection ServiceUnavailable, …), except that a closed
// connection ([mcp.ErrConnectionClosed]) and a session the server no longer
// knows ([mcp.ErrSessionMissing]) are ServiceUnavailable, and the SDK's
// internal "rejected by transport" marker (-32005) is not read as the
// server's Forbidden. None of these carries data, so [RetryByContract] never retries
// them. An error that already holds an [*mcperr.Error] (one this package
// returned) is that error, as mcperr.From has it.
func FromRPC(err error) *mcperr.Error {
	if err == nil {
		return nil
	}
	if w := serverError(err); w != nil {
		code := mcperr.CodeUnknownError
		if w.Code >= math.MinInt32 && w.Code <= math.MaxInt32 {
			code = mcperr.Code(w.Code)
		}
		return mcperr.New(code, w.Message, mcperr.WithData(decodeData(w.Data)), mcperr.WithCause(err))
	}
	if errchain.Is(err, mcp.ErrConnectionClosed) || errchain.Is(err, mcp.ErrSessionMissing) {
		return mcperr.ServiceUnavailable(mcperr.Scrub(err.Error()), mcperr.WithCause(err))
	}
	return mcperr.From(err)
}

// serverError returns the first JSON-RPC error in err's chain that the
// server sent, skipping the SDK's own marker (see isRejected).
func serverError(err error) *jsonrpc.Error {
	var found *jsonrpc.Error
	chainHas(err, func(e error) bool {
		w, ok := e.(*jsonrpc.Error)
		if ok && w != nil && !isRejected(w) {
			found = w
			return true
		}
		return false
	})
	return found
}

// isRejected reports whether e is the SDK's "rejected by transport" marker,
// a *jsonrpc.Error with code -32005 that its HTTP transport wraps around
// failures that never reached the server. Its code is the SDK's, not the
// server's: read as an mcperr code it would say Forbidden.
func isRejected(e error) bool {
	w, ok := e.(*jsonrpc.Error)
	return ok && w != nil && w.Code == -32005 && w.Message == "rejected by transport" && len(w.Data) == 0
}

// chainHas reports whether match holds for an error of err's tree, walked
// as errors.As does but within the bounds of internal/errchain, so that a
// cyclic chain cannot hang it.
func chainHas(err error, match func(error) bool) bool {
	found, _ := errchain.Walk(err, match)
	return found
}
