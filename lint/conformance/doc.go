// Package conformance defines an Analyzer that checks each mcpcore handler
// against its error contract.
//
// # Analyzer mcpconformance
//
// mcpconformance: check mcpcore handlers against their error contracts
//
// For every Tool, Resource and Prompt literal with Errors, it reads the handler
// (a func literal, or a named function of the package) and reports the
// rules below, each in a section headed by its ID, which is where a
// finding's URL points.
//
// A handler is judged by what reaches its return statements, followed in
// its SSA form (golang.org/x/tools/go/ssa): an err assigned in both branches of an
// if, checked with errors.Is before it is returned, reused for a second
// call after the first was mapped, or set inside a closure (a Retry
// callback, or a func() error handed to a queue helper of the user's own,
// which is taken to hand the closure's errors back) carries what can be in
// it at the return, and nothing else. What a service returns is computed
// by lint/internal/raises, as facts that cross packages, and is
// flow-insensitive within each service; mcperr.FromResponse, whose code
// depends on the upstream's status, never makes a conformance finding on
// its own.
//
// ctx.FailFrom(err, entries...) is followed as it runs: what err can carry
// becomes the entry whose reason a service stamped on it, else the one
// entry given with its code (its reason, raised there), and passes on
// unchanged when neither decides; with no entries, the definition's whole
// contract is searched.
//
// Helpers of the package that take a *mcpcore.Context are checked too:
// their ctx.Fail calls for a forwarded recovery where they stand, and for a
// declared entry against the contract of each tool whose handler reaches
// them.
//
// An entry or option it cannot read (computed, passed as a variable, spread
// with ...) is taken to be fine: no finding on what is not known.
//
// # error-contract-undeclared
//
// Level error. ctx.Fail (or an Elicit's OnDecline) with a Failure that is
// not in this definition's Errors, in the handler, or in a helper taking
// *mcpcore.Context that the handler calls (reported at the handler's call,
// naming the helper's line).
// It compiles, and fails at run time with an InternalError naming the
// declared reasons. Declare the entry in Errors, or fail with a declared
// one.
//
// # error-contract-recovery-unforwarded
//
// Level warning. A site that sends a declared failure without asking for
// its hint, so that the declared Recovery reaches no client:
//   - a ctx.Fail that carries neither RecoveryFor nor a hint of its own
//     (mcperr.WithRecovery, or WithData with a "recovery" key); the fix
//     adds ctx.RecoveryFor(entry);
//   - a ctx.FailFrom that maps onto an entry an error its service raised
//     with neither mcpcore.RecoveryFor(ctx, entry) nor a hint of its own
//     (an error of mcperr.FromResponse, whose entry depends on the status,
//     is not judged): FailFrom keeps the hint the service set, and adds
//     none, so the opt-in is where the service raises (no fix is offered);
//   - an OnDecline of an Elicit without RecoveryFor (the fix adds
//     ctx.RecoveryFor(entry)), or an Elicit without OnDecline in a
//     definition whose contract declares consent_declined (the fix adds
//     mcpcore.OnDecline(entry, ctx.RecoveryFor(entry))).
//
// Wrong:
//
//	return out, ctx.Fail(noMatch, "No item "+id)
//	return nil, mcperr.ServiceUnavailable("NCBI is unreachable") // mapped with ctx.FailFrom(err, ncbiDown)
//
// Right:
//
//	return out, ctx.Fail(noMatch, "No item "+id, ctx.RecoveryFor(noMatch))
//	return nil, mcperr.ServiceUnavailable("NCBI is unreachable", mcpcore.RecoveryFor(ctx, ncbiDown))
//
// # error-contract-conformance
//
// Level warning. The handler, or a service it calls (in any package, any
// number of calls down), can return a code that the contract does not
// declare and that is not a baseline code (InternalError,
// ServiceUnavailable, Timeout, ValidationError, SerializationError,
// MissingClientCapability). It is reported at the handler's call of the
// service, naming it and the function that raises the code, or at the
// ctx.FailFrom that passes it on unchanged, naming the line it comes in at.
// Declare the failure, or map the error to a declared one.
//
// # error-contract-failfrom-unmapped
//
// Level warning. A code the contract declares reaches ctx.FailFrom, which
// passes it on without its entry: no entry given has that code, or several
// do (given, or found twice in the contract when none is given). The client
// then gets the code without the reason and recovery the contract
// publishes for it. Pass the entry for that code. Wrong:
//
//	doc, err := svc.Article(ctx, id) // can return NotFound and RateLimited
//	if err != nil {
//		return out, ctx.FailFrom(err, busy) // NotFound goes out unmapped
//	}
//
// Right:
//
//	return out, ctx.FailFrom(err, busy, missing)
//
// # error-contract-reason-undeclared
//
// Level warning. A service stamps a reason on the errors it returns
// (mcperr.WithData with "reason", mcpcore.RecoveryFor(ctx, entry)) and no
// definition whose handler they reach declares it: a misspelt
// "upstream_unreachble" reaches the wire under a reason no published
// contract names. It is reported once per reason and service, at the first
// call that brings it in. Fix the reason, or declare it.
//
// # error-contract-prefer-fail
//
// Level warning. A factory or mcperr.New in the handler builds a code that
// a contract entry declares, a baseline code such as ValidationError
// included: the error goes out without the entry's reason and hint. The
// fix uses ctx.Fail with that entry, and its ctx.RecoveryFor, when it is
// the only entry with that code.
//
// # error-contract-unthrown
//
// Level warning. A declared entry whose reason neither this definition's
// handler (ctx.Fail, ctx.FailFrom given the entry over an error that can
// have its code, Elicit for a consent_declined entry, or the entry an
// OnDecline names) nor a service it calls (mcpcore.RecoveryFor, data.reason)
// raises. It is decided per definition: an entry of a shared contract that
// another tool raises is still reported for the one that does not. Entries
// marked ThrownBy: mcpcore.ThrownByService are not reported; the others
// are not reported either when the handler's errors can come from
// something the analysis cannot see into (an interface method declared
// where mcperr errors are built, a function value), or when the handler
// names the entry other than as FailFrom's (passes it to a helper, keeps it
// in a variable).
//
// # error-contract-unanalyzable
//
// Level info, never a failure. An Errors whose entries mcplint cannot
// compute (a call it cannot evaluate, a variable assigned again): the
// contract checks of that definition are skipped, and this note says so.
// Write the contract as a literal, a package variable, append,
// slices.Concat or a helper returning one.
//
// It also says where a handler's errors can come from a function value
// that mcplint cannot follow to the functions it holds (a map element, the
// result of another package's helper), in the handler or any service it
// calls: what those errors carry is not known, so error-contract-unthrown
// is skipped for the definition. A closure kept in a local or package
// variable, in a field the package sets, or returned by a helper of its
// package, called or handed to mcperr.Retry or a queue, is followed.
package conformance
