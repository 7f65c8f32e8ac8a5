// Package defs finds the definitions of an mcpcore server in a package: the
// composite literals of mcpcore.Tool and mcpcore.Resource, wherever they
// stand (package variables, helper functions that build them), with their
// error contract and their handler, for the rule analyzers to check.
//
// A contract may be written in another package: Errors: svc.Shared,
// append(svc.Shared, own...), svc.WithService(own...). So that it can be
// read there, Analyzer exports a [Contract] fact on each exported
// package-level variable of type mcpcore.Failure or []mcpcore.Failure and
// each exported function returning a []mcpcore.Failure, with the entries it
// stands for, or what stopped the analysis. A package that assigns another
// package's contract variable makes it unknown there; one assignment in a
// third package is not seen.
package defs

import (
	"go/ast"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"

	"github.com/seed417024ea/mcpcore/lint/internal/mcpapi"
)

// Analyzer finds the definitions of a package. Its result is a *Result.
var Analyzer = &analysis.Analyzer{
	Name:       "mcpdefs",
	Doc:        "find mcpcore tool, resource and prompt definitions, their error contracts and handlers",
	Run:        run,
	ResultType: reflect.TypeFor[*Result](),
	FactTypes:  []analysis.Fact{(*Contract)(nil)},
}

// A Result is what Analyzer finds in a package.
type Result struct {
	Defs []*Def
	// Failures are the Failure literals that initialise variables of the
	// package, so that an entry named by its variable can be read.
	Failures map[*types.Var]*mcpapi.Failure
	// ErrorsAssigned says that the package sets the Errors of a Tool or
	// Resource outside its literal (t.Errors = …): a literal without Errors
	// may then have a contract after all.
	ErrorsAssigned bool
	// ContractIdents are the identifiers read while following contracts
	// (a shared variable's elements, a helper's): uses that declare, not
	// uses that raise.
	ContractIdents map[*ast.Ident]bool
}

// A Def is one tool or resource definition.
type Def struct {
	Kind string // "tool", "resource" or "prompt"
	// Name is the constant Name, or the source text of a computed one.
	Name string
	Lit  *ast.CompositeLit
	// Errors is the Errors field, nil when absent; Entries are its
	// elements when they can be known: a []mcpcore.Failure literal, a
	// package variable never assigned again, append and slices.Concat of
	// such parts, or a call of a helper whose body is one return of such
	// an expression; the variables and helpers of another package are read
	// through their [Contract] facts (nil otherwise, and the contract is
	// not checked).
	Errors  ast.Expr
	Entries []*Entry
	// ErrorsKnown says whether Entries is the whole contract.
	ErrorsKnown bool
	// Unanalyzable says, when Errors is set but its entries cannot be
	// known, what stopped the analysis: "the result of a call to load,
	// whose body mcplint cannot evaluate".
	Unanalyzable string
	// Handler is the handler's body: a *ast.FuncLit, or the *ast.FuncDecl
	// of a named function of this package; nil when it is neither.
	Handler ast.Node
	// HandlerFunc is the named handler function, in this package or
	// another, or nil.
	HandlerFunc *types.Func
}

// An Entry is one element of a contract.
type Entry struct {
	Expr    ast.Expr
	Failure *mcpapi.Failure // nil when the element cannot be read
	// Var is the variable the entry is named by, if any.
	Var *types.Var
	// Shared says that the element is written once and declared by more
	// than one definition (a shared service contract), or declared by
	// another package (through a variable or a helper of it): whether
	// each of them raises it is not for one of them to judge.
	Shared bool
	// Imported is, for an entry read from another package's fact, its
	// fields that are constants; it is set only when its Reason and Code
	// are. Failure is then nil, and Expr is where this package names what
	// holds it (svc.Shared, svc.WithService(…), svc.NoMatch), shared by
	// the entries read there.
	Imported *Declared

	// param and spread mark, while a helper is read for its fact, what
	// stands for its parameter param-1 (see [Part]).
	param  int
	spread bool
}

func run(pass *analysis.Pass) (any, error) {
	// With facts, the analyzer runs on every dependency, the standard
	// library too: a package that cannot name mcpcore has nothing to read.
	if !reaches(pass.Pkg, map[*types.Package]bool{}) {
		return &Result{Failures: map[*types.Var]*mcpapi.Failure{}, ContractIdents: map[*ast.Ident]bool{}}, nil
	}
	res := &Result{Failures: mcpapi.FailureVars(pass.TypesInfo, pass.Files), ContractIdents: map[*ast.Ident]bool{}}
	res.ErrorsAssigned = errorsAssigned(pass)
	cr := newContractReader(pass, res, funcDecls(pass))
	exportContracts(cr)
	preorder(pass.Files, func(lit *ast.CompositeLit) {
		t := pass.TypesInfo.TypeOf(lit)
		kind := defKind(t)
		if kind == "" {
			return
		}
		if _, ptr := types.Unalias(t).(*types.Pointer); ptr {
			return
		}
		res.Defs = append(res.Defs, read(pass, res, cr, kind, lit))
	})
	markShared(res.Defs)
	return res, nil
}

