// Package docscheck keeps the documentation honest. Its tests, which run
// under go test ./... and so under make test, check that every ```go block
// of README.md and docs/*.md compiles and passes go vet; that every fence
// names its language, so that no Go escapes the check unlabelled; that every
// relative link points at a file, and a fragment at a heading, that exist;
// and that the README's first server prints what the README shows. (That
// docs/configuration.md's table is the one of the variables the server
// reads is checked by package app's TestConfigurationTable.)
//
// A block is compiled as one of three kinds, by what it holds:
//
//   - a whole file: its first line that is not a comment is a package
//     clause. It is built as its own package, as written.
//   - declarations: any other block without a marker is a list of
//     declarations (types, vars, funcs). The declarations of one page
//     share one package, so a later block may use what an earlier one
//     declared.
//   - statements: the block follows a go:body marker, which names the
//     function the statements are the body of, and so what they can use.
//
// A go:body marker is an HTML comment, which renders as nothing, on a line
// before the block:
//
//	<!-- go:body func(ctx *mcpcore.Context, in fetchInput) (fetchOutput, error) -->
//
// A page may also hold, in an HTML comment that renders as nothing,
// declarations its blocks use without showing them (a type the prose
// describes, a service the example calls):
//
//	<!-- go:context
//	type fetchInput struct{ PMIDs []string }
//	-->
//
// Fragments need no import lines: the packages they name (mcpcore, mcperr,
// context, fmt, …, see [Imports]) are imported for them. Every fragment is
// written after a //line directive, so the compiler and vet report a broken
// block at its page and line: docs/testing.md:41:9: undefined: orderItem.
package docscheck
