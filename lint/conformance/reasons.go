package conformance

import (
	"cmp"
	"fmt"
	"go/ast"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/seed417024ea/mcpcore/lint/internal/defs"
	"github.com/seed417024ea/mcpcore/lint/internal/raises"
	"github.com/seed417024ea/mcpcore/lint/internal/suppress"
)

// stampedReasons reports a reason that a service stamps on its errors
// (data.reason, mcpcore.RecoveryFor, or a helper's ctx.Fail already
// reported as undeclared aside) when no tool whose returns it reaches
// declares it: "upstream_unreachble" is a typo that reaches the wire. It
// is reported once per reason and service, at the first call that brings
// it in, naming the tools.
func stampedReasons(pass *analysis.Pass, ds *suppress.Directives, rs *raises.Result, all []*defs.Def, flows map[*defs.Def]*carry, failed map[string]bool) {
	callers, sites := stampers(pass, all, flows, failed)
	keys := make([]stamp, 0, len(callers))
	for k := range callers {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b stamp) int {
		return cmp.Or(position(pass, sites[a], sites[b]), cmp.Compare(a.reason, b.reason), cmp.Compare(a.origin, b.origin))
	})
	for _, k := range keys {
		names, undeclared := undeclaredBy(rs, callers[k], k.reason)
		if !undeclared {
			continue
		}
		ds.Report(pass, "error-contract-reason-undeclared", sites[k], fmt.Sprintf(
			"%s stamps reason %q on the errors it returns, and no definition whose handler they reach declares it (%s): the client gets a reason no published contract names; fix the reason, or declare it",
			k.origin, k.reason, strings.Join(names, ", ")), nil)
	}
}

// A stamp is a reason a service stamps on its errors.
type stamp struct{ reason, origin string }

// stampers finds, for each reason a service stamps (and no handler's own
// ctx.Fail already reported), the definitions whose returns it reaches and
// the first call that brings it in.
func stampers(pass *analysis.Pass, all []*defs.Def, flows map[*defs.Def]*carry, failed map[string]bool) (map[stamp][]*defs.Def, map[stamp]*ast.CallExpr) {
	callers := map[stamp][]*defs.Def{}
	sites := map[stamp]*ast.CallExpr{}
	for _, d := range all {
		flow := flows[d]
		if flow == nil {
			continue
		}
		for _, it := range slices.Concat(flow.items, flow.stamped) {
			if it.reason == "" || it.via == "" || failed[it.reason] {
				continue
			}
			k := stamp{it.reason, it.origin}
			if !slices.Contains(callers[k], d) {
				callers[k] = append(callers[k], d)
			}
			if s, ok := sites[k]; !ok || before(pass, it.site, s) {
				sites[k] = it.site
			}
		}
	}
	return callers, sites
}

// undeclaredBy names the callers, none of which declares reason;
// undeclared is false when one does, or when one's contract cannot be
// known.
func undeclaredBy(rs *raises.Result, callers []*defs.Def, reason string) (names []string, undeclared bool) {
	for _, d := range callers {
		es, known := entries(rs, d)
		if !known || !d.ErrorsKnown || slices.ContainsFunc(es, func(e declaredEntry) bool { return e.reason == reason }) {
			return nil, false
		}
		names = append(names, d.Label())
	}
	return names, true
}

// position compares where two calls stand by file name, then offset: the
// order of the files in the FileSet is the loader's, which may vary.
func position(pass *analysis.Pass, a, b ast.Node) int {
	pa, pb := pass.Fset.Position(a.Pos()), pass.Fset.Position(b.Pos())
	return cmp.Or(cmp.Compare(pa.Filename, pb.Filename), cmp.Compare(pa.Offset, pb.Offset))
}

func before(pass *analysis.Pass, a, b ast.Node) bool { return position(pass, a, b) < 0 }
