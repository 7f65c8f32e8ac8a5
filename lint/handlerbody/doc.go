// Package handlerbody defines an Analyzer that checks how mcpcore handlers
// build the errors they return.
//
// # Analyzer mcphandlerbody
//
// mcphandlerbody: check the errors mcpcore handlers return
//
// It reads the body of every handler of a Tool, Resource or Prompt literal, given as
// a func literal or as a named function of the package, and reports, at each
// return statement, the rules below, each in a section headed by its ID,
// which is where a finding's URL points.
//
// Wrong:
//
//	if err != nil {
//		return out, mcperr.New(mcperr.CodeNotFound, "lookup failed: "+err.Error())
//	}
//
// Right:
//
//	if err != nil {
//		return out, ctx.Fail(noMatch, "No item "+id, mcperr.WithCause(err), ctx.RecoveryFor(noMatch))
//	}
//
// Nested func literals inside a handler are not its body, and are not read.
//
// preserve-cause-on-rethrow and no-stringify-upstream-error also apply to
// services: every other function with a body, in any package of the module
// (a package of services is analyzed before the handlers that import it,
// and cannot know which of them call it). An error a service builds with
// mcperr and returns is what a handler passes on to the client, so in a
// service the two rules judge only the errors built, at a return, with an
// mcperr factory, mcperr.New or ctx.Fail, and report them at the service's
// line:
//
//	func (c *Client) Fetch(ctx context.Context, id string) ([]byte, error) {
//		resp, err := c.http.Get(c.url + id)
//		if err != nil {
//			return nil, mcperr.ServiceUnavailable(fmt.Sprintf("NCBI request failed: %v", err)) // both rules
//		}
//		…
//	}
//
// How a service builds and wraps its other errors (errors.New, fmt.Errorf)
// is plain Go, and not judged; nor is an mcperr error it only logs, nor
// prefer-mcp-error-in-handler and prefer-error-factory, which are the
// handler's. mcpcore's own packages (mcperr, mcpclient, …) are the API,
// not services, and are not read; its examples are.
//
// # prefer-mcp-error-in-handler
//
// Level warning. errors.New, or fmt.Errorf without %w. The client gets a
// classified code and no reason; return ctx.Fail with a declared entry, or
// an mcperr factory.
//
// # prefer-error-factory
//
// Level warning. mcperr.New with a code that has a named factory, such as
// mcperr.New(mcperr.CodeNotFound, msg). The fix uses the factory.
//
// # preserve-cause-on-rethrow
//
// Level warning. Inside if err != nil, a new error that drops err:
// errors.New, fmt.Errorf without %w err, or a factory, mcperr.New or
// ctx.Fail without mcperr.WithCause(err). The operator loses the cause in
// the log. A condition nested in the error branch (if errors.Is(err, x),
// if mcperr.CodeOf(err) == …) is still in it, unless it tests err == nil.
//
// # no-stringify-upstream-error
//
// Level warning. A message built from an upstream error or body:
// err.Error(), %v (or %s, %q, %+v) of an error, json.Marshal, or string(b)
// of a []byte; and what an upstream said followed into the message through
// local variables, concatenation, fmt.Sprint*, strings and bytes functions
// and helpers of any package: a body a helper reads, resp.Status, and a
// field of a document decoded from the upstream's body (upErr.Message,
// the upstream's own message). What an upstream says can carry secrets and internal detail
// to the client; say what failed, and keep the upstream error as the cause.
package handlerbody
