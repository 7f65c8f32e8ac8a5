package defs

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/seed417024ea/mcpcore/lint/internal/mcpapi"
)

// maxDepth bounds how many variables and helper calls a contract is
// followed through, so that a helper calling itself cannot loop.
const maxDepth = 8

// contractReader reads the value of an Errors field: a []mcpcore.Failure
// literal, a package variable initialised with one and never assigned
// again, append and slices.Concat of such parts, and a call of a function
// of this package whose body is one return of such an expression. Anything
// else stops it, and Why says what did.
type contractReader struct {
	pass  *analysis.Pass
	res   *Result
	funcs map[*types.Func]*ast.FuncDecl
	// inits are the initialisers of the package's variables.
	inits map[*types.Var]ast.Expr
	// assigned are the package variables assigned after their
	// declaration, whose value is not known.
	assigned map[*types.Var]bool
}

// A binding is what a helper's parameter stands for in one call: an
// argument expression, or the elements given to a variadic parameter.
type binding struct {
	expr  ast.Expr
	elems []ast.Expr // the arguments of a variadic parameter without ...
	env   env        // the environment the argument is read in
}

type env map[*types.Var]binding

func newContractReader(pass *analysis.Pass, res *Result, funcs map[*types.Func]*ast.FuncDecl) *contractReader {
	r := &contractReader{pass: pass, res: res, funcs: funcs, inits: map[*types.Var]ast.Expr{}, assigned: map[*types.Var]bool{}}
	scope := pass.Pkg.Scope()
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, s := range gd.Specs {
				vs, ok := s.(*ast.ValueSpec)
				if !ok || len(vs.Values) != len(vs.Names) {
					continue
				}
				for i, name := range vs.Names {
					if v, ok := pass.TypesInfo.Defs[name].(*types.Var); ok {
						r.inits[v] = vs.Values[i]
					}
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			var targets []ast.Expr
			switch n := n.(type) {
			case *ast.AssignStmt:
				targets = n.Lhs
			case *ast.IncDecStmt:
				targets = []ast.Expr{n.X}
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					targets = []ast.Expr{n.X} // written through a pointer, maybe
				}
			case *ast.RangeStmt:
				targets = []ast.Expr{n.Key, n.Value}
			}
			for _, t := range targets {
				for t != nil {
					switch x := ast.Unparen(t).(type) {
					case *ast.IndexExpr:
						t = x.X
						continue
					case *ast.SliceExpr:
						t = x.X
						continue
					case *ast.Ident:
						if v, ok := pass.TypesInfo.Uses[x].(*types.Var); ok && v.Parent() == scope {
							r.assigned[v] = true
						}
					}
					break
				}
			}
			return true
		})
	}
	return r
}

// read returns the entries of a contract expression, or why it cannot
// be known.
func (r *contractReader) read(e ast.Expr, en env, depth int) ([]*Entry, string) {
	if depth > maxDepth {
		return nil, fmt.Sprintf("%s, which nests helpers and variables deeper than mcplint follows", types.ExprString(e))
	}
	info := r.pass.TypesInfo
	switch x := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		es := []*Entry{}
		for _, elt := range x.Elts {
			es = append(es, r.element(elt, en))
		}
		return es, ""
	case *ast.Ident, *ast.SelectorExpr:
		if id, ok := x.(*ast.Ident); ok && id.Name == "nil" {
			if _, isNil := info.Uses[id].(*types.Nil); isNil {
				return []*Entry{}, ""
			}
		}
		v, ok := objectOf(info, x).(*types.Var)
		if !ok {
			return nil, fmt.Sprintf("%s, which mcplint cannot evaluate", types.ExprString(e))
		}
		if b, ok := en[v]; ok {
			if b.expr == nil {
				es := []*Entry{}
				for _, a := range b.elems {
					es = append(es, r.element(a, b.env))
				}
				return es, ""
			}
			return r.read(b.expr, b.env, depth+1)
		}
		switch {
		case v.Pkg() != r.pass.Pkg:
			return nil, fmt.Sprintf("the variable %s of package %s, which mcplint does not follow across packages", v.Name(), v.Pkg().Path())
		case v.Parent() != r.pass.Pkg.Scope():
			return nil, fmt.Sprintf("the local variable %s, which mcplint does not follow", v.Name())
		case r.assigned[v]:
			return nil, fmt.Sprintf("the variable %s, which is assigned after its declaration", v.Name())
		}
		init, ok := r.inits[v]
		if !ok {
			return nil, fmt.Sprintf("the variable %s, which has no initialiser mcplint can read", v.Name())
		}
		r.res.ContractIdents[identOf(x)] = true
		return r.read(init, nil, depth+1)
	case *ast.CallExpr:
		return r.call(x, en, depth)
	}
	return nil, fmt.Sprintf("%s, which mcplint cannot evaluate", types.ExprString(e))
}

