package conformance

import (
	"fmt"
	"go/ast"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/seed417024ea/mcpcore/lint/internal/defs"
	"github.com/seed417024ea/mcpcore/lint/internal/raises"
	"github.com/seed417024ea/mcpcore/lint/internal/suppress"
)

// Analyzer checks handlers against their contracts.
var Analyzer = &analysis.Analyzer{
	Name:     "mcpconformance",
	Doc:      "check mcpcore handlers against their error contracts",
	URL:      "https://pkg.go.dev/github.com/seed417024ea/mcpcore/lint/conformance",
	Requires: []*analysis.Analyzer{defs.Analyzer, raises.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[defs.Analyzer].(*defs.Result)
	rs := pass.ResultOf[raises.Analyzer].(*raises.Result)
	ds := suppress.Read(pass)
	seen := map[ast.Node]bool{} // Fail calls reported, for a handler shared by definitions
	flows := map[*defs.Def]*carry{}
	var pkg *ssa.Package        // built at the first handler
	failed := map[string]bool{} // reasons reported as a helper's undeclared ctx.Fail
	unfollowedSeen := map[string]bool{}
	for _, d := range res.Defs {
		if d.Unanalyzable != "" {
			ds.Report(pass, "error-contract-unanalyzable", d.Errors, fmt.Sprintf(
				"the Errors of %s is %s; conformance, undeclared, unthrown and prefer-fail checks are skipped for it: write the contract as a []mcpcore.Failure literal, a package variable, append or slices.Concat of them, or a helper that returns one",
				d.Label(), d.Unanalyzable), nil)
		}
		_, body := defs.Func(d.Handler)
		if body == nil {
			continue
		}
		failSites(pass, ds, res, d, body, seen)
		es, _ := entries(rs, d)
		if pkg == nil {
			pkg = buildSSA(pass)
		}
		flow := handlerFlow(pass, pkg, rs, d.Handler, es)
		if flow == nil {
			flow = &carry{opaque: true}
		}
		flows[d] = flow
		failFromHints(pass, ds, flow, seen)
		if d.ErrorsKnown {
			unfollowedValues(pass, ds, d, flow, unfollowedSeen)
			checkContract(pass, ds, rs, d, body, flow)
			for r := range helperFails(pass, ds, res, d, flow) {
				failed[r] = true
			}
		}
	}
	helperSites(pass, ds, res, seen)
	stampedReasons(pass, ds, rs, res.Defs, flows, failed)
	return nil, nil
}
