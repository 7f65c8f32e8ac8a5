// Package contract defines an Analyzer that checks the structure of mcpcore
// error contracts, before the server ever starts.
//
// # Analyzer mcpcontract
//
// mcpcontract: check the structure of error contract entries
//
// Each mcpcore.Failure literal, wherever it is declared (a package variable,
// an element of Errors, a local variable of a helper that builds a tool), is
// checked on its own; each contract (the Errors of a Tool, Resource or Prompt
// literal) is checked whole. The rules are below, each in a section headed
// by its ID, which is where a finding's URL points. The analyzer also
// reports, once for the whole suite, the //mcplint:ignore directives that
// silence nothing.
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
//
// # error-contract-empty
//
// Level warning, per contract. Errors declared with no entry: declare the
// failures, or drop Errors.
//
// # error-contract-code-unknown
//
// Level error, per entry. A Code that is not an mcperr code: use an
// mcperr.Code constant.
//
// # error-contract-code-unknown-error
//
// Level warning, per entry. CodeUnknownError, which says nothing of what
// failed: pick the code that does.
//
// # error-contract-reason-required
//
// Level error, per entry. An empty Reason: name the failure in snake_case.
//
// # error-contract-reason-format
//
// Level warning, per entry. A Reason not in snake_case. The fix renames
// it, when the new name is not taken.
//
// # error-contract-reason-unique
//
// Level error, per contract. A Reason given twice: rename or merge the
// entries.
//
// # error-contract-when-required
//
// Level error, per entry. An empty When: say when the failure happens.
//
// # error-contract-recovery-required
//
// Level error, per entry. A missing or blank Recovery: tell the caller its
// next move.
//
// # error-contract-recovery-min-words
//
// Level warning, per entry. A Recovery of fewer than five words, or a
// placeholder such as "Try again.": name a capability the caller can use.
//
// # error-contract-severity-level
//
// Level error, per entry. A Severity that is not debug, info, notice,
// warning or error: use an mcpcore.Severity constant.
//
// # mcplint-ignore-reason
//
// Level warning. A //mcplint:ignore directive that silences nothing: one
// that names no rule, names a rule mcplint does not have (a typo would
// otherwise go unnoticed), or gives no reason. Write
//
//	//mcplint:ignore <rule-id> <reason>
//
// and say why the rule does not apply.
package contract
