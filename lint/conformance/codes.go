package conformance

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/seed417024ea/mcpcore/lint/internal/defs"
	"github.com/seed417024ea/mcpcore/lint/internal/mcpapi"
	"github.com/seed417024ea/mcpcore/lint/internal/suppress"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// checkCodes reports the codes that can reach the handler's returns and
// that its contract does not declare (conformance), and those ctx.FailFrom
// passes on without mapping them to an entry (failfrom-unmapped).
func checkCodes(pass *analysis.Pass, ds *suppress.Directives, d *defs.Def, body *ast.BlockStmt, flow *carry, es []declaredEntry) {
	branched := branchedOn(pass.TypesInfo, body)
	type key struct {
		at   *ast.CallExpr
		code mcperr.Code
	}
	done := map[key]bool{}
	for _, it := range flow.items {
		if it.code == 0 || slices.Contains(baseline, it.code) || branched[int64(it.code)] {
			continue
		}
		at := it.site
		if it.unmapped != nil {
			at = it.unmapped
		}
		k := key{at, it.code}
		if done[k] {
			continue
		}
		declared := withCode(es, it.code)
		switch {
		case len(declared) == 0:
			done[k] = true
			passed := ""
			if it.unmapped != nil {
				pos := pass.Fset.Position(it.site.Pos())
				passed = fmt.Sprintf("; this %s passes it on unchanged (it comes in at %s:%d, and no entry given has that code)", types.ExprString(it.unmapped.Fun), filepath.Base(pos.Filename), pos.Line)
			}
			ds.Report(pass, "error-contract-conformance", at, fmt.Sprintf(
				"%s can return %s%s, which its contract does not declare (nor is it a baseline code: InternalError, ServiceUnavailable, Timeout, ValidationError, SerializationError, MissingClientCapability)%s; declare a failure with that code, or map the error to a declared one",
				d.Label(), it.code, through(it), passed), nil)
		case it.unmapped != nil && (it.reason == "" || !slices.ContainsFunc(declared, func(e declaredEntry) bool { return e.reason == it.reason })):
			done[k] = true
			ds.Report(pass, "error-contract-failfrom-unmapped", at, unmappedMessage(it, declared, len(it.unmapped.Args) == 1), nil)
		}
	}
}

// through says where an item comes from, for a message.
func through(it item) string {
	if it.via == "" {
		return ""
	}
	s := " through " + it.via
	if it.origin != "" && it.origin != it.via {
		s += " (raised in " + it.origin + ")"
	}
	if it.cond != "" {
		s += " if " + it.cond
	}
	return s
}

// unmappedMessage says why ctx.FailFrom lets a declared code out without
// its entry: no entry given has it, or several do.
func unmappedMessage(it item, declared []declaredEntry, whole bool) string {
	call := types.ExprString(it.unmapped.Fun)
	quote := func(es []declaredEntry) string {
		var rs []string
		for _, e := range es {
			rs = append(rs, fmt.Sprintf("%q", e.reason))
		}
		return strings.Join(rs, ", ")
	}
	switch {
	case whole:
		return fmt.Sprintf(
			"%s%s reaches %s, which without entries searches the whole contract; the contract declares that code %d times (%s), so it maps to none and goes out without a reason or recovery: pass the entry to choose",
			it.code, through(it), call, len(declared), quote(declared))
	case len(it.ambiguous) > 1:
		return fmt.Sprintf(
			"%s%s reaches %s, which is given %d entries with that code (%s) and so maps it to none: it goes out without a reason or recovery; pass only the entry meant",
			it.code, through(it), call, len(it.ambiguous), quote(it.ambiguous))
	}
	return fmt.Sprintf(
		"%s%s reaches %s, which is given no entry with that code: it goes out unmapped, without the reason and recovery the contract declares for it (%s); pass that entry to it",
		it.code, through(it), call, quote(declared))
}

// branchedOn returns the codes body compares with or switches on (mcperr
// constants in ==, != and case clauses): a handler that looks at a code
// handles it.
func branchedOn(info *types.Info, body *ast.BlockStmt) map[int64]bool {
	codes := map[int64]bool{}
	note := func(e ast.Expr) {
		if tv, ok := info.Types[e]; ok && tv.Value != nil && isCodeType(tv.Type) {
			if c, ok := constInt(tv); ok {
				codes[c] = true
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if n.Op == token.EQL || n.Op == token.NEQ {
				note(n.X)
				note(n.Y)
			}
		case *ast.CaseClause:
			for _, e := range n.List {
				note(e)
			}
		}
		return true
	})
	return codes
}

func isCodeType(t types.Type) bool { return mcpapi.IsNamed(t, mcpapi.ErrPath, "Code") }

func constInt(tv types.TypeAndValue) (int64, bool) {
	if tv.Value.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(tv.Value)
}
