package mcpapi

import (
	"go/ast"
	"go/types"

	"github.com/seed417024ea/mcpcore/mcperr"
)

// A Failure is an mcpcore.Failure composite literal: a contract entry as
// written in the source. A field that is absent or not a constant has its
// zero value and is missing from Const.
type Failure struct {
	Lit    *ast.CompositeLit
	Fields map[string]ast.Expr // the keyed fields written, by name
	Const  map[string]bool     // the fields whose value is a constant

	Reason, When, Recovery string
	Severity, ThrownBy     string
	Code                   mcperr.Code
}

// IsFailureType reports whether t is mcpcore.Failure: the type
// contract.Failure, which mcpcore.Failure aliases, or a Failure declared in
// mcpcore itself (as a stub, or an older mcpcore, may declare it).
func IsFailureType(t types.Type) bool {
	return (IsNamed(t, ContractPath, "Failure") || IsNamed(t, CorePath, "Failure")) && !isPointer(t)
}

func isPointer(t types.Type) bool {
	_, ok := types.Unalias(t).(*types.Pointer)
	return ok
}

// ReadFailure reads a composite literal of type mcpcore.Failure, or returns
// nil for any other expression.
func ReadFailure(info *types.Info, e ast.Expr) *Failure {
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok || !IsFailureType(info.TypeOf(lit)) {
		return nil
	}
	f := &Failure{Lit: lit, Fields: map[string]ast.Expr{}, Const: map[string]bool{}}
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue // an unkeyed literal: nothing is read
		}
		key, ok := kv.Key.(*ast.Ident)
		if !ok {
			continue
		}
		f.Fields[key.Name] = kv.Value
		if key.Name == "Code" {
			f.Code, f.Const["Code"] = ConstCode(info, kv.Value)
			continue
		}
		s, ok := ConstString(info, kv.Value)
		f.Const[key.Name] = ok
		switch key.Name {
		case "Reason":
			f.Reason = s
		case "When":
			f.When = s
		case "Recovery":
			f.Recovery = s
		case "Severity":
			f.Severity = s
		case "ThrownBy":
			f.ThrownBy = s
		}
	}
	return f
}

// FailureVars returns the Failure literals that initialise variables
// declared in files: package-level vars, and local vars defined once with
// := or var, so that an entry named by its variable can be read.
func FailureVars(info *types.Info, files []*ast.File) map[*types.Var]*Failure {
	vars := map[*types.Var]*Failure{}
	assigned := map[*types.Var]int{}
	for _, file := range files {
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec:
				for i, name := range n.Names {
					if i < len(n.Values) {
						note(info, vars, assigned, name, n.Values[i], true)
					}
				}
			case *ast.AssignStmt:
				if len(n.Lhs) == len(n.Rhs) {
					for i, lhs := range n.Lhs {
						if id, ok := lhs.(*ast.Ident); ok {
							note(info, vars, assigned, id, n.Rhs[i], n.Tok.String() == ":=")
						}
					}
				}
			}
			return true
		})
	}
	for v, n := range assigned {
		if n > 1 && v.Parent() != v.Pkg().Scope() {
			delete(vars, v) // a local assigned again: its value is not known
		}
	}
	return vars
}

func note(info *types.Info, vars map[*types.Var]*Failure, assigned map[*types.Var]int, id *ast.Ident, value ast.Expr, define bool) {
	obj := info.Defs[id]
	if obj == nil && !define {
		obj = info.Uses[id]
	}
	v, ok := obj.(*types.Var)
	if !ok {
		return
	}
	assigned[v]++
	if f := ReadFailure(info, value); f != nil {
		vars[v] = f
	}
}
