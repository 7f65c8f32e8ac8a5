package conformance

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/seed417024ea/mcpcore/lint/internal/defs"
	"github.com/seed417024ea/mcpcore/lint/internal/mcpapi"
	"github.com/seed417024ea/mcpcore/lint/internal/suppress"
)

// failSites checks each ctx.Fail call of a handler's body: that its entry
// is declared (error-contract-undeclared) and that it forwards a recovery
// (error-contract-recovery-unforwarded); and the other sites where a
// declared hint is asked for, ctx.FailFrom and Elicit (see askSites).
// With a nil d, body is a helper's, and only the recovery is checked: what
// a helper may fail with is for each tool that calls it to say (see
// helperFails).
func failSites(pass *analysis.Pass, ds *suppress.Directives, res *defs.Result, d *defs.Def, body *ast.BlockStmt, seen map[ast.Node]bool) {
	// Without Errors, no Failure is declared, unless the package sets
	// Errors after the literal.
	known := d != nil && (d.ErrorsKnown || d.Errors == nil && !res.ErrorsAssigned)
	// Closures in the body (a Retry callback, say) fail with the same
	// contract.
	ast.Inspect(body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			failSite(pass, ds, res, d, known, call, seen)
		}
		return true
	})
}

// failSite checks one call of failSites' body, known saying whether d's
// contract is: a site that asks for a declared hint, and a ctx.Fail's
// entry and recovery.
func failSite(pass *analysis.Pass, ds *suppress.Directives, res *defs.Result, d *defs.Def, known bool, call *ast.CallExpr, seen map[ast.Node]bool) {
	fn := mcpapi.Callee(pass.TypesInfo, call)
	if !seen[call] && askSite(pass, ds, d, call, fn) {
		seen[call] = true
	}
	if !mcpapi.IsContextMethod(fn, "Fail") || len(call.Args) == 0 {
		return
	}
	entry := resolve(pass, res, call.Args[0])
	if entry != nil && known && !declared(d, entry) {
		ds.Report(pass, "error-contract-undeclared", call.Args[0],
			fmt.Sprintf("ctx.Fail is given Failure %q, which %s does not declare in Errors; it compiles, then fails at run time with an InternalError: declare it, or fail with a declared entry", entry.Reason, d.Label()), nil)
	}
	if seen[call] || call.Ellipsis.IsValid() || len(call.Args) < 2 || forwardsRecovery(pass, call.Args[2:]) {
		return
	}
	seen[call] = true
	name := "the entry"
	if entry != nil {
		name = fmt.Sprintf("%q", entry.Reason)
	}
	ds.Report(pass, "error-contract-recovery-unforwarded", call,
		fmt.Sprintf("this ctx.Fail sends no recovery hint: the declared Recovery of %s reaches neither client surface; pass ctx.RecoveryFor(entry), or a hint of its own with mcperr.WithRecovery", name),
		recoveryFix(call), entryNode(entry))
}

