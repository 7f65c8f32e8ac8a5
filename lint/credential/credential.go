package credential

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/seed417024ea/mcpcore/lint/internal/mcpapi"
	"github.com/seed417024ea/mcpcore/lint/internal/suppress"
)

// Analyzer reports credentials written into the text a server sends.
var Analyzer = &analysis.Analyzer{
	Name:     "mcpcredential",
	Doc:      "report credentials written into the text an mcpcore server sends",
	URL:      "https://pkg.go.dev/github.com/seed417024ea/mcpcore/lint/credential",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run:      run,
}

// rule is the one rule of the analyzer.
const rule = "no-credential-literal"

// What a finding says the credential would do, by where it is written.
const (
	// sent: text the framework sends as the author wrote it.
	sent = "it would reach clients as written; remove it (read a secret from configuration), and rotate it"
	// logged: text the runtime scrubs on its way out, a log record or a
	// progress message; the secret is in the source all the same.
	logged = "a secret in the source leaks with the source and the binary, even where the runtime scrubs the record; remove it (read a secret from configuration), and rotate it"
)

// logMessage is the index of the message argument of each method of
// *slog.Logger that writes a record.
var logMessage = map[string]int{
	"Debug": 0, "Info": 0, "Warn": 0, "Error": 0,
	"DebugContext": 1, "InfoContext": 1, "WarnContext": 1, "ErrorContext": 1,
	"Log": 2, "LogAttrs": 2,
}

func run(pass *analysis.Pass) (any, error) {
	if !namesFramework(pass.Pkg) {
		return nil, nil
	}
	c := &checker{pass: pass, ds: suppress.Read(pass), locals: localValues(pass)}
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	ins.Preorder([]ast.Node{(*ast.CallExpr)(nil), (*ast.CompositeLit)(nil)}, func(n ast.Node) {
		switch n := n.(type) {
		case *ast.CallExpr:
			c.call(n)
		case *ast.CompositeLit:
			c.literal(n)
		}
	})
	return nil, nil
}

type checker struct {
	pass *analysis.Pass
	ds   *suppress.Directives
	// locals are the values of the local variables defined once, so that
	// a logger named by a variable (log := ctx.Logger()) is known.
	locals map[*types.Var]ast.Expr
}

// call checks the text arguments of a call of mcpcore, mcperr, or of a
// client's logger.
func (c *checker) call(call *ast.CallExpr) {
	info := c.pass.TypesInfo
	fn := mcpapi.Callee(info, call)
	if fn == nil {
		return
	}
	_, factory := mcpapi.Factories[fn.Name()]
	switch {
	case mcpapi.IsContextMethod(fn, "Fail"):
		c.arg(call, 1, "the message of ctx.Fail", sent)
	case mcpapi.IsFunc(fn, mcpapi.CorePath, "Elicit"):
		c.arg(call, 1, "the message of mcpcore.Elicit", sent)
	case mcpapi.IsFunc(fn, mcpapi.ErrPath, "New"):
		c.arg(call, 1, "the message of mcperr.New", sent)
	case factory && mcpapi.IsFunc(fn, mcpapi.ErrPath, fn.Name()):
		c.arg(call, 0, "the message of mcperr."+fn.Name(), sent)
	case mcpapi.IsFunc(fn, mcpapi.ErrPath, "WithRecovery"):
		c.arg(call, 0, "the hint of mcperr.WithRecovery", sent)
	case mcpapi.IsFunc(fn, mcpapi.ErrPath, "WithData") && len(call.Args) == 1:
		c.data(call.Args[0], "data")
	case mcpapi.IsContextMethod(fn, "Progress"):
		c.arg(call, 2, "the message of ctx.Progress", logged)
	default:
		c.logCall(call, fn)
	}
}

// logCall checks the message and attributes of a call of a client's
// logger.
func (c *checker) logCall(call *ast.CallExpr, fn *types.Func) {
	at, ok := logMessage[fn.Name()]
	sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || !isSel || !isLoggerMethod(fn) || !c.clientLogger(sel.X, 0) {
		return
	}
	c.arg(call, at, "the message of a log record", logged)
	for _, a := range call.Args[min(at+1, len(call.Args)):] {
		c.check(a, "an attribute of a log record", logged)
	}
}

// literal checks the text fields of a contract entry and of a sampling
// request.
func (c *checker) literal(lit *ast.CompositeLit) {
	info := c.pass.TypesInfo
	if f := mcpapi.ReadFailure(info, lit); f != nil {
		name := "a failure"
		if f.Const["Reason"] && f.Reason != "" {
			name = "failure " + f.Reason
		}
		for _, field := range []string{"When", "Recovery"} {
			if e := f.Fields[field]; e != nil {
				c.check(e, "the "+field+" of "+name, sent, lit)
			}
		}
		return
	}
	if mcpapi.IsNamed(info.TypeOf(lit), mcpapi.CorePath, "SamplingRequest") {
		for _, elt := range lit.Elts {
			kv, ok := elt.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			if key, ok := kv.Key.(*ast.Ident); ok && (key.Name == "Prompt" || key.Name == "SystemPrompt") {
				c.check(kv.Value, "the "+key.Name+" of a SamplingRequest", sent)
			}
		}
	}
}

