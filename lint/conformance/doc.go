// Package conformance defines an Analyzer that checks each mcpcore handler
// against its error contract.
//
// # Analyzer mcpconformance
//
// mcpconformance: check mcpcore handlers against their error contracts
//
// For every Tool and Resource literal with Errors, it reads the handler
// (a func literal, or a named function of the package) and reports:
//
//   - error-contract-undeclared (error): ctx.Fail with a Failure that is not
//     in this definition's Errors. It compiles, and fails at run time with
//     an InternalError naming the declared reasons.
//
//   - error-contract-recovery-unforwarded (warning): a ctx.Fail that carries
//     neither RecoveryFor nor a hint of its own (mcperr.WithRecovery, or
//     WithData with a "recovery" key): the declared Recovery then reaches no
//     client. The fix adds ctx.RecoveryFor(entry).
//
//   - error-contract-conformance (warning): the handler, or a service it
//     calls (in any package, any number of calls down), can return a code
//     that the contract does not declare and that is not a baseline code
//     (InternalError, ServiceUnavailable, Timeout, ValidationError,
//     SerializationError, MissingClientCapability). It is reported at the handler's call of the
//     service, naming it and the function that raises the code.
//
//   - error-contract-prefer-fail (warning): a factory or mcperr.New in the
//     handler builds a code that a contract entry declares (baseline codes
//     aside). The fix uses ctx.Fail with that entry, when it is the only one
//     with that code.
//
//   - error-contract-unthrown (warning): a declared entry whose reason
//     neither the handler (ctx.Fail) nor a service it calls
//     (mcpcore.RecoveryFor, data.reason) raises. Entries marked ThrownBy:
//     mcpcore.ThrownByService are not reported; the others are not reported
//     either when the handler calls something the analysis cannot see into
//     (an interface method, a function value) that can return an error.
//
// What a function can return is computed by lint/internal/raises, as facts
// that cross packages; mcperr.FromResponse, whose code depends on the
// upstream's status, never makes a conformance finding on its own.
//
// Wrong:
//
//	return out, ctx.Fail(noMatch, "No item "+id)
//
// Right:
//
//	return out, ctx.Fail(noMatch, "No item "+id, ctx.RecoveryFor(noMatch))
//
// An entry or option it cannot read (computed, passed as a variable, spread
// with ...) is taken to be fine: no finding on what is not known.
package conformance