// call reads append(…), slices.Concat(…) and a call of a helper whose body
// is one return statement.
func (r *contractReader) call(call *ast.CallExpr, en env, depth int) ([]*Entry, string) {
	info := r.pass.TypesInfo
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := info.Uses[id].(*types.Builtin); ok && b.Name() == "append" && len(call.Args) > 0 {
			es, why := r.read(call.Args[0], en, depth+1)
			if why != "" {
				return nil, why
			}
			if call.Ellipsis.IsValid() {
				if len(call.Args) != 2 {
					return nil, fmt.Sprintf("the result of %s, which mcplint cannot evaluate", types.ExprString(call))
				}
				more, why := r.read(call.Args[1], en, depth+1)
				if why != "" {
					return nil, why
				}
				return append(es, more...), ""
			}
			for _, a := range call.Args[1:] {
				es = append(es, r.element(a, en))
			}
			return es, ""
		}
	}
	fn := mcpapi.Callee(info, call)
	if fn == nil {
		return nil, fmt.Sprintf("the result of %s, a call mcplint cannot follow", types.ExprString(call))
	}
	if mcpapi.IsFunc(fn, "slices", "Concat") {
		es := []*Entry{}
		for _, a := range call.Args {
			more, why := r.read(a, en, depth+1)
			if why != "" {
				return nil, why
			}
			es = append(es, more...)
		}
		return es, ""
	}
	fd := r.funcs[fn.Origin()]
	if fd == nil || fd.Recv != nil || len(fd.Body.List) != 1 {
		return nil, fmt.Sprintf("the result of a call to %s, whose body mcplint cannot evaluate", fn.Name())
	}
	ret, ok := fd.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return nil, fmt.Sprintf("the result of a call to %s, whose body mcplint cannot evaluate", fn.Name())
	}
	sig := fn.Signature()
	inner := env{}
	for i := range sig.Params().Len() {
		p := sig.Params().At(i)
		switch {
		case sig.Variadic() && i == sig.Params().Len()-1 && !call.Ellipsis.IsValid():
			elems := []ast.Expr{}
			if i < len(call.Args) {
				elems = call.Args[i:]
			}
			inner[p] = binding{elems: elems, env: en}
		case i < len(call.Args):
			inner[p] = binding{expr: call.Args[i], env: en}
		}
	}
	return r.read(ret.Results[0], inner, depth+1)
}

// element reads one element of a contract, a parameter standing for its
// argument.
func (r *contractReader) element(e ast.Expr, en env) *Entry {
	if v, ok := objectOf(r.pass.TypesInfo, ast.Unparen(e)).(*types.Var); ok {
		if b, ok := en[v]; ok && b.expr != nil {
			return r.element(b.expr, b.env)
		}
	}
	if id := identOf(ast.Unparen(e)); id != nil {
		r.res.ContractIdents[id] = true
	}
	return entry(r.pass, r.res, e)
}

// identOf returns the identifier an expression names, or nil.
func identOf(e ast.Expr) *ast.Ident {
	switch e := e.(type) {
	case *ast.Ident:
		return e
	case *ast.SelectorExpr:
		return e.Sel
	}
	return nil
}
