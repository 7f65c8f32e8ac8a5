package contract

import (
	"fmt"
	"go/ast"
	"go/token"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/seed417024ea/mcpcore/lint/internal/defs"
	"github.com/seed417024ea/mcpcore/lint/internal/mcpapi"
	"github.com/seed417024ea/mcpcore/lint/internal/suppress"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// Analyzer checks error contract entries and contracts.
var Analyzer = &analysis.Analyzer{
	Name:     "mcpcontract",
	Doc:      "check the structure of mcpcore error contracts",
	URL:      "https://pkg.go.dev/github.com/seed417024ea/mcpcore/lint/contract",
	Requires: []*analysis.Analyzer{inspect.Analyzer, defs.Analyzer},
	Run:      run,
}

// snakeCase is the form a reason must have.
var snakeCase = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// minWords is the fewest words a Recovery may have.
const minWords = 5

// placeholders are recoveries that tell the reader nothing, whatever their
// length, compared lower-cased without the final period.
var placeholders = map[string]bool{
	"try again": true, "try again later": true, "please try again": true, "please try again later": true,
	"retry": true, "retry later": true, "check input": true, "check the input": true, "check your input": true,
	"fix the input": true, "contact support": true, "contact the administrator": true, "see logs": true,
	"todo": true, "tbd": true, "n/a": true, "none": true,
}

func run(pass *analysis.Pass) (any, error) {
	res := pass.ResultOf[defs.Analyzer].(*defs.Result)
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	ds := suppress.Read(pass)
	ds.ReportUnreasoned(pass)

	reasons := map[string]int{} // every constant reason of the package
	renames := map[string]int{} // the snake_case spellings the fixes would give
	var failures []*mcpapi.Failure
	ins.Preorder([]ast.Node{(*ast.CompositeLit)(nil)}, func(n ast.Node) {
		// Failure{} is a zero value (a "none" result), not a declaration.
		if f := mcpapi.ReadFailure(pass.TypesInfo, n.(*ast.CompositeLit)); f != nil && len(f.Lit.Elts) > 0 {
			failures = append(failures, f)
			if f.Const["Reason"] {
				reasons[f.Reason]++
				if !snakeCase.MatchString(f.Reason) {
					renames[snake(f.Reason)]++
				}
			}
		}
	})
	taken := func(name string) bool { return reasons[name] > 0 || renames[name] > 1 }
	for _, f := range failures {
		checkEntry(pass, ds, f, taken)
	}
	reported := map[ast.Node]bool{} // an element of a contract shared by definitions
	for _, d := range res.Defs {
		checkContract(pass, ds, d, taken, reported)
	}
	return nil, nil
}

// checkEntry checks one Failure literal.
func checkEntry(pass *analysis.Pass, ds *suppress.Directives, f *mcpapi.Failure, taken func(string) bool) {
	c := &entryCheck{pass: pass, ds: ds, f: f, name: "a Failure"}
	if f.Reason != "" {
		c.name = fmt.Sprintf("Failure %q", f.Reason)
	}
	c.code()
	c.reason(taken)
	c.when()
	c.recovery()
	c.severity()
}

// An entryCheck checks the fields of one Failure literal, named name in
// the findings.
type entryCheck struct {
	pass *analysis.Pass
	ds   *suppress.Directives
	f    *mcpapi.Failure
	name string
}

// at is where a finding about field stands: its value, or the literal
// when the field is not set.
func (c *entryCheck) at(field string) ast.Node {
	if e, ok := c.f.Fields[field]; ok {
		return e
	}
	return c.f.Lit
}

func (c *entryCheck) report(rule string, node ast.Node, fixes []analysis.SuggestedFix, format string, args ...any) {
	c.ds.Report(c.pass, rule, node, fmt.Sprintf(format, args...), fixes, c.f.Lit)
}

// code checks that the Code is set, and to a code that says what failed.
func (c *entryCheck) code() {
	f := c.f
	_, hasCode := f.Fields["Code"]
	switch {
	case !hasCode:
		c.report("error-contract-code-unknown", f.Lit, nil, "%s has no Code; set one of the mcperr.Code constants", c.name)
	case f.Const["Code"] && f.Code == mcperr.CodeUnknownError:
		c.report("error-contract-code-unknown-error", c.at("Code"), nil, "%s declares CodeUnknownError, a give-up code; declare the code that says what failed", c.name)
	case f.Const["Code"] && !f.Code.Known():
		c.report("error-contract-code-unknown", c.at("Code"), nil, "%s has code %d, which is not an mcperr code; use an mcperr.Code constant", c.name, int32(f.Code))
	}
}

// reason checks that the Reason is set, in snake_case.
func (c *entryCheck) reason(taken func(string) bool) {
	f := c.f
	_, hasReason := f.Fields["Reason"]
	switch {
	case !hasReason || f.Const["Reason"] && f.Reason == "":
		c.report("error-contract-reason-required", c.at("Reason"), nil, "a Failure has no Reason; name the failure in snake_case, such as no_match")
	case f.Const["Reason"] && !snakeCase.MatchString(f.Reason):
		c.report("error-contract-reason-format", c.at("Reason"), renameFix(f, taken),
			"reason %q is not snake_case; rename it %q", f.Reason, snake(f.Reason))
	}
}

// when checks that the When is set.
func (c *entryCheck) when() {
	f := c.f
	if _, ok := f.Fields["When"]; !ok || f.Const["When"] && strings.TrimSpace(f.When) == "" {
		c.report("error-contract-when-required", c.at("When"), nil, "%s has no When; say when the failure happens, in a sentence", c.name)
	}
}

// recovery checks that the Recovery is set, and names a next move in
// words enough, not a placeholder.
func (c *entryCheck) recovery() {
	f := c.f
	_, hasRecovery := f.Fields["Recovery"]
	if !hasRecovery || f.Const["Recovery"] && strings.TrimSpace(f.Recovery) == "" {
		c.report("error-contract-recovery-required", c.at("Recovery"), nil, "%s has no Recovery; tell the caller its next move", c.name)
		return
	}
	if !f.Const["Recovery"] {
		return
	}
	words := len(strings.Fields(f.Recovery))
	if placeholders[strings.TrimRight(strings.ToLower(strings.TrimSpace(f.Recovery)), ".!")] {
		c.report("error-contract-recovery-min-words", c.at("Recovery"), nil,
			"%s has the placeholder Recovery %q; name a capability the caller can use next, such as another tool of this server", c.name, f.Recovery)
	} else if words < minWords {
		c.report("error-contract-recovery-min-words", c.at("Recovery"), nil,
			"%s has a Recovery of %d word(s), %q; write at least %d words that name the caller's next move", c.name, words, f.Recovery, minWords)
	}
}

// severity checks that a constant Severity is one of the levels.
func (c *entryCheck) severity() {
	if !c.f.Const["Severity"] {
		return
	}
	switch c.f.Severity {
	case "", "debug", "info", "notice", "warning", "error":
	default:
		c.report("error-contract-severity-level", c.at("Severity"), nil,
			"%s has severity %q; use debug, info, notice, warning or error (an mcpcore.Severity constant)", c.name, c.f.Severity)
	}
}

// checkContract checks the Errors of one definition.
func checkContract(pass *analysis.Pass, ds *suppress.Directives, d *defs.Def, taken func(string) bool, reported map[ast.Node]bool) {
	if d.Errors == nil || !d.ErrorsKnown {
		return
	}
	for _, e := range d.Entries {
		// A zero entry ({} in Errors) is checked here, since it is not
		// checked as a value.
		if e.Failure != nil && len(e.Failure.Lit.Elts) == 0 && !reported[e.Expr] {
			reported[e.Expr] = true
			checkEntry(pass, ds, e.Failure, taken)
		}
	}
	if len(d.Entries) == 0 {
		ds.Report(pass, "error-contract-empty", d.Errors,
			fmt.Sprintf("%s declares an empty Errors; declare its failures, or drop the field", d.Label()), nil)
		return
	}
	seen := map[string]bool{}
	for _, e := range d.Entries {
		if e.Failure == nil || !e.Failure.Const["Reason"] || e.Failure.Reason == "" {
			continue
		}
		if seen[e.Failure.Reason] && !reported[e.Expr] {
			reported[e.Expr] = true
			ds.Report(pass, "error-contract-reason-unique", e.Expr,
				fmt.Sprintf("reason %q is declared twice in %s; rename or merge the entries", e.Failure.Reason, d.Label()), nil, e.Failure.Lit)
		}
		seen[e.Failure.Reason] = true
	}
}

// renameFix renames a reason written as a string literal to its snake_case
// spelling, unless that name is taken: already a reason of the package, or
// the new name of another reason too.
func renameFix(f *mcpapi.Failure, taken func(string) bool) []analysis.SuggestedFix {
	lit, ok := f.Fields["Reason"].(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return nil
	}
	to := snake(f.Reason)
	if !snakeCase.MatchString(to) || taken(to) {
		return nil
	}
	return []analysis.SuggestedFix{{
		Message:   fmt.Sprintf("Rename reason %q to %q", f.Reason, to),
		TextEdits: []analysis.TextEdit{{Pos: lit.Pos(), End: lit.End(), NewText: []byte(strconv.Quote(to))}},
	}}
}

// snake spells a name in snake_case: "NoMatch" and "no-match" are
// "no_match".
func snake(s string) string {
	var b strings.Builder
	prev := '_'
	rs := []rune(strings.TrimSpace(s))
	for i, r := range rs {
		switch {
		case unicode.IsUpper(r):
			next := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if prev != '_' && (unicode.IsLower(prev) || unicode.IsDigit(prev) || next) {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
			prev = unicode.ToLower(r)
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
			prev = r
		default:
			if prev != '_' {
				b.WriteByte('_')
				prev = '_'
			}
		}
	}
	return strings.Trim(b.String(), "_")
}
