// Package lint holds mcplint's analyzers: the checks of an mcpcore server's
// error contracts, of its handlers against them, and of its handler bodies,
// built on golang.org/x/tools/go/analysis.
//
// [Analyzers] is the list cmd/mcplint runs; [Rules] lists every rule with
// its level. Every diagnostic's message begins with its rule's ID and a
// colon, such as
//
//	error-contract-reason-unique: reason "no_match" is declared twice in tool fetch_articles; rename or merge the entries
//
// A finding is silenced with a comment on its line, or on the contract entry
// it is about:
//
//	//mcplint:ignore <rule-id> <reason>
//
// A suppression without a reason is itself a finding (mcplint-ignore-reason).
package lint
