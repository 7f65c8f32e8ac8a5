// Package contract defines an Analyzer that checks the structure of mcpcore
// error contracts, before the server ever starts.
//
// # Analyzer mcpcontract
//
// mcpcontract: check the structure of error contract entries
//
// Each mcpcore.Failure literal, wherever it is declared (a package variable,
// an element of Errors, a local variable of a helper that builds a tool), is
// checked on its own:
//
//   - error-contract-code-unknown (error): a Code that is not an mcperr code;
//   - error-contract-code-unknown-error (warning): CodeUnknownError, which
//     says nothing of what failed;
//   - error-contract-reason-required (error): an empty Reason;
//   - error-contract-reason-format (warning): a Reason not in snake_case
//     (the fix renames it, when the new name is not taken);
//   - error-contract-when-required (error): an empty When;
//   - error-contract-recovery-required (error): a missing or blank Recovery;
//   - error-contract-recovery-min-words (warning): a Recovery of fewer than
//     five words, or a placeholder such as "Try again.";
//   - error-contract-severity-level (error): a Severity that is not debug,
//     info, notice, warning or error.
//
// Each contract (the Errors of a Tool or Resource literal) is checked whole:
//
//   - error-contract-empty (warning): Errors declared with no entry;
//   - error-contract-reason-unique (error): a Reason given twice.
//
// A field whose value is not a constant is not checked: the analyzer says
// nothing it cannot know. Wrong:
//
//	var noMatch = mcpcore.Failure{Reason: "NoMatch", Code: mcperr.CodeNotFound, When: "No match.", Recovery: "Try again."}
//
// Right:
//
//	var noMatch = mcpcore.Failure{Reason: "no_match", Code: mcperr.CodeNotFound, When: "No requested PMID returned data.",
//		Recovery: "Try pubmed_search_articles to discover valid PMIDs first."}
package contract
