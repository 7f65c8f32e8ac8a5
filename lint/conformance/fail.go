package conformance

import (
	"fmt"
	"go/ast"
	"go/types"
	"path/filepath"

	"golang.org/x/tools/go/analysis"

	"github.com/seed417024ea/mcpcore/lint/internal/defs"
	"github.com/seed417024ea/mcpcore/lint/internal/mcpapi"
	"github.com/seed417024ea/mcpcore/lint/internal/suppress"
)

// failSites checks each ctx.Fail call of a handler's body, and each
// OnDecline: that its entry is declared (error-contract-undeclared) and
// that it forwards a recovery (error-contract-recovery-unforwarded); and
// each Elicit (see askSite). ctx.FailFrom is judged by what the error it
// maps carries (see failFromHints).
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
	onDecline := mcpapi.IsFunc(fn, mcpapi.CorePath, "OnDecline")
	if !mcpapi.IsContextMethod(fn, "Fail") && !onDecline || len(call.Args) == 0 {
		return
	}
	entry := resolve(pass, res, call.Args[0])
	if entry != nil && known && !declared(d, entry) {
		ds.Report(pass, "error-contract-undeclared", call.Args[0],
			fmt.Sprintf("%s is given Failure %q, which %s does not declare in Errors; it compiles, then fails at run time with an InternalError: declare it, or fail with a declared entry", types.ExprString(call.Fun), entry.Reason, d.Label()), nil)
	}
	if onDecline {
		return // its recovery is judged with its Elicit's (askSite)
	}
	if seen[call] || call.Ellipsis.IsValid() || len(call.Args) < 2 || mcpapi.ForwardsRecovery(pass.TypesInfo, call.Args[2:]) {
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

// askSite reports, at an Elicit whose decline sends no declared hint, that
// the hint of the entry it fails with stays off the wire
// (error-contract-recovery-unforwarded), and whether it did: its OnDecline
// carries no RecoveryFor (nor a hint of its own), or it has no OnDecline
// and the contract is known to declare consent_declined, which a decline
// then is, without its hint.
func askSite(pass *analysis.Pass, ds *suppress.Directives, d *defs.Def, call *ast.CallExpr, fn *types.Func) bool {
	if !mcpapi.IsFunc(fn, mcpapi.CorePath, "Elicit") || call.Ellipsis.IsValid() || len(call.Args) == 0 {
		return false
	}
	ctxName := types.ExprString(call.Args[0])
	od, known := mcpapi.OnDecline(pass.TypesInfo, call.Args[min(len(call.Args), 2):])
	if od != nil {
		if od.Ellipsis.IsValid() || mcpapi.ForwardsRecovery(pass.TypesInfo, od.Args[1:]) {
			return false
		}
		entry := types.ExprString(od.Args[0])
		var fixes []analysis.SuggestedFix
		if _, isLit := ast.Unparen(od.Args[0]).(*ast.CompositeLit); !isLit {
			fixes = []analysis.SuggestedFix{{
				Message:   fmt.Sprintf("Add %s.RecoveryFor(%s)", ctxName, entry),
				TextEdits: []analysis.TextEdit{{Pos: od.Rparen, End: od.Rparen, NewText: fmt.Appendf(nil, ", %s.RecoveryFor(%s)", ctxName, entry)}},
			}}
		}
		ds.Report(pass, "error-contract-recovery-unforwarded", od,
			fmt.Sprintf("this OnDecline sends no recovery hint when the user declines: the declared Recovery of %s reaches neither client surface; pass %s.RecoveryFor(%s), or a hint of its own with mcperr.WithRecovery", entry, ctxName, entry),
			fixes)
		return true
	}
	declined, lit, expr := consentDeclined(d)
	if declined == "" || !known {
		return false
	}
	var fixes []analysis.SuggestedFix
	if expr != nil {
		if _, isLit := ast.Unparen(expr).(*ast.CompositeLit); !isLit {
			entry := types.ExprString(expr)
			opt := qualified(pass, call, fmt.Sprintf("OnDecline(%s, %s.RecoveryFor(%s))", entry, ctxName, entry))
			fixes = []analysis.SuggestedFix{{
				Message:   "Add " + opt,
				TextEdits: []analysis.TextEdit{{Pos: call.Rparen, End: call.Rparen, NewText: []byte(", " + opt)}},
			}}
		}
	}
	ds.Report(pass, "error-contract-recovery-unforwarded", call,
		fmt.Sprintf("this Elicit sends no recovery hint when the user declines: the declared Recovery of %q reaches neither client surface; pass %s", declined, qualified(pass, call, fmt.Sprintf("OnDecline(entry, %s.RecoveryFor(entry))", ctxName))),
		fixes, lit)
	return true
}

// consentDeclined returns the reason of the contract's consent_declined
// entry, which Elicit fails with when the user declines, its literal when
// this package writes it, and the expression that names it in Errors; ""
// when there is none, or the contract is not known.
func consentDeclined(d *defs.Def) (string, ast.Node, ast.Expr) {
	if d == nil || !d.ErrorsKnown {
		return "", nil, nil
	}
	for _, e := range d.Entries {
		switch {
		case e.Failure != nil && e.Failure.Reason == mcpapi.ReasonConsentDeclined && e.Failure.Const["Reason"]:
			return e.Failure.Reason, entryNode(e.Failure), e.Expr
		case e.Imported != nil && e.Imported.Reason == mcpapi.ReasonConsentDeclined:
			return e.Imported.Reason, nil, e.Expr
		}
	}
	return "", nil, nil
}

// failFromHints reports each ctx.FailFrom that maps an error the analysis
// can see onto an entry without a recovery hint: its service raised it
// with neither RecoveryFor nor a hint of its own, so the entry's declared
// Recovery reaches no client (error-contract-recovery-unforwarded). The
// hint is opted into where the service raises, so no fix is offered.
func failFromHints(pass *analysis.Pass, ds *suppress.Directives, flow *carry, seen map[ast.Node]bool) {
	for _, u := range flow.unhinted {
		if seen[u.at] {
			continue
		}
		seen[u.at] = true
		what := "the error"
		if u.from.code != 0 {
			what = "the " + u.from.code.String()
		}
		if u.from.site != nil {
			pos := pass.Fset.Position(u.from.site.Pos())
			what += fmt.Sprintf("%s, which comes in at %s:%d,", through(u.from), filepath.Base(pos.Filename), pos.Line)
		}
		ds.Report(pass, "error-contract-recovery-unforwarded", u.at,
			fmt.Sprintf("this %s maps %s onto %q without a recovery hint: the declared Recovery reaches neither client surface; raise the error with mcpcore.RecoveryFor(ctx, entry) where it is built (FailFrom keeps it), or with a hint of its own (mcperr.WithRecovery)",
				types.ExprString(u.at.Fun), what, u.entry), nil)
	}
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
