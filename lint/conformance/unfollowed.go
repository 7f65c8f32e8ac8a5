package conformance

import (
	"fmt"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/seed417024ea/mcpcore/lint/internal/defs"
	"github.com/seed417024ea/mcpcore/lint/internal/suppress"
)

// unfollowedValues says, at info level, where a definition's errors can
// come from a function value whose functions mcplint cannot tell (a map
// element, a helper of another package's result), once per value and
// function: the checks that judge by absence are skipped for it, and the
// author should know why rather than read the silence as a pass.
func unfollowedValues(pass *analysis.Pass, ds *suppress.Directives, d *defs.Def, flow *carry, seen map[string]bool) {
	for _, u := range flow.unfollowed {
		key := u.what + "\x00" + u.origin
		if seen[key] || u.site == nil {
			continue
		}
		seen[key] = true
		where := "the handler"
		if u.origin != "" {
			where = u.origin
			if u.via != u.origin {
				where += " (through " + u.via + ")"
			}
		}
		ds.Report(pass, "error-contract-unanalyzable", u.site, fmt.Sprintf(
			"%s calls the function value %s, which mcplint cannot follow to the functions it holds; what its errors carry is not known, and the unthrown check is skipped for %s: keep the function in a variable, a field set in its package, or a helper's result, or name it",
			where, strings.TrimSpace(u.what), d.Label()), nil)
	}
}
