package lint

import (
	"golang.org/x/tools/go/analysis"

	"github.com/seed417024ea/mcpcore/lint/conformance"
	"github.com/seed417024ea/mcpcore/lint/contract"
	"github.com/seed417024ea/mcpcore/lint/credential"
	"github.com/seed417024ea/mcpcore/lint/handlerbody"
)

// Analyzers are the analyzers mcplint runs, one per rule family.
var Analyzers = []*analysis.Analyzer{
	contract.Analyzer,
	conformance.Analyzer,
	handlerbody.Analyzer,
	credential.Analyzer,
}
