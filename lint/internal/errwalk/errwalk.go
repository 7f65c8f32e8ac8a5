// Package errwalk is the check that keeps every walk of an error tree in
// mcpcore's serving code within the bounds of internal/errchain.
//
// The standard errors.Is and errors.As follow Unwrap for as long as it
// answers: on an error whose Unwrap returns itself they never return, and on
// a join that holds itself they overflow the stack, which kills the process.
// Errors from handlers, Validate methods, services, transports and callers'
// closures are user code, so the framework walks them with errchain.Is and
// errchain.As, whose work is bounded. errwalk reports each call of
// errors.Is or errors.As in the non-test files of a package it is given,
// but in the packages that are not linked into a server or a client:
// internal/errchain itself, the linter (cmd, lint), the examples, the
// benchmarks and the interop harness, and the project's test tooling.
//
// make check runs it on ./... through errwalk/cmd/errwalk.
package errwalk

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

// Analyzer reports the standard library's walks of error trees.
var Analyzer = &analysis.Analyzer{
	Name:     "errwalk",
	Doc:      "report errors.Is and errors.As in serving code: walk errors with internal/errchain, whose work is bounded",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run:      run,
}

// exempt are the parts of a package path whose packages are never linked
// into a server or a client.
var exempt = []string{
	"/internal/errchain", "/cmd/", "/lint", "/examples/", "/bench/", "/interop/",
	"/internal/docscheck", "/internal/cluster", "/internal/testmodule",
}

func run(pass *analysis.Pass) (any, error) {
	path := pass.Pkg.Path()
	for _, part := range exempt {
		if strings.Contains(path+"/", part) {
			return nil, nil
		}
	}
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	ins.Preorder([]ast.Node{(*ast.SelectorExpr)(nil)}, func(n ast.Node) {
		sel := n.(*ast.SelectorExpr)
		if strings.HasSuffix(pass.Fset.File(sel.Pos()).Name(), "_test.go") {
			return
		}
		fn, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Func)
		if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "errors" {
			return
		}
		switch fn.Name() {
		case "Is", "As":
			pass.Reportf(sel.Pos(), "errors.%s walks an error tree without bounds (a cycle hangs it or overflows the stack): use errchain.%s", fn.Name(), fn.Name())
		}
	})
	return nil, nil
}
