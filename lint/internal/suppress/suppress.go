// Package suppress reads //mcplint:ignore directives and reports findings
// that no directive silences.
//
// A directive names one rule and says why:
//
//	//mcplint:ignore error-contract-prefer-fail the service builds this error for other callers too
//
// It silences that rule on its own line (a trailing comment) and on the line
// below it, and, for a finding about a contract entry, on the entry's lines.
// A directive without a reason silences nothing and is itself a finding,
// mcplint-ignore-reason.
package suppress

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/seed417024ea/mcpcore/lint/internal/rules"
)

// Prefix starts a directive.
const Prefix = "//mcplint:ignore"

// A Directive is one //mcplint:ignore comment.
type Directive struct {
	Pos    token.Pos
	Rule   string
	Reason string
}

// Directives are the directives of a package, by file name and line.
type Directives struct {
	fset  *token.FileSet
	lines map[string]map[int][]Directive
	all   []Directive
}

// Read collects the directives of a package's files.
func Read(pass *analysis.Pass) *Directives {
	ds := &Directives{fset: pass.Fset, lines: map[string]map[int][]Directive{}}
	for _, f := range pass.Files {
		for _, group := range f.Comments {
			for _, c := range group.List {
				text, ok := strings.CutPrefix(c.Text, Prefix)
				if !ok || (text != "" && text[0] != ' ' && text[0] != '\t') {
					continue
				}
				// A comment after the directive's own (// want …, in
				// tests) is not part of its reason.
				text, _, _ = strings.Cut(text, "//")
				fields := strings.Fields(text)
				d := Directive{Pos: c.Pos()}
				if len(fields) > 0 {
					d.Rule = fields[0]
					d.Reason = strings.Join(fields[1:], " ")
				}
				p := pass.Fset.Position(c.Pos())
				if ds.lines[p.Filename] == nil {
					ds.lines[p.Filename] = map[int][]Directive{}
				}
				ds.lines[p.Filename][p.Line] = append(ds.lines[p.Filename][p.Line], d)
				ds.all = append(ds.all, d)
			}
		}
	}
	return ds
}

// Silenced reports whether a directive with a reason silences rule at any
// of the nodes: on a line a node spans, or on the line above its start.
func (ds *Directives) Silenced(rule string, nodes ...ast.Node) bool {
	for _, n := range nodes {
		if n == nil {
			continue
		}
		start, end := ds.fset.Position(n.Pos()), ds.fset.Position(n.End())
		for line := start.Line - 1; line <= end.Line; line++ {
			for _, d := range ds.lines[start.Filename][line] {
				if d.Rule == rule && d.Reason != "" {
					return true
				}
			}
		}
	}
	return false
}

// Report reports a finding of rule at node, unless a directive silences it
// there or at one of also (the contract entry the finding is about). The
// message is "<rule>: <message>", and the URL is the rule's documentation.
func (ds *Directives) Report(pass *analysis.Pass, rule string, node ast.Node, message string, fixes []analysis.SuggestedFix, also ...ast.Node) {
	if ds.Silenced(rule, append([]ast.Node{node}, also...)...) {
		return
	}
	pass.Report(analysis.Diagnostic{
		Pos:            node.Pos(),
		End:            node.End(),
		Category:       rule,
		Message:        rule + ": " + message,
		URL:            rules.URL(rule),
		SuggestedFixes: fixes,
	})
}

// ReportUnreasoned reports every directive that silences nothing: one that
// names no rule, a rule mcplint does not have (a typo would otherwise go
// unnoticed), or gives no reason. One analyzer of the suite calls it, so
// that each is reported once.
func (ds *Directives) ReportUnreasoned(pass *analysis.Pass) {
	for _, d := range ds.all {
		var msg string
		_, known := rules.ByID(d.Rule)
		switch {
		case d.Rule == "":
			msg = "//mcplint:ignore names no rule and gives no reason; write //mcplint:ignore <rule-id> <reason>"
		case !known:
			msg = fmt.Sprintf("//mcplint:ignore names %q, which is no mcplint rule, and silences nothing; check the rule ID (mcplint -help lists them)", d.Rule)
		case d.Reason == "":
			msg = "//mcplint:ignore " + d.Rule + " gives no reason; say why the rule does not apply here, after the rule ID"
		default:
			continue
		}
		const rule = "mcplint-ignore-reason"
		pass.Report(analysis.Diagnostic{Pos: d.Pos, Category: rule, Message: rule + ": " + msg, URL: rules.URL(rule)})
	}
}
