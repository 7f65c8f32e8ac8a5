package handlerbody

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/seed417024ea/mcpcore/lint/internal/defs"
	"github.com/seed417024ea/mcpcore/lint/internal/mcpapi"
	"github.com/seed417024ea/mcpcore/lint/internal/suppress"
	"github.com/seed417024ea/mcpcore/lint/internal/upstream"
)

// Analyzer checks the errors handlers return.
var Analyzer = &analysis.Analyzer{
	Name:     "mcphandlerbody",
	Doc:      "check the errors mcpcore handlers return",
	URL:      "https://pkg.go.dev/github.com/seed417024ea/mcpcore/lint/handlerbody",
	Requires: []*analysis.Analyzer{defs.Analyzer, upstream.Analyzer},
	Run:      run,
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[defs.Analyzer].(*defs.Result)
	ds := suppress.Read(pass)
	up := pass.ResultOf[upstream.Analyzer].(*upstream.Result)
	seen := map[ast.Node]bool{} // a named handler serves many definitions
	for _, d := range res.Defs {
		_, body := defs.Func(d.Handler)
		if body == nil || seen[d.Handler] {
			continue
		}
		seen[d.Handler] = true
		c := &checker{pass: pass, ds: ds, up: up, label: d.Label()}
		c.block(body, nil)
	}
	if framework(pass.Pkg) {
		return nil, nil
	}
	// Every other function is a service: what it builds with mcperr and
	// returns reaches a client through whichever handler calls it, which
	// this pass cannot know (a service package is analyzed before its
	// importers).
	for _, f := range pass.Files {
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil || seen[fd] {
				continue
			}
			c := &checker{pass: pass, ds: ds, up: up, service: true}
			c.block(fd.Body, nil)
		}
	}
	return nil, nil
}

// framework reports whether pkg is one of mcpcore's own, outside its
// examples: mcperr and mcpcore build the errors services return, and
// mcpclient reads back the errors a server sent. They are the API, not a
// service of a server.
func framework(pkg *types.Package) bool {
	path := pkg.Path()
	return (path == mcpapi.CorePath || strings.HasPrefix(path, mcpapi.CorePath+"/")) &&
		!strings.Contains(path+"/", "/examples/")
}

type checker struct {
	pass  *analysis.Pass
	ds    *suppress.Directives
	up    *upstream.Result
	label string // the handler's definition, for messages; "" for a service
	// service says that the function is not a handler: only the errors
	// it builds with mcperr (a factory, mcperr.New, ctx.Fail) are
	// judged, by preserve-cause-on-rethrow and
	// no-stringify-upstream-error; how plain Go code builds and wraps its
	// errors is its own affair.
	service bool
}

// block walks statements, noting the error variable of the innermost
// enclosing if err != nil.
func (c *checker) block(n ast.Node, errVar *types.Var) {
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IfStmt:
			if n.Init != nil {
				c.block(n.Init, errVar)
			}
			// Inside if err != nil, a nested condition leaves err
			// as it is: its body is still a branch of the error.
			inner := mcpapi.CheckedErr(c.pass.TypesInfo, n.Cond)
			if inner == nil && !c.testsNil(n.Cond, errVar) {
				inner = errVar
			}
			c.block(n.Body, inner)
			if n.Else != nil {
				c.block(n.Else, errVar)
			}
			return false
		case *ast.ReturnStmt:
			for _, r := range n.Results {
				if c.isError(r) {
					c.result(ast.Unparen(r), errVar)
				}
			}
		}
		return true
	})
}

// testsNil reports whether cond mentions errVar == nil: a branch where
// err was set again and may be nil.
func (c *checker) testsNil(cond ast.Expr, errVar *types.Var) bool {
	if errVar == nil {
		return false
	}
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		b, ok := n.(*ast.BinaryExpr)
		if !ok || b.Op != token.EQL {
			return !found
		}
		for _, pair := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
			id, ok := ast.Unparen(pair[0]).(*ast.Ident)
			if ok && c.pass.TypesInfo.Uses[id] == errVar && c.pass.TypesInfo.Types[pair[1]].IsNil() {
				found = true
			}
		}
		return !found
	})
	return found
}

func (c *checker) isError(e ast.Expr) bool { return mcpapi.IsError(c.pass.TypesInfo.TypeOf(e)) }

