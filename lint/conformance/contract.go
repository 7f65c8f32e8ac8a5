package conformance

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/seed417024ea/mcpcore/lint/internal/defs"
	"github.com/seed417024ea/mcpcore/lint/internal/mcpapi"
	"github.com/seed417024ea/mcpcore/lint/internal/raises"
	"github.com/seed417024ea/mcpcore/lint/internal/suppress"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// baseline are the codes any handler may return undeclared: what the
// framework itself produces (a panic, a deadline, invalid input, bad
// output, a client without a capability the call needs, which MCP makes a
// protocol error) and an upstream that is down.
var baseline = []mcperr.Code{
	mcperr.CodeInternalError, mcperr.CodeServiceUnavailable, mcperr.CodeTimeout,
	mcperr.CodeValidationError, mcperr.CodeSerializationError, mcperr.CodeMissingClientCapability,
}

// declaredEntry is what the conformance rules need of a contract entry.
type declaredEntry struct {
	expr     ast.Expr
	lit      ast.Node // the literal, for suppressions written on it; may be nil
	reason   string
	code     mcperr.Code
	thrownBy string
}

// entries reads a definition's contract, in this package's literals or
// through the facts of another package's variables. ok is false when an
// entry cannot be read: the contract is then not fully known.
func entries(rs *raises.Result, d *defs.Def) (es []declaredEntry, ok bool) {
	ok = true
	for _, e := range d.Entries {
		switch {
		case e.Failure != nil && e.Failure.Const["Reason"] && e.Failure.Const["Code"]:
			es = append(es, declaredEntry{e.Expr, e.Failure.Lit, e.Failure.Reason, e.Failure.Code, e.Failure.ThrownBy})
		case e.Failure == nil && rs.Entry(e.Expr) != nil && rs.Entry(e.Expr).Reason != "":
			f := rs.Entry(e.Expr)
			es = append(es, declaredEntry{e.Expr, nil, f.Reason, f.Code, f.ThrownBy})
		case e.Imported != nil: // read through another package's fact
			es = append(es, declaredEntry{e.Expr, nil, e.Imported.Reason, e.Imported.Code, e.Imported.ThrownBy})
		default:
			ok = false
		}
	}
	return es, ok
}

// withCode returns the entries of es with code c.
func withCode(es []declaredEntry, c mcperr.Code) []declaredEntry {
	var with []declaredEntry
	for _, e := range es {
		if e.code == c {
			with = append(with, e)
		}
	}
	return with
}

// checkContract runs the rules that judge a handler, and the services it
// calls, by what can reach its returns: conformance, failfrom-unmapped,
// prefer-fail and unthrown.
func checkContract(pass *analysis.Pass, ds *suppress.Directives, rs *raises.Result, d *defs.Def, body *ast.BlockStmt, flow *carry) {
	es, known := entries(rs, d)
	if len(d.Entries) == 0 {
		return
	}
	if known {
		checkCodes(pass, ds, d, body, flow, es)
	}
	preferFail(pass, ds, d, body, es, flow)

	if !known || flow.opaque || rs.Of(d.Handler).Opaque {
		return // a reason may be raised where the analysis cannot see
	}
	raised := named(pass, rs, body)
	for _, it := range flow.items {
		raised[it.reason] = true
	}
	for _, x := range rs.Of(d.Handler).Reasons {
		raised[x.Reason] = true
	}
	for _, e := range es {
		if e.thrownBy == "service" || raised[e.reason] {
			continue
		}
		ds.Report(pass, "error-contract-unthrown", e.expr, fmt.Sprintf(
			"%s declares reason %q, but neither its handler nor a service it calls raises it; raise it with ctx.Fail, drop the entry, or mark it ThrownBy: mcpcore.ThrownByService if it comes from where the analysis cannot see",
			d.Label(), e.reason), nil, e.lit)
	}
}

// named returns the reasons of the entries the handler's body names other
// than as ctx.FailFrom's entries (which count only when the error mapped
// can have their code): failed with, passed to a helper, kept in a
// variable. The entry may be raised from there, where the analysis does
// not follow.
func named(pass *analysis.Pass, rs *raises.Result, body *ast.BlockStmt) map[string]bool {
	skip := map[ast.Expr]bool{}
	reasons := map[string]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if mcpapi.IsFailFrom(mcpapi.Callee(pass.TypesInfo, n)) {
				for _, a := range n.Args[min(len(n.Args), 1):] {
					skip[ast.Unparen(a)] = true
				}
			}
		case *ast.CompositeLit, *ast.Ident, *ast.SelectorExpr:
			e := n.(ast.Expr)
			if skip[e] || !mcpapi.IsFailureType(pass.TypesInfo.TypeOf(e)) {
				return true
			}
			if f := rs.Entry(e); f != nil {
				reasons[f.Reason] = true
			}
			return false
		}
		return true
	})
	return reasons
}

