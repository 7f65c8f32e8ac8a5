// Package mcpapi tells the analyzers which calls, types and values of a
// package are mcpcore's and mcperr's: the factories and their codes, Fail
// and RecoveryFor, and the Failure values of error contracts. Objects are
// matched by package path and name, so testdata stubs of the two packages
// stand in for the real ones.
package mcpapi

import (
	"go/ast"
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/seed417024ea/mcpcore/mcperr"
)

// The import paths of the framework.
const (
	CorePath = "github.com/seed417024ea/mcpcore"
	ErrPath  = CorePath + "/mcperr"
	// ContractPath is the package of the contract vocabulary, where the
	// type mcpcore.Failure aliases is declared.
	ContractPath = CorePath + "/contract"
)

// ReasonConsentDeclined is the reason of the failure mcpcore.Elicit
// returns when the user declines.
const ReasonConsentDeclined = "consent_declined"

// Factories maps each mcperr factory to the code it builds.
var Factories = map[string]mcperr.Code{
	"InvalidParams":      mcperr.CodeInvalidParams,
	"InvalidRequest":     mcperr.CodeInvalidRequest,
	"NotFound":           mcperr.CodeNotFound,
	"Forbidden":          mcperr.CodeForbidden,
	"Unauthorized":       mcperr.CodeUnauthorized,
	"ValidationError":    mcperr.CodeValidationError,
	"Conflict":           mcperr.CodeConflict,
	"RateLimited":        mcperr.CodeRateLimited,
	"Timeout":            mcperr.CodeTimeout,
	"ServiceUnavailable": mcperr.CodeServiceUnavailable,
	"ConfigurationError": mcperr.CodeConfigurationError,
	"InternalError":      mcperr.CodeInternalError,
	"SerializationError": mcperr.CodeSerializationError,
	"DatabaseError":      mcperr.CodeDatabaseError,
	"RequestCancelled":   mcperr.CodeRequestCancelled,
}

// FactoryFor returns the name of the factory that builds code, if any.
func FactoryFor(code mcperr.Code) (string, bool) {
	for name, c := range Factories {
		if c == code {
			return name, true
		}
	}
	return "", false
}

// Callee returns the function or method a call calls statically, or nil
// (a call of a function value, an interface method, a conversion).
func Callee(info *types.Info, call *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil {
		return nil
	}
	if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil && types.IsInterface(sig.Recv().Type()) {
		return nil
	}
	return fn
}

// IsFunc reports whether fn is the package-level function path.name.
func IsFunc(fn *types.Func, path, name string) bool {
	return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == path && fn.Name() == name &&
		fn.Type().(*types.Signature).Recv() == nil
}

// IsContextMethod reports whether fn is the method name of *mcpcore.Context.
func IsContextMethod(fn *types.Func, name string) bool {
	if fn == nil || fn.Name() != name {
		return false
	}
	recv := fn.Type().(*types.Signature).Recv()
	return recv != nil && IsNamed(recv.Type(), CorePath, "Context")
}

// IsFailFrom reports whether fn maps a service's error onto the contract:
// ctx.FailFrom.
func IsFailFrom(fn *types.Func) bool {
	return IsContextMethod(fn, "FailFrom")
}

// RecoveryEntry returns the argument naming the entry of a call that
// attaches a declared hint: ctx.RecoveryFor(entry) in a handler, or
// mcpcore.RecoveryFor(ctx, entry) in a service; nil for any other call.
func RecoveryEntry(fn *types.Func, call *ast.CallExpr) ast.Expr {
	switch {
	case IsContextMethod(fn, "RecoveryFor") && len(call.Args) == 1:
		return call.Args[0]
	case IsFunc(fn, CorePath, "RecoveryFor") && len(call.Args) == 2:
		return call.Args[1]
	}
	return nil
}

// OnDecline returns the call of mcpcore.OnDecline among an Elicit's
// options, and whether every option can be read: one that is not a call of
// mcpcore's own options (a variable, another function's result) may hold
// one.
func OnDecline(info *types.Info, opts []ast.Expr) (onDecline *ast.CallExpr, known bool) {
	known = true
	for _, o := range opts {
		call, ok := ast.Unparen(o).(*ast.CallExpr)
		if !ok {
			known = false
			continue
		}
		fn := Callee(info, call)
		switch {
		case IsFunc(fn, CorePath, "OnDecline"):
			onDecline = call
		case IsFunc(fn, CorePath, "QuestionKey"):
		default:
			known = false
		}
	}
	return onDecline, known
}

