package raises

import (
	"go/ast"
	"go/token"
	"go/types"
)

// A target is a function a function value can hold: a func literal, read
// in the summarizer of the function it stands in, or a function named
// statically.
type target struct {
	lit *ast.FuncLit
	s   *summarizer
	fn  *types.Func
}

// maxHops bounds how many variables, fields and helpers a function value
// is followed through, so that a cycle of assignments ends.
const maxHops = 8

// targets returns the functions the function value e can hold: a func
// literal; a function or method named statically; a local or package
// variable, through everything assigned to it; a field of a struct type of
// this package, through everything the package assigns to it; the result
// of a helper of this package, through what its returns give. ok is false
// when one of them cannot be read (a map element, an interface method's
// result, a helper of another package), and e may hold anything.
func (s *summarizer) targets(e ast.Expr, hops int) (ts []target, ok bool) {
	if hops > maxHops {
		return nil, false
	}
	info := s.info
	switch e := ast.Unparen(e).(type) {
	case *ast.FuncLit:
		return []target{{lit: e, s: s}}, true
	case *ast.Ident:
		switch obj := info.Uses[e].(type) {
		case *types.Func:
			return []target{{fn: obj.Origin()}}, true
		case *types.Var:
			return s.varTargets(obj, hops)
		}
		if _, ok := info.Uses[e].(*types.Nil); ok {
			return nil, true
		}
	case *ast.SelectorExpr:
		if sel, isSel := info.Selections[e]; isSel {
			switch sel.Kind() {
			case types.MethodVal:
				fn := sel.Obj().(*types.Func)
				if types.IsInterface(sel.Recv()) {
					return nil, false
				}
				return []target{{fn: fn.Origin()}}, true
			case types.FieldVal:
				return s.r.fieldTargets(sel.Obj().(*types.Var), hops)
			}
			return nil, false
		}
		switch obj := info.Uses[e.Sel].(type) {
		case *types.Func:
			return []target{{fn: obj.Origin()}}, true
		case *types.Var:
			return s.varTargets(obj, hops)
		}
	case *ast.CallExpr:
		return s.returnedTargets(e, hops)
	}
	return nil, false
}

// varTargets follows a variable: a parameter is the caller's to say (nil,
// true: see funcArgs), a local variable holds what is assigned to it, a
// package variable of this package what the package assigns to it.
func (s *summarizer) varTargets(v *types.Var, hops int) ([]target, bool) {
	if _, param := s.params[v]; param {
		return nil, true
	}
	srcs, local := s.locals[v]
	if !local {
		if v.Pkg() != s.r.pass.Pkg || v.Parent() != s.r.pass.Pkg.Scope() {
			return nil, false
		}
		return s.r.fieldTargets(v, hops)
	}
	var ts []target
	for _, src := range srcs {
		t, ok := s.targets(src, hops+1)
		if !ok {
			return nil, false
		}
		ts = append(ts, t...)
	}
	return ts, true
}

// returnedTargets follows a helper of this package that returns a
// function: what its return statements give.
func (s *summarizer) returnedTargets(call *ast.CallExpr, hops int) ([]target, bool) {
	fn := calleeFunc(s.info, call)
	fd := s.r.decls[fn]
	if fd == nil {
		return nil, false
	}
	hs := s.r.summarizer(fd.Type, fd.Body)
	var ts []target
	ok := true
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			for _, res := range n.Results {
				if _, isFunc := s.info.TypeOf(res).Underlying().(*types.Signature); !isFunc {
					continue
				}
				t, k := hs.targets(res, hops+1)
				ok = ok && k
				ts = append(ts, t...)
			}
			return false
		}
		return ok
	})
	return ts, ok
}

// fieldTargets is what the package assigns to a field or a package
// variable of function type, in any function or initializer.
func (r *Result) fieldTargets(v *types.Var, hops int) ([]target, bool) {
	if v.Pkg() != r.pass.Pkg {
		return nil, false
	}
	r.indexAssigns()
	var ts []target
	for _, a := range r.assigns[v] {
		s := r.pkgSummarizer
		if a.decl != nil {
			s = r.summarizer(a.decl.Type, a.decl.Body)
		}
		t, ok := s.targets(a.rhs, hops+1)
		if !ok {
			return nil, false
		}
		ts = append(ts, t...)
	}
	return ts, true
}

// An assign is an expression the package assigns to a field or package
// variable of function type, in the function declared by decl (nil at
// package level).
type assign struct {
	rhs  ast.Expr
	decl *ast.FuncDecl
}

// indexAssigns records, once, every assignment of the package to a field
// or package variable of function type: x.f = …, T{f: …}, var v = ….
func (r *Result) indexAssigns() {
	if r.assigns != nil {
		return
	}
	r.assigns = map[*types.Var][]assign{}
	info := r.pass.TypesInfo
	isFunc := func(v *types.Var) bool {
		_, ok := v.Type().Underlying().(*types.Signature)
		return ok
	}
	add := func(lhs ast.Expr, rhs ast.Expr, decl *ast.FuncDecl) {
		var v *types.Var
		switch l := ast.Unparen(lhs).(type) {
		case *ast.SelectorExpr:
			if sel, ok := info.Selections[l]; ok && sel.Kind() == types.FieldVal {
				v, _ = sel.Obj().(*types.Var)
			} else {
				v, _ = info.Uses[l.Sel].(*types.Var)
			}
		case *ast.Ident:
			v, _ = info.ObjectOf(l).(*types.Var)
			if v != nil && v.Parent() != r.pass.Pkg.Scope() {
				v = nil // a local: its function's summarizer has it
			}
		}
		if v != nil && v.Pkg() == r.pass.Pkg && isFunc(v) {
			r.assigns[v] = append(r.assigns[v], assign{rhs, decl})
		}
	}
	for _, file := range r.pass.Files {
		for _, d := range file.Decls {
			decl, _ := d.(*ast.FuncDecl)
			ast.Inspect(d, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.AssignStmt:
					if len(n.Lhs) == len(n.Rhs) && (n.Tok == token.ASSIGN || n.Tok == token.DEFINE) {
						for i := range n.Lhs {
							add(n.Lhs[i], n.Rhs[i], decl)
						}
					}
				case *ast.ValueSpec:
					if len(n.Names) == len(n.Values) {
						for i := range n.Names {
							add(n.Names[i], n.Values[i], decl)
						}
					}
				case *ast.CompositeLit:
					for _, elt := range n.Elts {
						kv, ok := elt.(*ast.KeyValueExpr)
						if !ok {
							continue
						}
						if id, ok := kv.Key.(*ast.Ident); ok {
							if v, ok := info.Uses[id].(*types.Var); ok && v.IsField() && v.Pkg() == r.pass.Pkg && isFunc(v) {
								r.assigns[v] = append(r.assigns[v], assign{kv.Value, decl})
							}
						}
					}
				}
				return true
			})
		}
	}
}

// calleeFunc is the function a call names statically, by its origin; nil
// for a function value or an interface method.
func calleeFunc(info *types.Info, call *ast.CallExpr) *types.Func {
	var id *ast.Ident
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[f]; ok && (sel.Kind() != types.MethodVal || types.IsInterface(sel.Recv())) {
			return nil
		}
		id = f.Sel
	case *ast.IndexExpr:
		if x, ok := f.X.(*ast.Ident); ok {
			id = x
		}
	}
	if id == nil {
		return nil
	}
	fn, _ := info.Uses[id].(*types.Func)
	if fn == nil {
		return nil
	}
	return fn.Origin()
}