// askSite reports, at a ctx.FailFrom or an Elicit that sends no declared
// hint, that the hint of the entry it fails with stays off the wire
// (error-contract-recovery-unforwarded), and whether it did. ctx.FailFrom
// sends only a hint the service set; ctx.FailFromWithRecovery sends the
// entry's. Elicit's consent_declined carries its hint only with
// RecoveryOnDecline, and is judged only where the contract is known to
// declare one.
func askSite(pass *analysis.Pass, ds *suppress.Directives, d *defs.Def, call *ast.CallExpr, fn *types.Func) bool {
	switch {
	case mcpapi.IsContextMethod(fn, "FailFrom"):
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		ds.Report(pass, "error-contract-recovery-unforwarded", call,
			fmt.Sprintf("this %s sends no declared recovery hint: the Recovery of the entry the error becomes reaches neither client surface (only a hint the service set does); call %s.FailFromWithRecovery, which sends it unless the error has its own", types.ExprString(call.Fun), types.ExprString(sel.X)),
			[]analysis.SuggestedFix{{
				Message:   "Call FailFromWithRecovery",
				TextEdits: []analysis.TextEdit{{Pos: sel.Sel.Pos(), End: sel.Sel.End(), NewText: []byte("FailFromWithRecovery")}},
			}})
		return true
	case mcpapi.IsFunc(fn, mcpapi.CorePath, "Elicit"):
		declined, lit := consentDeclined(d)
		if declined == "" || call.Ellipsis.IsValid() || asksRecoveryOnDecline(pass, call.Args[min(len(call.Args), 2):]) {
			return false
		}
		ds.Report(pass, "error-contract-recovery-unforwarded", call,
			fmt.Sprintf("this Elicit sends no recovery hint when the user declines: the declared Recovery of %q reaches neither client surface; pass %s", declined, qualified(pass, call, "RecoveryOnDecline()")),
			[]analysis.SuggestedFix{{
				Message:   "Add RecoveryOnDecline()",
				TextEdits: []analysis.TextEdit{{Pos: call.Rparen, End: call.Rparen, NewText: []byte(", " + qualified(pass, call, "RecoveryOnDecline()"))}},
			}}, lit)
		return true
	}
	return false
}

// consentDeclined returns the reason of the contract's consent_declined
// entry, which Elicit fails with when the user declines, and its literal
// when this package writes it; "" when there is none, or the contract is
// not known.
func consentDeclined(d *defs.Def) (string, ast.Node) {
	if d == nil || !d.ErrorsKnown {
		return "", nil
	}
	for _, e := range d.Entries {
		switch {
		case e.Failure != nil && e.Failure.Reason == mcpapi.ReasonConsentDeclined && e.Failure.Const["Reason"]:
			return e.Failure.Reason, entryNode(e.Failure)
		case e.Imported != nil && e.Imported.Reason == mcpapi.ReasonConsentDeclined:
			return e.Imported.Reason, nil
		}
	}
	return "", nil
}

// asksRecoveryOnDecline reports whether Elicit's options may hold
// RecoveryOnDecline: one of them is that call, or is not a call of
// mcpcore's own options (a variable may hold it).
func asksRecoveryOnDecline(pass *analysis.Pass, opts []ast.Expr) bool {
	for _, o := range opts {
		call, ok := ast.Unparen(o).(*ast.CallExpr)
		if !ok {
			return true
		}
		fn := mcpapi.Callee(pass.TypesInfo, call)
		if !mcpapi.IsFunc(fn, mcpapi.CorePath, "QuestionKey") {
			return true
		}
	}
	return false
}

// qualified writes name as the file of call refers to mcpcore's: with the
// qualifier its Elicit is called with.
func qualified(pass *analysis.Pass, call *ast.CallExpr, name string) string {
	fun := ast.Unparen(call.Fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = f.X
	case *ast.IndexListExpr:
		fun = f.X
	}
	if sel, ok := fun.(*ast.SelectorExpr); ok {
		if id, ok := sel.X.(*ast.Ident); ok {
			if _, isPkg := pass.TypesInfo.Uses[id].(*types.PkgName); isPkg {
				return id.Name + "." + name
			}
		}
	}
	return name
}

// entryNode is the literal of an entry, for suppressions written on it.
func entryNode(f *mcpapi.Failure) ast.Node {
	if f == nil || f.Lit == nil {
		return nil
	}
	return f.Lit
}

// resolve reads the Failure an expression denotes: a literal, or a variable
// of this package initialised with one.
func resolve(pass *analysis.Pass, res *defs.Result, e ast.Expr) *mcpapi.Failure {
	if f := mcpapi.ReadFailure(pass.TypesInfo, e); f != nil {
		return f
	}
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		if v, ok := pass.TypesInfo.Uses[id].(*types.Var); ok {
			return res.Failures[v]
		}
	}
	return nil
}

