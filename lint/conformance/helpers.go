package conformance

import (
	"fmt"
	"go/ast"
	"go/types"
	"path/filepath"

	"golang.org/x/tools/go/analysis"

	"github.com/seed417024ea/mcpcore/lint/internal/defs"
	"github.com/seed417024ea/mcpcore/lint/internal/mcpapi"
	"github.com/seed417024ea/mcpcore/lint/internal/suppress"
)

// Helpers are the package's functions that take a *mcpcore.Context, such
// as a fail(ctx, …) shared by several tools: their ctx.Fail calls are
// checked for a forwarded recovery where they stand, and for a declared
// entry against the contract of each tool whose handler calls them.

// helperDecls returns the package's functions with a *mcpcore.Context
// parameter.
func helperDecls(pass *analysis.Pass) map[*types.Func]*ast.FuncDecl {
	helpers := map[*types.Func]*ast.FuncDecl{}
	for _, f := range pass.Files {
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			params := fn.Type().(*types.Signature).Params()
			for v := range params.Variables() {
				if mcpapi.IsNamed(v.Type(), mcpapi.CorePath, "Context") {
					helpers[fn] = fd
					break
				}
			}
		}
	}
	return helpers
}

// helperSites checks that every ctx.Fail of a helper forwards a recovery.
func helperSites(pass *analysis.Pass, ds *suppress.Directives, res *defs.Result, seen map[ast.Node]bool) {
	for _, fd := range helperDecls(pass) {
		failSites(pass, ds, res, nil, fd.Body, seen)
	}
}

// helperFails reports, at a handler's call of a helper whose errors reach
// its returns, each ctx.Fail of the helper (or of the helpers it calls)
// with an entry the tool does not declare: it compiles, and fails at run
// time with an InternalError.
func helperFails(pass *analysis.Pass, ds *suppress.Directives, res *defs.Result, d *defs.Def, flow *carry) map[string]bool {
	reported := map[string]bool{}
	helpers := helperDecls(pass)
	if len(helpers) == 0 {
		return reported
	}
	reached := map[*ast.CallExpr]bool{}
	for _, it := range flow.items {
		reached[it.site] = true
	}
	for call := range reached {
		fn := mcpapi.Callee(pass.TypesInfo, call)
		if fn == nil || helpers[fn.Origin()] == nil {
			continue
		}
		w := helperWalk{pass: pass, ds: ds, res: res, d: d, helpers: helpers, call: call, top: fn.Origin(),
			visited: map[*types.Func]bool{}, reported: reported}
		w.walk(w.top, 0)
	}
	return reported
}

// A helperWalk follows the helpers a handler's call reaches, from top,
// reporting at call each ctx.Fail with an entry d does not declare.
type helperWalk struct {
	pass     *analysis.Pass
	ds       *suppress.Directives
	res      *defs.Result
	d        *defs.Def
	helpers  map[*types.Func]*ast.FuncDecl
	call     *ast.CallExpr
	top      *types.Func
	visited  map[*types.Func]bool
	reported map[string]bool
}

// walk checks the ctx.Fail calls of the helper fn, depth calls below the
// handler, and walks into the helpers it calls.
func (w *helperWalk) walk(fn *types.Func, depth int) {
	fd := w.helpers[fn]
	if fd == nil || w.visited[fn] || depth > 4 {
		return
	}
	w.visited[fn] = true
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		callee := mcpapi.Callee(w.pass.TypesInfo, c)
		if !mcpapi.IsContextMethod(callee, "Fail") || len(c.Args) == 0 {
			if callee != nil {
				w.walk(callee.Origin(), depth+1)
			}
			return true
		}
		w.fail(fn, c)
		return true
	})
}

// fail reports the ctx.Fail c of the helper fn when d does not declare its
// entry.
func (w *helperWalk) fail(fn *types.Func, c *ast.CallExpr) {
	entry := resolve(w.pass, w.res, c.Args[0])
	if entry == nil || declared(w.d, entry) {
		return
	}
	w.reported[entry.Reason] = true
	pos := w.pass.Fset.Position(c.Pos())
	in := ""
	if fn != w.top {
		in = ", in " + fn.Name()
	}
	w.ds.Report(w.pass, "error-contract-undeclared", w.call, fmt.Sprintf(
		"%s calls %s, whose ctx.Fail (%s:%d%s) is given Failure %q, which %s does not declare in Errors; it compiles, then fails at run time with an InternalError: declare it, or fail with a declared entry",
		w.d.Label(), w.top.Name(), filepath.Base(pos.Filename), pos.Line, in, entry.Reason, w.d.Label()), nil)
}
