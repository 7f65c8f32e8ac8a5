// Package upstream tells where a value is what an upstream said: a
// response's body read into a string or []byte, its status line, an
// error's message, or a field of a document decoded from its body (the
// upstream's own message). It follows them through local variables,
// string concatenation, fmt.Sprint*, strings and bytes functions, and
// helpers, whose results it exports as *Returns facts for their callers
// in other packages.
package upstream

import (
	"go/ast"
	"go/build"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/seed417024ea/mcpcore/lint/internal/mcpapi"
)

// Analyzer computes which functions return what an upstream said, and
// exports a *Returns fact on each. It reports nothing; its result is a
// *Result.
var Analyzer = &analysis.Analyzer{
	Name:       "mcpupstream",
	Doc:        "compute which functions return what an upstream said\n\nThe mcpupstream analyzer reports nothing; no-stringify-upstream-error uses its facts.",
	Run:        run,
	FactTypes:  []analysis.Fact{(*Returns)(nil)},
	ResultType: reflect.TypeFor[*Result](),
}

// A Kind is what a value holds of an upstream's words.
type Kind uint8

// The kinds of upstream values.
const (
	None   Kind = iota
	Text        // a string or []byte an upstream wrote
	Doc         // a document decoded from what an upstream wrote
	Reader      // a reader of an upstream's body
)

// Returns is the fact on a function whose results hold what an upstream
// said: the Kind of each result.
type Returns struct{ Kinds []Kind }

// AFact marks Returns as a fact.
func (*Returns) AFact() {}

func (r *Returns) String() string { return "upstream" }

// A Taint says what an expression holds of an upstream's words, for a
// message: Expr is what it is built from ("body", "resp.Status"), Note
// where that comes from ("" when Expr says it).
type Taint struct {
	Kind       Kind
	Expr, Note string
}

// String is the taint as a message names it: "body (what upstream.Body
// returns)".
func (t Taint) String() string {
	if t.Note == "" {
		return t.Expr
	}
	return t.Expr + " (" + t.Note + ")"
}

// An assign is a value given to a variable: the idx-th result of rhs.
type assign struct {
	rhs ast.Expr
	idx int
}

// Result answers, for the package, what an expression holds of an
// upstream's words.
type Result struct {
	pass    *analysis.Pass
	info    *types.Info
	decls   map[*types.Func]*ast.FuncDecl
	assigns map[*types.Var][]assign
	decoded map[*types.Var][]ast.Expr // v: what json decoded into &v
	rets    map[*types.Func][]Kind
	busy    map[any]bool
}

// maxDepth bounds how far an expression is followed, through variables
// and helpers.
const maxDepth = 12

func run(pass *analysis.Pass) (any, error) {
	r := &Result{
		pass:    pass,
		info:    pass.TypesInfo,
		decls:   map[*types.Func]*ast.FuncDecl{},
		assigns: map[*types.Var][]assign{},
		decoded: map[*types.Var][]ast.Expr{},
		rets:    map[*types.Func][]Kind{},
		busy:    map[any]bool{},
	}
	if standard(pass) {
		return r, nil // the standard library's helpers are read by name
	}
	for _, fn := range r.index() {
		if ks := r.returns(fn, 0); ks != nil {
			pass.ExportObjectFact(fn, &Returns{Kinds: ks})
		}
	}
	return r, nil
}

// standard reports whether the package is the standard library's.
func standard(pass *analysis.Pass) bool {
	if len(pass.Files) == 0 {
		return true
	}
	root := filepath.Join(build.Default.GOROOT, "src") + string(filepath.Separator)
	return strings.HasPrefix(pass.Fset.File(pass.Files[0].Pos()).Name(), root)
}

// index records the package's functions, every assignment to a variable,
// and every variable json decodes into; it returns the functions in the
// order of the source.
func (r *Result) index() []*types.Func {
	var order []*types.Func
	for _, f := range r.pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := r.info.Defs[fd.Name].(*types.Func); ok {
					r.decls[fn] = fd
					order = append(order, fn)
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				r.noteAssign(n.Lhs, n.Rhs)
			case *ast.ValueSpec:
				lhs := make([]ast.Expr, len(n.Names))
				for i, id := range n.Names {
					lhs[i] = id
				}
				r.noteAssign(lhs, n.Values)
			case *ast.CallExpr:
				r.noteDecode(n)
			}
			return true
		})
	}
	return order
}

