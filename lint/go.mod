module github.com/seed417024ea/mcpcore/lint

go 1.26.0

require (
	github.com/golangci/plugin-module-register v0.1.2
	github.com/seed417024ea/mcpcore v0.0.0-20261204194906-2ed19852112b
	golang.org/x/tools v0.52.0
)

require (
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
)

// In this repository the linter builds against the core beside it; a
// module that requires this one gets the core at the version above, or
// its own if higher.
replace github.com/seed417024ea/mcpcore => ../