// preferFail reports a factory or mcperr.New call in the handler whose code
// a contract entry declares, a baseline code such as ValidationError
// included (the entry's reason and hint are what the author declared for
// it), and offers ctx.Fail with that entry when it is
// the only one with that code and is named by a variable.
func preferFail(pass *analysis.Pass, ds *suppress.Directives, d *defs.Def, body *ast.BlockStmt, es []declaredEntry, flow *carry) {
	ctxName := contextParam(d.Handler)
	returned := map[*ast.CallExpr]bool{}
	for _, it := range flow.items {
		if it.factory {
			returned[it.site] = true
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		code, ok := mcpapi.FactoryCode(pass.TypesInfo, call)
		if !ok || !returned[call] {
			return true
		}
		// A factory that names its own reason raises that failure: only
		// an entry with that reason (or none named) is the one meant.
		reason, named := dataReason(pass, call)
		var with []declaredEntry
		for _, e := range es {
			if e.code == code && (!named || e.reason == reason) {
				with = append(with, e)
			}
		}
		if len(with) == 0 {
			return true
		}
		var reasons []string
		for _, e := range with {
			if r := fmt.Sprintf("%q", e.reason); !slices.Contains(reasons, r) {
				reasons = append(reasons, r)
			}
		}
		ds.Report(pass, "error-contract-prefer-fail", call, fmt.Sprintf(
			"%s builds a %s error that its contract declares (%s) without ctx.Fail; fail with the declared entry so that the reason and the contract's defaults reach the client",
			d.Label(), code, strings.Join(reasons, " or ")), failFix(pass, call, d.Handler, ctxName, with))
		return true
	})
}

// failFix rewrites mcperr.X(msg, …) or mcperr.New(code, msg, …) as
// ctx.Fail(entry, msg, …, ctx.RecoveryFor(entry)).
func failFix(pass *analysis.Pass, call *ast.CallExpr, handler ast.Node, ctxName string, with []declaredEntry) []analysis.SuggestedFix {
	if len(with) != 1 || ctxName == "" || !sameObject(pass, call, handler, ctxName) {
		return nil
	}
	if len(call.Args) == 1 {
		if _, tuple := pass.TypesInfo.TypeOf(call.Args[0]).(*types.Tuple); tuple {
			return nil // NotFound(pair()) cannot become Fail(entry, pair())
		}
	}
	entry, ok := ast.Unparen(with[0].expr).(*ast.Ident)
	if !ok {
		return nil
	}
	msg := 0
	if mcpapi.IsFunc(mcpapi.Callee(pass.TypesInfo, call), mcpapi.ErrPath, "New") {
		msg = 1
	}
	if len(call.Args) <= msg {
		return nil
	}
	edits := []analysis.TextEdit{{
		Pos: call.Fun.Pos(), End: call.Args[msg].Pos(), NewText: fmt.Appendf(nil, "%s.Fail(%s, ", ctxName, entry.Name),
	}}
	// The options are kept; without a recovery among them the rewritten
	// call would be the next run's recovery-unforwarded finding, so the
	// fix forwards the entry's. After a spread (opts...) nothing can be
	// added, and recovery-unforwarded says nothing of it either.
	if !call.Ellipsis.IsValid() && !mcpapi.ForwardsRecovery(pass.TypesInfo, call.Args[msg+1:]) {
		edits = append(edits, analysis.TextEdit{
			Pos: call.Rparen, End: call.Rparen, NewText: fmt.Appendf(nil, ", %s.RecoveryFor(%s)", ctxName, entry.Name),
		})
	}
	return []analysis.SuggestedFix{{
		Message:   fmt.Sprintf("Use %s.Fail(%s, …, %s.RecoveryFor(%s))", ctxName, entry.Name, ctxName, entry.Name),
		TextEdits: edits,
	}}
}

// contextParam returns the name of a handler's *mcpcore.Context parameter.
func contextParam(h ast.Node) string {
	ft, _ := defs.Func(h)
	if ft == nil || ft.Params == nil || len(ft.Params.List) == 0 || len(ft.Params.List[0].Names) == 0 {
		return ""
	}
	if name := ft.Params.List[0].Names[0].Name; name != "_" {
		return name
	}
	return ""
}

// sameObject reports whether name, at the call, is the handler's own
// parameter of that name and not a shadowing one (the context.Context of a
// Retry callback, say).
func sameObject(pass *analysis.Pass, call *ast.CallExpr, handler ast.Node, name string) bool {
	ft, _ := defs.Func(handler)
	param := pass.TypesInfo.Defs[ft.Params.List[0].Names[0]]
	scope := pass.Pkg.Scope().Innermost(call.Pos())
	if scope == nil {
		return false
	}
	_, obj := scope.LookupParent(name, call.Pos())
	return obj != nil && obj == param
}

// dataReason returns the constant reason a factory call's
// mcperr.WithData(map[string]any{"reason": …}) option gives, if any.
func dataReason(pass *analysis.Pass, call *ast.CallExpr) (string, bool) {
	for _, a := range call.Args {
		opt, ok := ast.Unparen(a).(*ast.CallExpr)
		if !ok || !mcpapi.IsFunc(mcpapi.Callee(pass.TypesInfo, opt), mcpapi.ErrPath, "WithData") || len(opt.Args) != 1 {
			continue
		}
		lit, ok := ast.Unparen(opt.Args[0]).(*ast.CompositeLit)
		if !ok {
			continue
		}
		for _, elt := range lit.Elts {
			kv, ok := elt.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			if k, ok := mcpapi.ConstString(pass.TypesInfo, kv.Key); ok && k == "reason" {
				return mcpapi.ConstString(pass.TypesInfo, kv.Value)
			}
		}
	}
	return "", false
}