func (r *Result) noteAssign(lhs, rhs []ast.Expr) {
	for i, l := range lhs {
		id, ok := ast.Unparen(l).(*ast.Ident)
		if !ok {
			continue
		}
		v, ok := r.info.ObjectOf(id).(*types.Var)
		if !ok {
			continue
		}
		switch {
		case len(lhs) == len(rhs):
			r.assigns[v] = append(r.assigns[v], assign{rhs[i], 0})
		case len(rhs) == 1:
			r.assigns[v] = append(r.assigns[v], assign{rhs[0], i})
		}
	}
}

// noteDecode records json.Unmarshal(data, &v) and dec.Decode(&v).
func (r *Result) noteDecode(call *ast.CallExpr) {
	fn := mcpapi.Callee(r.info, call)
	var src, dst ast.Expr
	switch {
	case mcpapi.IsFunc(fn, "encoding/json", "Unmarshal") && len(call.Args) == 2:
		src, dst = call.Args[0], call.Args[1]
	case fn != nil && fn.Name() == "Decode" && fn.Pkg() != nil && fn.Pkg().Path() == "encoding/json" && len(call.Args) == 1:
		src, dst = call.Fun.(*ast.SelectorExpr).X, call.Args[0]
	default:
		return
	}
	if u, ok := ast.Unparen(dst).(*ast.UnaryExpr); ok && u.Op == token.AND {
		dst = u.X
	}
	if id, ok := ast.Unparen(dst).(*ast.Ident); ok {
		if v, ok := r.info.Uses[id].(*types.Var); ok {
			r.decoded[v] = append(r.decoded[v], src)
		}
	}
}

// returns is the Kind of each result of fn, a function of this package
// read from its return statements or one of another with a fact; nil when
// none holds an upstream's words.
func (r *Result) returns(fn *types.Func, depth int) []Kind {
	if fn == nil {
		return nil
	}
	if fn.Pkg() != r.pass.Pkg {
		var f Returns
		if r.pass.ImportObjectFact(fn, &f) {
			return f.Kinds
		}
		return nil
	}
	if ks, ok := r.rets[fn]; ok {
		return ks
	}
	fd := r.decls[fn]
	if fd == nil || r.busy[fn] || depth > maxDepth {
		return nil
	}
	r.busy[fn] = true
	defer delete(r.busy, fn)
	n := fn.Type().(*types.Signature).Results().Len()
	ks := make([]Kind, n)
	any := false
	ast.Inspect(fd.Body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			for i := range n {
				var t Taint
				switch len(x.Results) {
				case n:
					t = r.of(x.Results[i], 0, depth+1)
				case 1:
					t = r.of(x.Results[0], i, depth+1)
				}
				if t.Kind != None && t.Kind != Reader {
					ks[i], any = t.Kind, true
				}
			}
		}
		return true
	})
	if !any {
		ks = nil
	}
	r.rets[fn] = ks
	return ks
}

// Of says what e holds of an upstream's words; its Kind is None when
// nothing.
func (r *Result) Of(e ast.Expr) Taint { return r.of(e, 0, 0) }

// of says what the idx-th value of e holds.
func (r *Result) of(e ast.Expr, idx, depth int) Taint {
	if depth > maxDepth {
		return Taint{}
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return r.ofVar(e, depth)
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			if t := r.of(e.X, 0, depth+1); t.Kind == Text {
				return t
			}
			if t := r.of(e.Y, 0, depth+1); t.Kind == Text {
				return t
			}
		}
	case *ast.SelectorExpr:
		return r.ofSelector(e, depth)
	case *ast.IndexExpr:
		if t := r.of(e.X, 0, depth+1); t.Kind == Doc && textual(r.info.TypeOf(e)) {
			return ownMessage(e, t)
		}
	case *ast.StarExpr:
		return r.of(e.X, 0, depth+1)
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			return r.of(e.X, 0, depth+1)
		}
	case *ast.CallExpr:
		return r.ofCall(e, idx, depth)
	}
	return Taint{}
}

func (r *Result) ofVar(id *ast.Ident, depth int) Taint {
	v, ok := r.info.Uses[id].(*types.Var)
	if !ok || r.busy[v] {
		return Taint{}
	}
	r.busy[v] = true
	defer delete(r.busy, v)
	for _, src := range r.decoded[v] {
		if t := r.of(src, 0, depth+1); t.Kind == Text || t.Kind == Reader {
			return Taint{Kind: Doc, Expr: id.Name, Note: t.Expr}
		}
	}
	for _, a := range r.assigns[v] {
		t := r.of(a.rhs, a.idx, depth+1)
		switch t.Kind {
		case Text:
			return Taint{Kind: Text, Expr: id.Name, Note: strings.TrimSuffix(t.Expr+", "+t.Note, ", ")}
		case Doc, Reader:
			return Taint{Kind: t.Kind, Expr: id.Name, Note: t.Note}
		}
	}
	return Taint{}
}