// data checks the keys and the string values of a literal given to
// mcperr.WithData, at any depth; where names the value, data["key"].
func (c *checker) data(e ast.Expr, where string) {
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok {
		c.check(e, where, sent)
		return
	}
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			c.data(elt, "an element of "+where)
			continue
		}
		if _, isMap := c.pass.TypesInfo.TypeOf(lit).Underlying().(*types.Map); !isMap {
			c.data(kv.Value, "an element of "+where) // an array's index: element
			continue
		}
		inner := "a value in " + where
		if key, ok := mcpapi.ConstString(c.pass.TypesInfo, kv.Key); ok {
			c.check(kv.Key, "a key of "+where, sent)
			inner = fmt.Sprintf("%s[%q]", where, key)
		}
		c.data(kv.Value, inner)
	}
}

// arg checks the argument i of a call.
func (c *checker) arg(call *ast.CallExpr, i int, place, fate string) {
	if i < len(call.Args) {
		c.check(call.Args[i], place, fate)
	}
}

// check reports e when its text holds a credential. A directive on any of
// also (the contract entry) silences it too.
func (c *checker) check(e ast.Expr, place, fate string, also ...ast.Node) {
	if !isString(c.pass.TypesInfo.TypeOf(e)) {
		return
	}
	found, ok := textOf(c.pass.TypesInfo, e).credential()
	if !ok {
		return
	}
	c.ds.Report(c.pass, rule, e, fmt.Sprintf("%s holds a credential-shaped value%s: %s", place, describe(found), fate), nil, also...)
}

// namesFramework reports whether pkg is mcpcore, mcperr or contract, or
// imports one of them: only such a package writes text they send.
func namesFramework(pkg *types.Package) bool {
	framework := func(path string) bool {
		return path == mcpapi.CorePath || path == mcpapi.ErrPath || path == mcpapi.ContractPath
	}
	if framework(pkg.Path()) {
		return true
	}
	for _, imp := range pkg.Imports() {
		if framework(imp.Path()) {
			return true
		}
	}
	return false
}

// isLoggerMethod reports whether fn is a method of *slog.Logger.
func isLoggerMethod(fn *types.Func) bool {
	recv := fn.Signature().Recv()
	return recv != nil && mcpapi.IsNamed(recv.Type(), "log/slog", "Logger")
}

// maxLoggerDepth bounds how far a logger is followed through variables
// and With calls.
const maxLoggerDepth = 8

// clientLogger reports whether e is a logger whose records reach the
// client: ctx.Logger(), mcpcore.Logger(ctx), what With or WithGroup make
// of one, or a local variable defined once as one.
func (c *checker) clientLogger(e ast.Expr, depth int) bool {
	if depth > maxLoggerDepth {
		return false
	}
	info := c.pass.TypesInfo
	switch x := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		fn := mcpapi.Callee(info, x)
		switch {
		case mcpapi.IsContextMethod(fn, "Logger"), mcpapi.IsFunc(fn, mcpapi.CorePath, "Logger"):
			return true
		case fn != nil && isLoggerMethod(fn) && (fn.Name() == "With" || fn.Name() == "WithGroup"):
			if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok {
				return c.clientLogger(sel.X, depth+1)
			}
		}
	case *ast.Ident:
		if v, ok := info.Uses[x].(*types.Var); ok && c.locals[v] != nil {
			return c.clientLogger(c.locals[v], depth+1)
		}
	}
	return false
}

// localValues maps each local variable defined with a value and never
// assigned again to that value.
func localValues(pass *analysis.Pass) map[*types.Var]ast.Expr {
	values := map[*types.Var]ast.Expr{}
	assigned := map[*types.Var]bool{}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for i, lhs := range n.Lhs {
					id, ok := lhs.(*ast.Ident)
					if !ok {
						continue
					}
					if v, ok := pass.TypesInfo.Defs[id].(*types.Var); ok && len(n.Lhs) == len(n.Rhs) {
						values[v] = n.Rhs[i]
					} else if v, ok := pass.TypesInfo.Uses[id].(*types.Var); ok {
						assigned[v] = true
					}
				}
			case *ast.ValueSpec:
				for i, id := range n.Names {
					if v, ok := pass.TypesInfo.Defs[id].(*types.Var); ok && len(n.Values) == len(n.Names) {
						values[v] = n.Values[i]
					}
				}
			}
			return true
		})
	}
	for v := range assigned {
		delete(values, v)
	}
	return values
}
