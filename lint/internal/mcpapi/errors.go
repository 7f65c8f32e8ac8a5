package mcpapi

import (
	"go/ast"
	"go/token"
	"go/types"
)

// errorType is the predeclared error type; errorInterface, its interface.
var (
	errorType      = types.Universe.Lookup("error").Type()
	errorInterface = errorType.Underlying().(*types.Interface)
)

// IsError reports whether t implements error.
func IsError(t types.Type) bool { return t != nil && types.Implements(t, errorInterface) }

// CheckedErr returns v of a condition v != nil (or nil != v) where v is a
// variable of type error, the check of an error; nil for anything else,
// such as err != errStale.
func CheckedErr(info *types.Info, cond ast.Expr) *types.Var {
	be, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || be.Op != token.NEQ {
		return nil
	}
	x, y := ast.Unparen(be.X), ast.Unparen(be.Y)
	if isNil(info, x) {
		x, y = y, x
	}
	id, ok := x.(*ast.Ident)
	if !ok || !isNil(info, y) {
		return nil
	}
	v, _ := info.Uses[id].(*types.Var)
	if v == nil || !types.Identical(v.Type(), errorType) {
		return nil
	}
	return v
}

// isNil reports whether e is the predeclared nil.
func isNil(info *types.Info, e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	if !ok {
		return false
	}
	_, isNil := info.Uses[id].(*types.Nil)
	return isNil
}