// declared reports whether a contract holds f: the same literal, or an
// entry equal in every field written as a constant (Failure values compare
// with ==). An entry that cannot be read counts as declaring it: no finding
// on what is not known.
func declared(d *defs.Def, f *mcpapi.Failure) bool {
	for _, e := range d.Entries {
		switch {
		case e.Imported != nil:
			// Read through another package's fact: the same reason and
			// code is the entry (a Failure of one contract has a unique
			// reason).
			if e.Imported.Reason == f.Reason && e.Imported.Code == f.Code && f.Const["Reason"] && f.Const["Code"] {
				return true
			}
			if !f.Const["Reason"] || !f.Const["Code"] {
				return true // not known: no finding
			}
		case e.Failure == nil || e.Failure.Lit == f.Lit || sameFields(e.Failure, f):
			return true
		}
	}
	return false
}

func sameFields(a, b *mcpapi.Failure) bool {
	for _, name := range []string{"Reason", "Code", "When", "Recovery", "Severity", "ThrownBy", "Retryable"} {
		_, inA := a.Fields[name]
		_, inB := b.Fields[name]
		if inA != inB || a.Const[name] != b.Const[name] {
			return false
		}
	}
	if _, ok := a.Fields["Retryable"]; ok {
		return false // not read: compared only when absent from both
	}
	return a.Reason == b.Reason && a.Code == b.Code && a.When == b.When && a.Recovery == b.Recovery &&
		a.Severity == b.Severity && a.ThrownBy == b.ThrownBy
}

// forwardsRecovery reports whether options carry a recovery: RecoveryFor
// (the method or the package function), mcperr.WithRecovery, or WithData of
// a map literal with a "recovery" key. An option that is not a call of
// these (a variable, a call of another function) may carry one: no
// finding.
func forwardsRecovery(pass *analysis.Pass, opts []ast.Expr) bool {
	for _, o := range opts {
		call, ok := ast.Unparen(o).(*ast.CallExpr)
		if !ok {
			return true
		}
		fn := mcpapi.Callee(pass.TypesInfo, call)
		switch {
		case mcpapi.IsContextMethod(fn, "RecoveryFor"), mcpapi.IsFunc(fn, mcpapi.CorePath, "RecoveryForReason"),
			mcpapi.IsFunc(fn, mcpapi.ErrPath, "WithRecovery"):
			return true
		case mcpapi.IsFunc(fn, mcpapi.ErrPath, "WithData"):
			if len(call.Args) == 1 && hasKey(pass, call.Args[0], "recovery") {
				return true
			}
		case mcpapi.IsFunc(fn, mcpapi.ErrPath, "WithCause"):
		default:
			return true
		}
	}
	return false
}

// hasKey reports whether e is a map literal with the constant key k, or is
// not a literal at all (it may have it).
func hasKey(pass *analysis.Pass, e ast.Expr, k string) bool {
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok {
		return true
	}
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if s, ok := mcpapi.ConstString(pass.TypesInfo, kv.Key); ok && s == k {
				return true
			}
		}
	}
	return false
}

// recoveryFix adds ctx.RecoveryFor(entry) to a Fail call.
func recoveryFix(call *ast.CallExpr) []analysis.SuggestedFix {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	recv := types.ExprString(sel.X)
	entry := types.ExprString(call.Args[0])
	if _, isLit := ast.Unparen(call.Args[0]).(*ast.CompositeLit); isLit {
		return nil // the literal would be written twice
	}
	return []analysis.SuggestedFix{{
		Message: fmt.Sprintf("Add %s.RecoveryFor(%s)", recv, entry),
		TextEdits: []analysis.TextEdit{{
			Pos: call.Rparen, End: call.Rparen, NewText: fmt.Appendf(nil, ", %s.RecoveryFor(%s)", recv, entry),
		}},
	}}
}