// result checks one returned error expression.
func (c *checker) result(r ast.Expr, errVar *types.Var) {
	call, ok := r.(*ast.CallExpr)
	if !ok {
		return
	}
	fn := mcpapi.Callee(c.pass.TypesInfo, call)
	plain := mcpapi.IsFunc(fn, "errors", "New") || mcpapi.IsFunc(fn, "fmt", "Errorf") && !wraps(c.pass, call)
	_, factory := mcpapi.FactoryCode(c.pass.TypesInfo, call)
	fail := mcpapi.IsContextMethod(fn, "Fail")
	isNew := mcpapi.IsFunc(fn, mcpapi.ErrPath, "New") && len(call.Args) > 0
	built := factory || fail || isNew // an mcperr error, built here

	if c.service {
		if built {
			c.newError(call, errVar)
		}
		return
	}
	if plain {
		c.report("prefer-mcp-error-in-handler", call, nil,
			"%s returns %s, which reaches the client as a classified code with no reason; return ctx.Fail with a declared entry, or an mcperr factory", c.label, fn.Pkg().Name()+"."+fn.Name())
	}
	if isNew {
		c.preferFactory(call)
	}
	if plain || built || mcpapi.IsFunc(fn, "fmt", "Errorf") {
		c.newError(call, errVar)
	}
}

// newError checks an error built at the return: that it keeps errVar
// (when returned with errVar != nil), and is not built from an upstream's
// words.
func (c *checker) newError(call *ast.CallExpr, errVar *types.Var) {
	if errVar != nil && !keepsCause(c.pass, call, errVar) {
		c.reportDropped(call, errVar)
	}
	c.reportStringified(call)
}

// preferFactory reports an mcperr.New call whose constant code has a
// factory.
func (c *checker) preferFactory(call *ast.CallExpr) {
	code, ok := mcpapi.ConstCode(c.pass.TypesInfo, call.Args[0])
	if !ok {
		return
	}
	if name, ok := mcpapi.FactoryFor(code); ok {
		c.report("prefer-error-factory", call, factoryFix(call, name),
			"mcperr.New(%s, …) has a factory; use mcperr.%s(…)", types.ExprString(call.Args[0]), name)
	}
}

// reportDropped reports a new error, returned when errVar != nil, that
// drops errVar.
func (c *checker) reportDropped(call *ast.CallExpr, errVar *types.Var) {
	c.report("preserve-cause-on-rethrow", call, nil,
		"the error returned when %s != nil drops it; wrap it with %%w, or pass mcperr.WithCause(%s)", errVar.Name(), errVar.Name())
}

// reportStringified reports an error whose message is built from an
// upstream error or body.
func (c *checker) reportStringified(call *ast.CallExpr) {
	what := stringified(c.pass, call)
	if what == "" {
		what = c.upstreamText(call)
	}
	if what != "" {
		c.report("no-stringify-upstream-error", call, nil,
			"the message is built from %s, which can carry what an upstream said (secrets, internals) to the client; say what failed, and keep the upstream error as the cause", what)
	}
}

func (c *checker) report(rule string, n ast.Node, fixes []analysis.SuggestedFix, format string, args ...any) {
	c.ds.Report(c.pass, rule, n, fmt.Sprintf(format, args...), fixes)
}

// upstreamText names what an upstream said that an error's message is
// built from, followed through variables and helpers (see package
// upstream): the message of a factory, mcperr.New, ctx.Fail or
// errors.New, or what fmt.Errorf formats but with %w.
func (c *checker) upstreamText(call *ast.CallExpr) string {
	fn := mcpapi.Callee(c.pass.TypesInfo, call)
	var msgs []ast.Expr
	switch _, factory := mcpapi.FactoryCode(c.pass.TypesInfo, call); {
	case mcpapi.IsFunc(fn, "fmt", "Errorf") && len(call.Args) > 0:
		format, _ := mcpapi.ConstString(c.pass.TypesInfo, call.Args[0])
		verbs := verbsOf(format)
		for i, a := range call.Args[1:] {
			if i >= len(verbs) || !strings.ContainsRune("wdTp", verbs[i]) {
				msgs = append(msgs, a)
			}
		}
	case mcpapi.IsFunc(fn, mcpapi.ErrPath, "New"), mcpapi.IsContextMethod(fn, "Fail"):
		if len(call.Args) > 1 {
			msgs = call.Args[1:2]
		}
	case factory, mcpapi.IsFunc(fn, "errors", "New"):
		if len(call.Args) > 0 {
			msgs = call.Args[:1]
		}
	}
	for _, m := range msgs {
		if t := c.up.Of(m); t.Kind == upstream.Text {
			return t.String()
		}
	}
	return ""
}

// wraps reports whether a fmt.Errorf call has a %w verb.
func wraps(pass *analysis.Pass, call *ast.CallExpr) bool {
	if len(call.Args) == 0 {
		return false
	}
	format, ok := mcpapi.ConstString(pass.TypesInfo, call.Args[0])
	return !ok || strings.Contains(format, "%w") // an unknown format may wrap
}