// ForwardsRecovery reports whether the options of an error being built may
// carry a recovery hint: RecoveryFor (the method or the package function),
// mcperr.WithRecovery, or mcperr.WithData of a map literal with a
// "recovery" key. An option that is not a call of mcperr's or mcpcore's
// (a variable, a call of another function) may carry one: the answer is
// then yes, so that no finding rests on what is not known.
func ForwardsRecovery(info *types.Info, opts []ast.Expr) bool {
	for _, o := range opts {
		call, ok := ast.Unparen(o).(*ast.CallExpr)
		if !ok {
			return true
		}
		fn := Callee(info, call)
		switch {
		case RecoveryEntry(fn, call) != nil, IsFunc(fn, ErrPath, "WithRecovery"):
			return true
		case IsFunc(fn, ErrPath, "WithData"):
			if len(call.Args) == 1 && mayHaveKey(info, call.Args[0], "recovery") {
				return true
			}
		case fn != nil && fn.Pkg() != nil && (fn.Pkg().Path() == ErrPath || fn.Pkg().Path() == CorePath):
			// mcperr's other options (WithCause, WithService, …) set no hint.
		default:
			return true
		}
	}
	return false
}

// mayHaveKey reports whether e is a map literal with the constant key k, or
// is not a literal at all (it may have it).
func mayHaveKey(info *types.Info, e ast.Expr, k string) bool {
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok {
		return true
	}
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if s, ok := ConstString(info, kv.Key); ok && s == k {
				return true
			}
		}
	}
	return false
}

// IsNamed reports whether t, or what t points to, is the named type
// path.name (of any type arguments).
func IsNamed(t types.Type, path, name string) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	obj := n.Origin().Obj()
	return obj.Pkg() != nil && obj.Pkg().Path() == path && obj.Name() == name
}

// FactoryCode returns the code an mcperr factory call builds, or the code of
// an mcperr.New call whose code is a constant.
func FactoryCode(info *types.Info, call *ast.CallExpr) (mcperr.Code, bool) {
	fn := Callee(info, call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != ErrPath {
		return 0, false
	}
	if code, ok := Factories[fn.Name()]; ok && IsFunc(fn, ErrPath, fn.Name()) {
		return code, true
	}
	if IsFunc(fn, ErrPath, "New") && len(call.Args) > 0 {
		return ConstCode(info, call.Args[0])
	}
	return 0, false
}

// ConstCode returns the value of a constant code expression.
func ConstCode(info *types.Info, e ast.Expr) (mcperr.Code, bool) {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return 0, false
	}
	v, exact := constant.Int64Val(tv.Value)
	if !exact {
		return 0, false
	}
	return mcperr.Code(v), true
}

// ConstString returns the value of a constant string expression.
func ConstString(info *types.Info, e ast.Expr) (string, bool) {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}

// CanRaise reports whether code of pkg can build an mcperr error itself:
// pkg is mcpcore or mcperr, or imports one of them. An error from an
// interface method of another package (an io.Reader's) then carries no
// contract code, whatever implements it.
func CanRaise(pkg *types.Package) bool {
	if pkg == nil {
		return false
	}
	if pkg.Path() == CorePath || pkg.Path() == ErrPath {
		return true
	}
	for _, imp := range pkg.Imports() {
		if imp.Path() == CorePath || imp.Path() == ErrPath {
			return true
		}
	}
	return false
}

// Opaque reports whether a call, made in package pkg, calls what the
// analysis cannot see into and may return an error carrying a contract
// code: a method of an interface declared where mcperr errors can be built,
// or a function value called where they can.
func Opaque(info *types.Info, pkg *types.Package, call *ast.CallExpr) bool {
	if tv, ok := info.Types[call.Fun]; !ok || tv.IsType() || tv.IsBuiltin() {
		return false
	}
	if !ReturnsError(info.TypeOf(call)) {
		return false
	}
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil {
		return CanRaise(pkg) // a function value
	}
	if sig := fn.Type().(*types.Signature); sig.Recv() != nil && types.IsInterface(sig.Recv().Type()) {
		return CanRaise(fn.Pkg())
	}
	return false
}

// ReturnsError reports whether t is, or a tuple holds, an error.
func ReturnsError(t types.Type) bool {
	if tup, ok := t.(*types.Tuple); ok {
		for v := range tup.Variables() {
			if IsError(v.Type()) {
				return true
			}
		}
		return false
	}
	return t != nil && IsError(t)
}
