package lint

import "golang.org/x/tools/go/analysis"

// Analyzers are the analyzers mcplint runs.
var Analyzers = []*analysis.Analyzer{}