// keepsCause reports whether a call keeps v: as a %w argument of
// fmt.Errorf, in mcperr.WithCause(v), or anywhere else among its arguments
// but in the message, conservatively.
func keepsCause(pass *analysis.Pass, call *ast.CallExpr, v *types.Var) bool {
	fn := mcpapi.Callee(pass.TypesInfo, call)
	if mcpapi.IsFunc(fn, "fmt", "Errorf") {
		return wraps(pass, call) && uses(pass, call.Args[1:], v)
	}
	for i, a := range call.Args {
		if mcpapi.IsFunc(fn, mcpapi.ErrPath, "New") && i < 2 || !mcpapi.IsFunc(fn, mcpapi.ErrPath, "New") && i < 1 {
			continue // the code and the message
		}
		if mcpapi.IsContextMethod(fn, "Fail") && i < 2 {
			continue // the entry and the message
		}
		if uses(pass, []ast.Expr{a}, v) {
			return true
		}
	}
	return false
}

// uses reports whether any of exprs mentions v.
func uses(pass *analysis.Pass, exprs []ast.Expr, v *types.Var) bool {
	found := false
	for _, e := range exprs {
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && pass.TypesInfo.Uses[id] == v {
				found = true
			}
			return !found
		})
	}
	return found
}

// stringified names what an error's message is built from, when it is an
// upstream error or body: "err.Error()", "%v of err", "json.Marshal",
// "string(body)"; "" otherwise.
func stringified(pass *analysis.Pass, call *ast.CallExpr) string {
	what := ""
	fn := mcpapi.Callee(pass.TypesInfo, call)
	if mcpapi.IsFunc(fn, "fmt", "Errorf") {
		what = formatted(pass, call)
	}
	for _, a := range call.Args {
		if what != "" {
			break
		}
		ast.Inspect(a, func(n ast.Node) bool {
			if what != "" {
				return false
			}
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				f := mcpapi.Callee(pass.TypesInfo, n)
				switch {
				case mcpapi.IsFunc(f, "encoding/json", "Marshal"), mcpapi.IsFunc(f, "encoding/json", "MarshalIndent"):
					what = "json." + f.Name()
				case mcpapi.IsFunc(f, "fmt", "Sprintf"):
					what = formatted(pass, n)
				case isErrorCall(pass, n):
					what = types.ExprString(n.Fun.(*ast.SelectorExpr).X) + ".Error()"
				case isStringConversion(pass, n):
					what = "string(" + types.ExprString(n.Args[0]) + ")"
				}
			}
			return true
		})
	}
	return what
}

// formatted names an error or []byte formatted with a %v-like verb by a
// Sprintf or Errorf call, or "".
func formatted(pass *analysis.Pass, call *ast.CallExpr) string {
	if len(call.Args) < 2 {
		return ""
	}
	format, ok := mcpapi.ConstString(pass.TypesInfo, call.Args[0])
	if !ok {
		return ""
	}
	verbs := verbsOf(format)
	for i, a := range call.Args[1:] {
		// %w wraps; %T and %p print the type and the address, not what
		// the upstream said.
		if i >= len(verbs) || strings.ContainsRune("wdTp", verbs[i]) {
			continue
		}
		t := pass.TypesInfo.TypeOf(a)
		if t == nil {
			continue
		}
		if mcpapi.IsError(t) || isBytes(t) || mcpapi.IsNamed(t, "net/http", "Response") {
			return fmt.Sprintf("%%%c of %s", verbs[i], types.ExprString(a))
		}
	}
	return ""
}

// verbsOf lists the verbs of a format string, one per argument it takes.
func verbsOf(format string) []rune {
	var verbs []rune
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		for i < len(format) && strings.ContainsRune("+-# 0123456789.*[]", rune(format[i])) {
			i++
		}
		if i < len(format) && format[i] != '%' {
			verbs = append(verbs, rune(format[i]))
		}
	}
	return verbs
}

// isErrorCall reports whether call is x.Error() on an error x.
func isErrorCall(pass *analysis.Pass, call *ast.CallExpr) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Error" || len(call.Args) != 0 {
		return false
	}
	t := pass.TypesInfo.TypeOf(sel.X)
	return mcpapi.IsError(t)
}

func isStringConversion(pass *analysis.Pass, call *ast.CallExpr) bool {
	if len(call.Args) != 1 {
		return false
	}
	tv, ok := pass.TypesInfo.Types[call.Fun]
	if !ok || !tv.IsType() {
		return false
	}
	b, ok := tv.Type.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0 && isBytes(pass.TypesInfo.TypeOf(call.Args[0]))
}

func isBytes(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	b, ok := s.Elem().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Byte
}

// factoryFix rewrites mcperr.New(mcperr.CodeX, msg, …) as mcperr.X(msg, …).
func factoryFix(call *ast.CallExpr, name string) []analysis.SuggestedFix {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || len(call.Args) < 2 {
		return nil
	}
	pkg, ok := sel.X.(*ast.Ident)
	if !ok {
		return nil
	}
	return []analysis.SuggestedFix{{
		Message: "Use mcperr." + name,
		TextEdits: []analysis.TextEdit{{
			Pos: call.Fun.Pos(), End: call.Args[1].Pos(), NewText: []byte(pkg.Name + "." + name + "("),
		}},
	}}
}
