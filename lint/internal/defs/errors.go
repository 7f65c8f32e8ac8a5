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
	// param, for a helper read for its fact, is 1 plus the index of the
	// parameter, which stands for itself: what the caller passes.
	param int
}

type env map[*types.Var]binding

func newContractReader(pass *analysis.Pass, res *Result, funcs map[*types.Func]*ast.FuncDecl) *contractReader {
	r := &contractReader{pass: pass, res: res, funcs: funcs, inits: map[*types.Var]ast.Expr{}, assigned: map[*types.Var]bool{}}
	for _, f := range pass.Files {
		r.readInits(f)
		ast.Inspect(f, func(n ast.Node) bool {
			for _, t := range writtenBy(n) {
				r.markAssigned(t)
			}
			return true
		})
	}
	return r
}

// readInits records the initialisers of the variables f declares.
func (r *contractReader) readInits(f *ast.File) {
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
				if v, ok := r.pass.TypesInfo.Defs[name].(*types.Var); ok {
					r.inits[v] = vs.Values[i]
				}
			}
		}
	}
}

// writtenBy returns the expressions the statement or expression n may
// write to.
func writtenBy(n ast.Node) []ast.Expr {
	switch n := n.(type) {
	case *ast.AssignStmt:
		return n.Lhs
	case *ast.IncDecStmt:
		return []ast.Expr{n.X}
	case *ast.UnaryExpr:
		if n.Op == token.AND {
			return []ast.Expr{n.X} // written through a pointer, maybe
		}
	case *ast.RangeStmt:
		return []ast.Expr{n.Key, n.Value}
	}
	return nil
}

// markAssigned records the package variable (of this package, or one of
// another package) that writing to t writes to, through its indexes and
// slices.
func (r *contractReader) markAssigned(t ast.Expr) {
	info := r.pass.TypesInfo
	for t != nil {
		switch x := ast.Unparen(t).(type) {
		case *ast.IndexExpr:
			t = x.X
			continue
		case *ast.SliceExpr:
			t = x.X
			continue
		case *ast.Ident:
			if v, ok := info.Uses[x].(*types.Var); ok && v.Parent() == r.pass.Pkg.Scope() {
				r.assigned[v] = true
			}
		case *ast.SelectorExpr:
			// A variable of another package, written here.
			if v, ok := info.Uses[x.Sel].(*types.Var); ok && !v.IsField() && v.Pkg() != r.pass.Pkg {
				r.assigned[v] = true
			}
		}
		return
	}
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
			return r.bound(x, b, depth)
		}
		return r.variable(x, v, en, depth)
	case *ast.CallExpr:
		return r.call(x, en, depth)
	}
	return nil, fmt.Sprintf("%s, which mcplint cannot evaluate", types.ExprString(e))
}

// bound reads the parameter x of a helper, bound to b in the call read.
func (r *contractReader) bound(x ast.Expr, b binding, depth int) ([]*Entry, string) {
	if b.param != 0 {
		return []*Entry{{Expr: x, param: b.param, spread: true}}, ""
	}
	if b.expr == nil {
		es := []*Entry{}
		for _, a := range b.elems {
			es = append(es, r.element(a, b.env))
		}
		return es, ""
	}
	return r.read(b.expr, b.env, depth+1)
}

// variable reads the package variable v, named by x: its initialiser in
// this package, or its fact in another.
func (r *contractReader) variable(x ast.Expr, v *types.Var, en env, depth int) ([]*Entry, string) {
	switch {
	case v.Pkg() != r.pass.Pkg && r.assigned[v]:
		return nil, fmt.Sprintf("the variable %s of package %s, which this package assigns", v.Name(), v.Pkg().Path())
	case v.Pkg() != r.pass.Pkg:
		if _, dot := x.(*ast.Ident); dot {
			// The entries would stand at a bare name of a
			// []Failure, which a fix could take for an entry.
			return nil, fmt.Sprintf("the variable %s of package %s, dot-imported, which mcplint does not follow", v.Name(), v.Pkg().Path())
		}
		r.res.ContractIdents[identOf(x)] = true
		return r.imported(x, v, nil, en, depth)
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
}

// call reads append(…), slices.Concat(…) and a call of a helper whose body
// is one return statement.
func (r *contractReader) call(call *ast.CallExpr, en env, depth int) ([]*Entry, string) {
	info := r.pass.TypesInfo
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := info.Uses[id].(*types.Builtin); ok && b.Name() == "append" && len(call.Args) > 0 {
			return r.append(call, en, depth)
		}
	}
	fn := mcpapi.Callee(info, call)
	switch {
	case fn == nil:
		return nil, fmt.Sprintf("the result of %s, a call mcplint cannot follow", types.ExprString(call))
	case mcpapi.IsFunc(fn, "slices", "Concat"):
		return r.concat(call.Args, en, depth)
	case fn.Pkg() != nil && fn.Pkg() != r.pass.Pkg && fn.Signature().Recv() == nil:
		return r.imported(call, fn.Origin(), call, en, depth)
	}
	fd := r.funcs[fn.Origin()]
	if fd == nil || fd.Recv != nil {
		return nil, fmt.Sprintf("the result of a call to %s, whose body mcplint cannot evaluate", fn.Name())
	}
	ret, ok := oneReturn(fd)
	if !ok {
		return nil, fmt.Sprintf("the result of a call to %s, whose body mcplint cannot evaluate", fn.Name())
	}
	return r.read(ret.Results[0], bindParams(fn.Signature(), call, en), depth+1)
}