func (r *Result) ofSelector(e *ast.SelectorExpr, depth int) Taint {
	sel, ok := r.info.Selections[e]
	if !ok || sel.Kind() != types.FieldVal {
		return Taint{}
	}
	if mcpapi.IsNamed(r.info.TypeOf(e.X), "net/http", "Response") {
		switch e.Sel.Name {
		case "Status":
			return Taint{Kind: Text, Expr: types.ExprString(e)}
		case "Body":
			return Taint{Kind: Reader, Expr: types.ExprString(e), Note: types.ExprString(e)}
		}
		return Taint{}
	}
	if t := r.of(e.X, 0, depth+1); t.Kind == Doc {
		if textual(r.info.TypeOf(e)) {
			return ownMessage(e, t)
		}
		return t // a part of the document, still decoded from it
	}
	return Taint{}
}

// ownMessage is a string field or element of a decoded document.
func ownMessage(e ast.Expr, doc Taint) Taint {
	return Taint{Kind: Text, Expr: types.ExprString(e), Note: "the upstream's own message, decoded from " + doc.Note}
}

func (r *Result) ofCall(call *ast.CallExpr, idx, depth int) Taint {
	info := r.info
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
		// A conversion: string(b), []byte(s).
		if len(call.Args) == 1 {
			if t := r.of(call.Args[0], 0, depth+1); t.Kind == Text {
				return Taint{Kind: Text, Expr: types.ExprString(call), Note: strings.TrimSuffix(t.Expr+", "+t.Note, ", ")}
			}
		}
		return Taint{}
	}
	if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Error" && len(call.Args) == 0 && mcpapi.IsError(info.TypeOf(sel.X)) {
		return Taint{Kind: Text, Expr: types.ExprString(call)}
	}
	fn := mcpapi.Callee(info, call)
	if fn == nil || fn.Pkg() == nil {
		return Taint{}
	}
	switch path := fn.Pkg().Path(); {
	case mcpapi.IsFunc(fn, "io", "ReadAll"):
		if idx == 0 {
			if t := r.of(call.Args[0], 0, depth+1); t.Kind == Reader {
				return Taint{Kind: Text, Expr: types.ExprString(call)}
			}
		}
		return Taint{}
	case path == "fmt" && strings.HasPrefix(fn.Name(), "Sprint"), path == "strings", path == "bytes":
		// What the arguments say, formatted, trimmed or joined.
		for _, a := range call.Args {
			if t := r.of(a, 0, depth+1); t.Kind == Text {
				return t
			}
		}
		return Taint{}
	case path == "io" || path == "bufio" || mcpapi.IsFunc(fn, "encoding/json", "NewDecoder"):
		// A reader wrapping the body.
		for _, a := range call.Args {
			if t := r.of(a, 0, depth+1); t.Kind == Reader {
				return t
			}
		}
		return Taint{}
	}
	ks := r.returns(fn.Origin(), depth+1)
	if idx >= len(ks) || ks[idx] == None {
		return Taint{}
	}
	what := "what " + name(fn) + " returns"
	if ks[idx] == Doc {
		return Taint{Kind: Doc, Expr: what, Note: what}
	}
	return Taint{Kind: ks[idx], Expr: what}
}

// name is a function's name as messages give it: pkg.F or pkg.T.M.
func name(fn *types.Func) string {
	n := fn.Pkg().Name() + "."
	if recv := fn.Type().(*types.Signature).Recv(); recv != nil {
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if nt, ok := types.Unalias(t).(*types.Named); ok {
			n += nt.Obj().Name() + "."
		}
	}
	return n + fn.Name()
}

// textual reports whether t is a string, a []byte, or an interface (a
// decoded map's element), which a message can show.
func textual(t types.Type) bool {
	if t == nil {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&types.IsString != 0
	case *types.Slice:
		b, ok := u.Elem().Underlying().(*types.Basic)
		return ok && b.Kind() == types.Byte
	case *types.Interface:
		return true
	}
	return false
}
