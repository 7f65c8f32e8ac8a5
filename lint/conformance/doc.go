// Package conformance defines an Analyzer that checks each mcpcore handler
// against its error contract.
//
// # Analyzer mcpconformance
//
// mcpconformance: check mcpcore handlers against their error contracts
//
// For every Tool and Resource literal with Errors, it reads the handler
// (a func literal, or a named function of the package) and reports the
// rules below, each in a section headed by its ID, which is where a
// finding's URL points.
//
// What a function can return is computed by lint/internal/raises, as facts
// that cross packages; mcperr.FromResponse, whose code depends on the
// upstream's status, never makes a conformance finding on its own.
//
// An entry or option it cannot read (computed, passed as a variable, spread
// with ...) is taken to be fine: no finding on what is not known.
//
// # error-contract-undeclared
//
// Level error. ctx.Fail with a Failure that is not in this definition's
// Errors. It compiles, and fails at run time with an InternalError naming
// the declared reasons. Declare the entry in Errors, or fail with a
// declared one.
//
// # error-contract-recovery-unforwarded
//
// Level warning. A ctx.Fail that carries neither RecoveryFor nor a hint of
// its own (mcperr.WithRecovery, or WithData with a "recovery" key): the
// declared Recovery then reaches no client. The fix adds
// ctx.RecoveryFor(entry). Wrong:
//
//	return out, ctx.Fail(noMatch, "No item "+id)
//
// Right:
//
//	return out, ctx.Fail(noMatch, "No item "+id, ctx.RecoveryFor(noMatch))
//
// # error-contract-conformance
//
// Level warning. The handler, or a service it calls (in any package, any
// number of calls down), can return a code that the contract does not
// declare and that is not a baseline code (InternalError,
// ServiceUnavailable, Timeout, ValidationError, SerializationError,
// MissingClientCapability). It is reported at the handler's call of the
// service, naming it and the function that raises the code. Declare the
// failure, or map the error to a declared one.
//
// # error-contract-prefer-fail
//
// Level warning. A factory or mcperr.New in the handler builds a code that
// a contract entry declares (baseline codes aside). The fix uses ctx.Fail
// with that entry, and its ctx.RecoveryFor, when it is the only entry with
// that code.
//
// # error-contract-unthrown
//
// Level warning. A declared entry whose reason neither the handler
// (ctx.Fail) nor a service it calls (mcpcore.RecoveryFor, data.reason)
// raises. Entries marked ThrownBy: mcpcore.ThrownByService are not
// reported; the others are not reported either when the handler calls
// something the analysis cannot see into (an interface method, a function
// value) that can return an error.
//
// # error-contract-unanalyzable
//
// Level info, never a failure. An Errors whose entries mcplint cannot
// compute (a call it cannot evaluate, a variable assigned again): the
// contract checks of that definition are skipped, and this note says so.
// Write the contract as a literal, a package variable, append,
// slices.Concat or a helper returning one.
package conformance
