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
//   - error-contract-recovery-unforwarded (warning): a ctx.Fail that carries
//     neither RecoveryFor nor a hint of its own (mcperr.WithRecovery, or
//     WithData with a "recovery" key): the declared Recovery then reaches no
//     client. The fix adds ctx.RecoveryFor(entry).
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
