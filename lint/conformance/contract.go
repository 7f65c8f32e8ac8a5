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
	shared   bool // declared by several definitions from one place
}

// entries reads a definition's contract, in this package's literals or
// through the facts of another package's variables. ok is false when an
// entry cannot be read: the contract is then not fully known.
func entries(rs *raises.Result, d *defs.Def) (es []declaredEntry, ok bool) {
	ok = true
	for _, e := range d.Entries {
		switch {
		case e.Failure != nil && e.Failure.Const["Reason"] && e.Failure.Const["Code"]:
			es = append(es, declaredEntry{e.Expr, e.Failure.Lit, e.Failure.Reason, e.Failure.Code, e.Failure.ThrownBy, e.Shared})
		case e.Failure == nil && rs.Entry(e.Expr) != nil && rs.Entry(e.Expr).Reason != "":
			f := rs.Entry(e.Expr)
			es = append(es, declaredEntry{e.Expr, nil, f.Reason, f.Code, f.ThrownBy, e.Shared})
		case e.Imported != nil: // read through another package's fact
			es = append(es, declaredEntry{e.Expr, nil, e.Imported.Reason, e.Imported.Code, e.Imported.ThrownBy, e.Shared})
		default:
			ok = false
		}
	}
	return es, ok
}

// checkContract runs the rules that judge a handler, and the services it
// calls, by what their errors can carry: conformance, prefer-fail and
// unthrown.
func checkContract(pass *analysis.Pass, ds *suppress.Directives, res *defs.Result, rs *raises.Result, d *defs.Def, body *ast.BlockStmt) {
	es, known := entries(rs, d)
	if len(d.Entries) == 0 {
		return
	}
	declaresCode := func(c mcperr.Code) bool {
		return slices.ContainsFunc(es, func(e declaredEntry) bool { return e.code == c })
	}

	handler := rs.Of(d.Handler)
	branched := branchedOn(pass.TypesInfo, body)
	if known {
		for _, c := range handler.Codes {
			if slices.Contains(baseline, c.Code) || declaresCode(c.Code) || branched[int64(c.Code)] {
				continue
			}
			call, ok := nodeAt(body, c).(*ast.CallExpr)
			if !ok || !returned(pass.TypesInfo, body, call) {
				continue // only what surely reaches a return is reported
			}
			through := ""
			if c.Via != "" {
				through = " through " + c.Via
				if c.Origin != "" && c.Origin != c.Via {
					through += " (raised in " + c.Origin + ")"
				}
			}
			ds.Report(pass, "error-contract-conformance", call, fmt.Sprintf(
				"%s can return %s%s, which its contract does not declare (nor is it a baseline code: InternalError, ServiceUnavailable, Timeout, ValidationError, SerializationError, MissingClientCapability); declare a failure with that code, or map the error to a declared one",
				d.Label(), c.Code, through), nil)
		}
	}

	preferFail(pass, ds, d, body, es)

	if !known || opaque(pass, body) {
		return // a reason may be raised where the analysis cannot see
	}
	for _, e := range es {
		if e.thrownBy == "service" || e.shared || handler.HasReason(e.reason) || usedElsewhere(pass, res, e.expr) {
			continue
		}
		ds.Report(pass, "error-contract-unthrown", e.expr, fmt.Sprintf(
			"%s declares reason %q, but neither its handler nor a service it calls raises it; raise it with ctx.Fail, drop the entry, or mark it ThrownBy: mcpcore.ThrownByService if it comes from where the analysis cannot see",
			d.Label(), e.reason), nil, e.lit)
	}
}

// usedElsewhere reports whether an entry is a variable of another package
// (whose uses this pass cannot see), or one of this package used anywhere
// but in a contract: failed with, passed to a helper, kept in a struct,
// sent on a channel, joined. The entry may then be raised where the facts
// do not follow, and unthrown says nothing: it speaks of entries that
// nothing in the package even names.
func usedElsewhere(pass *analysis.Pass, res *defs.Result, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		_, sel := ast.Unparen(e).(*ast.SelectorExpr)
		return sel
	}
	v, ok := pass.TypesInfo.Uses[id].(*types.Var)
	if !ok {
		return false
	}
	if v.Pkg() != pass.Pkg {
		return true
	}
	inContract := map[*ast.Ident]bool{}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			kv, ok := n.(*ast.KeyValueExpr)
			if !ok {
				return true
			}
			if key, ok := kv.Key.(*ast.Ident); !ok || key.Name != "Errors" {
				return true
			}
			ast.Inspect(kv.Value, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					inContract[id] = true
				}
				return true
			})
			return false
		})
	}
	for use, obj := range pass.TypesInfo.Uses {
		if obj == v && !inContract[use] && !res.ContractIdents[use] {
			return true
		}
	}
	return false
}

// nodeAt returns the call of body a code comes from, for the report: the
// call that builds the error, or the call of the service it comes through.
func nodeAt(body *ast.BlockStmt, c raises.Code) ast.Node {
	var found ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && call.Pos() == c.Pos() && found == nil {
			found = call
		}
		return found == nil
	})
	if found == nil {
		return &ast.Ident{NamePos: c.Pos(), Name: "_"} // a position is all a report needs
	}
	return found
}

// opaque reports whether body calls something the analysis cannot see into
// (an interface method, a function value) that can return an error: a
// reason may be raised there.
func opaque(pass *analysis.Pass, body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		if tv, ok := pass.TypesInfo.Types[call.Fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
			return true
		}
		if mcpapi.Callee(pass.TypesInfo, call) == nil && returnsError(pass.TypesInfo.TypeOf(call)) {
			found = true
		}
		return true
	})
	return found
}

// returnsError reports whether a call's type is, or a tuple holds, error.
func returnsError(t types.Type) bool {
	if tup, ok := t.(*types.Tuple); ok {
		for v := range tup.Variables() {
			if returnsError(v.Type()) {
				return true
			}
		}
		return false
	}
	return mcpapi.IsError(t)
}

// preferFail reports a factory or mcperr.New call in the handler whose code
// a contract entry declares, and offers ctx.Fail with that entry when it is
// the only one with that code and is named by a variable.
func preferFail(pass *analysis.Pass, ds *suppress.Directives, d *defs.Def, body *ast.BlockStmt, es []declaredEntry) {
	ctxName := contextParam(d.Handler)
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		code, ok := mcpapi.FactoryCode(pass.TypesInfo, call)
		if !ok || slices.Contains(baseline, code) || !returned(pass.TypesInfo, body, call) {
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
	if !call.Ellipsis.IsValid() && !forwardsRecovery(pass, call.Args[msg+1:]) {
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
