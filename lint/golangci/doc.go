// Package golangci makes mcplint a golangci-lint v2 module plugin, named
// mcplint: importing it registers [lint.Analyzers] with golangci-lint's
// plugin registry.
//
// golangci-lint builds a binary with the plugin compiled in, from a
// .custom-gcl.yml such as the one at the root of this repository:
//
//	version: v2.15.0
//	plugins:
//	  - module: github.com/seed417024ea/mcpcore
//	    import: github.com/seed417024ea/mcpcore/lint/golangci
//	    version: latest
//
// then `golangci-lint custom` writes ./custom-gcl, which runs the linter
// once .golangci.yml enables it (.golangci.example.yml has this):
//
//	version: "2"
//	linters:
//	  enable:
//	    - mcplint
//	  settings:
//	    custom:
//	      mcplint:
//	        type: module
//	        description: checks mcpcore error contracts, handlers and handler bodies
//	issues:
//	  uniq-by-line: false # mcplint can report two rules on one line
//
// `golangci-lint custom` git-clones golangci-lint; where only the Go module
// proxy is reachable, scripts/golangci-custom.sh builds the same binary.
//
// The plugin takes no settings. golangci-lint reports every finding as an
// issue of the linter mcplint, whatever the rule's level; a finding is
// silenced with //mcplint:ignore, as under mcplint, or with golangci-lint's
// own //nolint:mcplint. golangci-lint's issues carry no URL, so the link to
// the rule's documentation that mcplint -json prints is not shown there.
package golangci
