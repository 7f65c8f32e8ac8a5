package conformance

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/seed417024ea/mcpcore/lint/internal/mcpapi"
)

// returned reports whether the error a call in body makes is sure to be
// returned as it is (or wrapped): the call stands in a return statement, or
// it assigns an error variable that the next statement checks (if err !=
// nil) and returns. The analysis of services is flow-insensitive; this is
// how the rules keep to the errors a handler really hands back, so that a
// reused err, or an error mapped to a declared failure, is not taken for
// one returned.
func returned(info *types.Info, body *ast.BlockStmt, call *ast.CallExpr) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found || n == nil || !(n.Pos() <= call.Pos() && call.End() <= n.End()) {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			// A closure's return (a Retry callback, say) is not the
			// handler's: what the handler does with it is not known here.
			return false
		case *ast.ReturnStmt:
			found = true
		case *ast.BlockStmt:
			found = checkedNext(info, n.List, call)
		case *ast.CaseClause:
			found = checkedNext(info, n.Body, call)
		case *ast.CommClause:
			found = checkedNext(info, n.Body, call)
		case *ast.IfStmt:
			if n.Init != nil && n.Init.Pos() <= call.Pos() && call.End() <= n.Init.End() {
				found = checksAndReturns(info, n.Init, n)
				return false
			}
		}
		return !found
	})
	return found
}

// checkedNext reports whether the statement of list that holds call assigns
// an error that the statement after it checks and returns.
func checkedNext(info *types.Info, list []ast.Stmt, call *ast.CallExpr) bool {
	for i, st := range list {
		if !(st.Pos() <= call.Pos() && call.End() <= st.End()) {
			continue
		}
		if i+1 < len(list) {
			if next, ok := list[i+1].(*ast.IfStmt); ok && next.Init == nil {
				return checksAndReturns(info, st, next)
			}
		}
		return false
	}
	return false
}

// checksAndReturns reports whether st assigns an error variable v and ifst
// is if v != nil { … return …v… }.
func checksAndReturns(info *types.Info, st ast.Stmt, ifst *ast.IfStmt) bool {
	as, ok := st.(*ast.AssignStmt)
	if !ok {
		return false
	}
	v := mcpapi.CheckedErr(info, ifst.Cond)
	if v == nil {
		return false
	}
	assigns := false
	for _, lhs := range as.Lhs {
		if id, ok := lhs.(*ast.Ident); ok && (info.Defs[id] == v || info.Uses[id] == v) {
			assigns = true
		}
	}
	if !assigns {
		return false
	}
	for _, s := range ifst.Body.List {
		if r, ok := s.(*ast.ReturnStmt); ok {
			for _, res := range r.Results {
				if carries(info, res, v) {
					return true
				}
			}
		}
	}
	return false
}

// carries reports whether e hands back what the error in v carries: v
// itself, or v wrapped by fmt.Errorf, errors.Join or mcperr.From. An error
// that only keeps v as its cause (mcperr.WithCause) carries its own code.
func carries(info *types.Info, e ast.Expr, v *types.Var) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return info.Uses[e] == v
	case *ast.CallExpr:
		fn := mcpapi.Callee(info, e)
		if mcpapi.IsFunc(fn, "fmt", "Errorf") || mcpapi.IsFunc(fn, "errors", "Join") || mcpapi.IsFunc(fn, mcpapi.ErrPath, "From") {
			for _, a := range e.Args {
				if carries(info, a, v) {
					return true
				}
			}
		}
	}
	return false
}

// branchedOn returns the codes body compares with or switches on (mcperr
// constants in ==, != and case clauses): a handler that looks at a code
// handles it.
func branchedOn(info *types.Info, body *ast.BlockStmt) map[int64]bool {
	codes := map[int64]bool{}
	note := func(e ast.Expr) {
		if tv, ok := info.Types[e]; ok && tv.Value != nil && isCodeType(tv.Type) {
			if c, ok := constInt(tv); ok {
				codes[c] = true
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if n.Op == token.EQL || n.Op == token.NEQ {
				note(n.X)
				note(n.Y)
			}
		case *ast.CaseClause:
			for _, e := range n.List {
				note(e)
			}
		}
		return true
	})
	return codes
}

func isCodeType(t types.Type) bool { return mcpapi.IsNamed(t, mcpapi.ErrPath, "Code") }

func constInt(tv types.TypeAndValue) (int64, bool) {
	if tv.Value.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(tv.Value)
}
