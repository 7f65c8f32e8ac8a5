// Command mcplint checks mcpcore servers: each tool's and resource's error
// contract, each handler against its contract, handler bodies, and the
// text a server sends, for credentials written in the source.
//
// Usage:
//
//	mcplint [flags] [packages]                   # from a module root; packages default to ./...
//	go vet -vettool=$(which mcplint) [packages]
//
// Each finding is printed to stdout as file:line:col: message, sorted by
// file and position, and its message begins with the ID of its rule;
// mcplint -help lists the rules with their levels. The flags are:
//
//	-fix     apply the first suggested fix of each finding, gofmt the files
//	         it changes, and print only the findings left
//	-strict  fail on warnings too, for CI
//	-test    analyze the packages' test files too
//	-tags    comma-separated build tags, as for go build
//	-json    print the findings as JSON, one object a line: posn, rule,
//	         level, message, and url, the rule's documentation on pkg.go.dev
//
// Exit status:
//
//	0  no finding fails: none at all, or warnings only (printed all the same)
//	1  an error-level finding, or any finding with -strict
//	2  a usage error; packages that do not load or type-check; an analyzer
//	   that failed; or a fix that could not be written
//
// With -fix, the findings whose fix was applied are neither printed nor
// counted; those left (no fix, or a fix that overlaps an earlier one) are.
//
// As a vet tool, mcplint follows vet's convention: every finding fails,
// warnings too, and go vet exits 1. Vet analyzes test files as well.
//
// Silence a finding with a comment on its line, or on the contract entry:
//
//	//mcplint:ignore <rule-id> <reason>
package main

import (
	"github.com/seed417024ea/mcpcore/cmd/mcplint/internal/driver"
	"github.com/seed417024ea/mcpcore/lint"
)

func main() {
	driver.Main(driver.Tool{Analyzers: lint.Analyzers, Rules: lint.Rules, Level: lint.LevelOf})
}
