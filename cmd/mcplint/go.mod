module github.com/seed417024ea/mcpcore/cmd/mcplint

go 1.26.0

require (
	github.com/seed417024ea/mcpcore v0.0.0-20261204194906-2ed19852112b
	github.com/seed417024ea/mcpcore/lint v0.0.0-00010101000000-000000000000
	golang.org/x/tools v0.52.0
)

require (
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
)

// In this repository the command builds against the core and the linter
// beside it.
replace (
	github.com/seed417024ea/mcpcore => ../..
	github.com/seed417024ea/mcpcore/lint => ../../lint
)