// funcDecls returns the package's function declarations with a body.
func funcDecls(pass *analysis.Pass) map[*types.Func]*ast.FuncDecl {
	funcs := map[*types.Func]*ast.FuncDecl{}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					funcs[fn] = fd
				}
			}
		}
	}
	return funcs
}

// errorsAssigned reports whether the package assigns the Errors field of
// a definition after its literal.
func errorsAssigned(pass *analysis.Pass) bool {
	assigned := false
	preorder(pass.Files, func(n *ast.AssignStmt) {
		for _, lhs := range n.Lhs {
			if sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr); ok && sel.Sel.Name == "Errors" {
				if defKind(pass.TypesInfo.TypeOf(sel.X)) != "" {
					assigned = true
				}
			}
		}
	})
	return assigned
}

// defKind is the kind of definition t is, "tool", "resource" or
// "prompt", or "" when it is none.
func defKind(t types.Type) string {
	switch {
	case mcpapi.IsNamed(t, mcpapi.CorePath, "Tool"):
		return "tool"
	case mcpapi.IsNamed(t, mcpapi.CorePath, "Resource"):
		return "resource"
	case mcpapi.IsNamed(t, mcpapi.CorePath, "Prompt"):
		return "prompt"
	}
	return ""
}

// markShared marks shared an element written once and declared by
// several definitions.
func markShared(defs []*Def) {
	uses := map[ast.Expr]int{}
	for _, d := range defs {
		for _, e := range d.Entries {
			uses[e.Expr]++
		}
	}
	for _, d := range defs {
		for _, e := range d.Entries {
			e.Shared = e.Shared || uses[e.Expr] > 1
		}
	}
}

// reaches reports whether pkg is mcpcore or imports it, directly or not.
func reaches(pkg *types.Package, seen map[*types.Package]bool) bool {
	if pkg.Path() == mcpapi.CorePath {
		return true
	}
	seen[pkg] = true
	for _, imp := range pkg.Imports() {
		if !seen[imp] && reaches(imp, seen) {
			return true
		}
	}
	return false
}

// preorder calls f on each node of type N of files, in order.
func preorder[N ast.Node](files []*ast.File, f func(N)) {
	for _, file := range files {
		ast.Inspect(file, func(n ast.Node) bool {
			if n, ok := n.(N); ok {
				f(n)
			}
			return true
		})
	}
}

// read reads one definition literal.
func read(pass *analysis.Pass, res *Result, cr *contractReader, kind string, lit *ast.CompositeLit) *Def {
	funcs := cr.funcs
	d := &Def{Kind: kind, Name: "<unnamed>", Lit: lit}
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		key, _ := kv.Key.(*ast.Ident)
		if key == nil {
			continue
		}
		switch key.Name {
		case "Name":
			if s, ok := mcpapi.ConstString(pass.TypesInfo, kv.Value); ok {
				d.Name = s
			} else {
				d.Name = types.ExprString(kv.Value)
			}
		case "Errors":
			d.Errors = kv.Value
			if es, why := cr.read(kv.Value, nil, 0); why == "" {
				d.ErrorsKnown = true
				d.Entries = es
			} else {
				d.Unanalyzable = why
			}
		case "Handler":
			switch h := ast.Unparen(kv.Value).(type) {
			case *ast.FuncLit:
				d.Handler = h
			case *ast.Ident, *ast.SelectorExpr:
				if fn, ok := objectOf(pass.TypesInfo, h).(*types.Func); ok {
					fn = fn.Origin() // a method of a generic type, instantiated
					d.HandlerFunc = fn
					if fd := funcs[fn]; fd != nil {
						d.Handler = fd
					}
				}
			}
		}
	}
	return d
}

// entry reads one element of a contract literal.
func entry(pass *analysis.Pass, res *Result, e ast.Expr) *Entry {
	en := &Entry{Expr: e}
	if f := mcpapi.ReadFailure(pass.TypesInfo, e); f != nil {
		en.Failure = f
		return en
	}
	if v, ok := objectOf(pass.TypesInfo, ast.Unparen(e)).(*types.Var); ok {
		en.Var = v
		en.Failure = res.Failures[v]
		var c Contract
		if v.Pkg() != pass.Pkg && mcpapi.IsFailureType(v.Type()) && pass.ImportObjectFact(v, &c) && len(c.Parts) == 1 && c.Parts[0].Readable {
			en.Imported = &c.Parts[0].Declared
		}
	}
	return en
}

// objectOf returns the object an identifier or a qualified identifier
// denotes.
func objectOf(info *types.Info, e ast.Expr) types.Object {
	switch e := e.(type) {
	case *ast.Ident:
		return info.Uses[e]
	case *ast.SelectorExpr:
		return info.Uses[e.Sel]
	}
	return nil
}

// Label names a definition in a message: tool fetch_articles.
func (d *Def) Label() string { return d.Kind + " " + d.Name }

// Func returns the signature and body of a handler node: a *ast.FuncLit or
// a *ast.FuncDecl; nils for anything else.
func Func(n ast.Node) (*ast.FuncType, *ast.BlockStmt) {
	switch h := n.(type) {
	case *ast.FuncLit:
		return h.Type, h.Body
	case *ast.FuncDecl:
		return h.Type, h.Body
	}
	return nil, nil
}
