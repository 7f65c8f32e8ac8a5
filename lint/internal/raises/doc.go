// Package raises computes what the errors of each function of an mcpcore
// server can carry: the mcperr codes it can return and the contract reasons
// it can raise, each with the function it comes through. It reports
// nothing; mcplint's conformance rules require [Analyzer] and ask its
// [Result], so that a handler is judged by what the services it calls raise,
// in its package or another.
//
// # What counts
//
// Only what can reach a return statement of the function: an error in a
// return's results (of a type that implements error), or held by a variable
// that a return gives back, directly or wrapped. An error built and only
// logged counts for nothing. The sources are
//
//   - an mcperr factory, or mcperr.New with a constant code: that code;
//     its options mcperr.WithData(map[string]any{"reason": "x"}) with a
//     constant reason, mcpcore.RecoveryFor(ctx, entry) and
//     ctx.RecoveryFor(entry): that reason, with the error's code (a
//     service that attaches the recovery of a reason raises it). An
//     error built with a hint, or an option that may set one, is marked
//     Hinted, which ctx.FailFrom keeps;
//   - ctx.Fail(entry, …) on *mcpcore.Context: the entry's Code and Reason,
//     when the entry is an mcpcore.Failure literal, a package-level
//     variable initialised with one (in this package or, through a
//     [Failure] fact, another), or a local variable defined once with one;
//   - mcperr.FromResponse: recorded apart, see [Raises];
//   - a call of a function with a body, in this package or another: what
//     it raises, through it, plus what the caller passes to the parameters
//     it hands back;
//   - fmt.Errorf with %w, errors.Join and mcperr.From keep what their error
//     arguments carry; mcperr.Retry and mcperr.TryCatch keep what their
//     function returns, and so does any call that returns an error and is
//     passed a func returning one: a queue's q.do(ctx, func() error { … })
//     is taken to hand the closure's errors back, whether it calls it or a
//     worker does;
//   - a function value, called or handed on as above, is followed to the
//     functions it can hold: a func literal, a function or method named
//     statically, a local or package variable (everything assigned to it),
//     a field of a struct type of the package (everything the package
//     assigns to it), or what a helper of the package returns. A literal
//     called with arguments has its parameters bound to them, for its
//     conditions and reasons. One it cannot follow (a map element, a
//     helper of another package's result) makes the function Opaque, and
//     is listed in Unfollowed;
//   - a reason stamped from a string parameter, directly
//     (map[string]any{"reason": reason}) or through a helper that builds
//     the data map (mcperr.WithData(data("path_is_dir")), data a function
//     of the package or a func literal in a variable), is the constant the
//     call passes; one passed on from the caller's parameter is listed in
//     ParamReasons, for the callers to stamp;
//   - a code taken from an mcperr.Code parameter (mcperr.New(code, …), in
//     a function of the package or a func literal in a variable) is the
//     constant the call passes, literal or named, and so is the code of a
//     reason the same error stamps; one passed on from the caller's
//     parameter is listed in ParamCodes (and a reason stamped from a
//     parameter with it, as a ParamReason's CodeParam), for the callers
//     to bind. A code that is neither leaves the reason with code 0;
//   - an item raised under a test of a parameter against a string
//     constant (op == "push", args[0] == "push" on a slice or variadic
//     parameter, op.Verb == "push" on a struct one) keeps it as its
//     Cond: a call that passes another constant there (a variadic
//     argument, an element of a slice literal, a field of a struct
//     literal, a field a keyed literal leaves out) cannot get it;
//   - ctx.FailFrom(err, entries...): each code err carries becomes the one
//     entry given with that code, and stays as it is when none or several
//     have it; an entry whose code err cannot carry is not raised.
//
// For example, given a service in package ncbi and a handler that uses it,
//
//	func (c *Client) Fetch(ctx context.Context, id string) ([]byte, error) {
//		resp, err := c.get(ctx, id)
//		if err != nil {
//			return nil, fmt.Errorf("fetch %s: %w", id, err)
//		}
//		…
//	}
//
//	func (c *Client) get(ctx context.Context, id string) (*http.Response, error) {
//		…
//		return nil, mcperr.RateLimited("slow down", mcpcore.RecoveryFor(ctx, rateLimited))
//	}
//
//	func fetchArticles(ctx *mcpcore.Context, in input) (output, error) {
//		b, err := client.Fetch(ctx, in.ID)
//		if err != nil {
//			return output{}, err
//		}
//		log.Print(mcperr.NotFound("only logged"))
//		…
//	}
//
// fetchArticles's fact is
//
//	codes RateLimited via ncbi.Client.Fetch from ncbi.Client.get; reasons rate_limited:RateLimited via ncbi.Client.Fetch from ncbi.Client.get
//
// and the NotFound it only logs is not in it.
//
// # What does not count
//
// Anything the analysis cannot resolve statically adds nothing, because a
// rule built on these facts should stay silent rather than guess; a call of
// an interface method declared where mcperr errors are built, or of a
// function value it cannot follow where they are, marks the function
// Opaque instead, so that rules judging by absence know: interface
// method calls, function values it cannot follow, goroutines and
// deferred calls, errors passed through channels or struct fields, codes
// that are not constants, entries it cannot read, and package-level error
// variables. Within a function the analysis is flow-insensitive: a variable
// carries everything assigned to it anywhere in the function, in a closure
// too (once.Do(func() { err = … }) counts), but not in the function literal
// of a go or defer statement.
//
// A function with nothing to say gets no fact: importers then see an empty
// Raises, as for a function without a body.
//
// # Facts and queries
//
// A *[Raises] fact is exported on every function of the package that can
// raise something, and a *[Failure] fact on every package-level variable
// initialised with an mcpcore.Failure literal. Analyzers cannot import the
// facts of another analyzer, so a rule that requires Analyzer asks its
// *[Result] instead, or calls [Of]:
//
//	res := pass.ResultOf[raises.Analyzer].(*raises.Result)
//	rs := res.Of(handlerLit) // or res.Func(fn), for any function object
//	for _, c := range rs.Codes {
//		// c.Code, c.Via ("b.Client.Fetch"), c.Pos() for the call site
//	}
package raises