// append reads append(s, elems...) or append(s, other...).
func (r *contractReader) append(call *ast.CallExpr, en env, depth int) ([]*Entry, string) {
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

// concat reads slices.Concat(parts...).
func (r *contractReader) concat(parts []ast.Expr, en env, depth int) ([]*Entry, string) {
	es := []*Entry{}
	for _, a := range parts {
		more, why := r.read(a, en, depth+1)
		if why != "" {
			return nil, why
		}
		es = append(es, more...)
	}
	return es, ""
}

// bindParams binds a helper's parameters to the arguments of call, read
// in en: a variadic parameter without ... to the elements given.
func bindParams(sig *types.Signature, call *ast.CallExpr, en env) env {
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
	return inner
}

// element reads one element of a contract, a parameter standing for its
// argument.
func (r *contractReader) element(e ast.Expr, en env) *Entry {
	if v, ok := objectOf(r.pass.TypesInfo, ast.Unparen(e)).(*types.Var); ok {
		if b, ok := en[v]; ok && b.param != 0 {
			return &Entry{Expr: e, param: b.param}
		}
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

// imported reads the contract of a variable or a helper of another package
// through its fact: ref is where it is named, call the call of a helper
// (nil for a variable), whose arguments stand for the helper's parameters.
// Its entries are reported at ref, and are shared: that other package
// declares them, maybe for many definitions.
func (r *contractReader) imported(ref ast.Expr, obj types.Object, call *ast.CallExpr, en env, depth int) ([]*Entry, string) {
	var c Contract
	if !r.pass.ImportObjectFact(obj, &c) {
		what := "the variable " + obj.Name()
		if call != nil {
			what = "the result of a call to " + obj.Name()
		}
		return nil, fmt.Sprintf("%s of package %s, which mcplint has no facts for", what, obj.Pkg().Path())
	}
	if c.Why != "" {
		return nil, c.Why
	}
	es := []*Entry{}
	for _, p := range c.Parts {
		if p.Param == 0 {
			e := &Entry{Expr: ref, Shared: true}
			if p.Readable {
				d := p.Declared
				e.Imported = &d
			}
			es = append(es, e)
			continue
		}
		fn, ok := obj.(*types.Func)
		if !ok || call == nil {
			return nil, fmt.Sprintf("%s, which mcplint cannot evaluate", types.ExprString(ref))
		}
		more, why := r.argPart(p, fn.Signature(), call, en, depth)
		if why != "" {
			return nil, why
		}
		es = append(es, more...)
	}
	return es, ""
}

// argPart reads the part p of an imported helper's contract that stands
// for what a parameter is given, in call.
func (r *contractReader) argPart(p Part, sig *types.Signature, call *ast.CallExpr, en env, depth int) ([]*Entry, string) {
	i := p.Param - 1
	switch {
	case !p.Spread && i < len(call.Args):
		return []*Entry{r.element(call.Args[i], en)}, ""
	case p.Spread && sig.Variadic() && i == sig.Params().Len()-1 && !call.Ellipsis.IsValid():
		var es []*Entry
		for _, a := range call.Args[min(i, len(call.Args)):] {
			es = append(es, r.element(a, en))
		}
		return es, ""
	case p.Spread && i < len(call.Args):
		return r.read(call.Args[i], en, depth+1)
	}
	return nil, fmt.Sprintf("the result of %s, which mcplint cannot evaluate", types.ExprString(call))
}
