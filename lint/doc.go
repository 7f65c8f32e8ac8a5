// Package lint holds mcplint's analyzers: the checks of an mcpcore server's
// error contracts, of its handlers against them, of its handler bodies, and
// of the text it sends for credentials written in the source, built on
// golang.org/x/tools/go/analysis.
//
// [Analyzers] is the list cmd/mcplint runs; [Rules] lists every rule with
// its level. Every diagnostic's message begins with its rule's ID and a
// colon, such as
//
//	error-contract-reason-unique: reason "no_match" is declared twice in tool fetch_articles; rename or merge the entries
//
// and its URL (Rule.URL) is the rule's documentation: the section headed
// by the rule's ID in the documentation of the analyzer's package, such as
// https://pkg.go.dev/github.com/seed417024ea/mcpcore/lint/contract#hdr-error_contract_reason_unique.
//
// A finding is silenced with a comment on its line, or on the contract entry
// it is about:
//
//	//mcplint:ignore <rule-id> <reason>
//
// A suppression without a reason is itself a finding (mcplint-ignore-reason).
package lint
