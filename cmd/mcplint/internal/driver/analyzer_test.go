package driver_test

import (
	"errors"
	"fmt"
	"go/ast"
	"go/types"
	"os"
	"strings"
	"sync"

	"github.com/seed417024ea/mcpcore/cmd/mcplint/internal/driver"
	"github.com/seed417024ea/mcpcore/lint"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// testTool runs testAnalyzer, whose messages name the two rules below.
var testTool = driver.Tool{
	Analyzers: []*analysis.Analyzer{testAnalyzer},
	Rules: []lint.Rule{
		{ID: "test-error", Level: lint.Error, Catches: "a function marked lint:error or lint:nofix"},
		{ID: "test-warning", Level: lint.Warning, Catches: "a function marked otherwise, or a call to one marked lint:error"},
	},
	Level: func(message string) lint.Level {
		if strings.HasPrefix(message, "test-warning:") {
			return lint.Warning
		}
		return lint.Error
	},
}

// testAnalyzer reports the functions whose doc comment has a line
// "lint:<mark>", and the calls to functions marked lint:error, which it
// knows across packages by a fact, as the real analyzers know services.
// It reports in reverse order of the source, so that the tests see the
// driver sort.
//
//	lint:error     test-error, fixed by marking it lint:fixed and adding a
//	               badly spaced statement, which the driver must gofmt
//	lint:warning   test-warning, fixed by marking it lint:fixed
//	lint:nofix     test-error, with no fix
//	lint:conflict  two test-warnings, whose fixes rewrite the same comment
//	lint:same      two test-warnings, whose fixes are the same edit
var testAnalyzer = &analysis.Analyzer{
	Name:      "testlint",
	Doc:       "reports functions marked in their doc comment, and calls to those marked lint:error",
	FactTypes: []analysis.Fact{new(markedFact)},
	Run:       runTestAnalyzer,
}

// markedFact marks a function marked lint:error. Its field is exported
// because vet passes facts between packages gob-encoded.
type markedFact struct{ Mark string }

func (*markedFact) AFact()           {}
func (f *markedFact) String() string { return "marked " + f.Mark }

func runTestAnalyzer(pass *analysis.Pass) (any, error) {
	// Export the facts first, so that calls within a package see them.
	for _, file := range pass.Files {
		for _, decl := range file.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok {
				if mark, _ := marker(fd); mark == "error" {
					pass.ExportObjectFact(pass.TypesInfo.Defs[fd.Name], &markedFact{Mark: mark})
				}
			}
		}
	}
	for i := len(pass.Files) - 1; i >= 0; i-- {
		file := pass.Files[i]
		for j := len(file.Decls) - 1; j >= 0; j-- {
			fd, ok := file.Decls[j].(*ast.FuncDecl)
			if !ok {
				continue
			}
			reportCalls(pass, fd)
			reportMark(pass, fd)
		}
	}
	return nil, nil
}

// testRuleURL is where testAnalyzer's rules are documented, by ID.
const testRuleURL = "https://example.com/testlint#"

// marker returns the mark of fd's doc comment and its comment line.
func marker(fd *ast.FuncDecl) (string, *ast.Comment) {
	if fd.Doc == nil {
		return "", nil
	}
	for _, c := range fd.Doc.List {
		if mark, ok := strings.CutPrefix(c.Text, "// lint:"); ok {
			return mark, c
		}
	}
	return "", nil
}

func reportMark(pass *analysis.Pass, fd *ast.FuncDecl) {
	mark, c := marker(fd)
	remark := func(msg, to string, extra ...analysis.TextEdit) analysis.SuggestedFix {
		edits := append([]analysis.TextEdit{{Pos: c.Pos(), End: c.End(), NewText: []byte("// lint:" + to)}}, extra...)
		return analysis.SuggestedFix{Message: msg, TextEdits: edits}
	}
	// Each links to its rule's documentation, as mcplint's analyzers do,
	// and names the rule as its category; the calls below do neither.
	report := func(msg string, fixes ...analysis.SuggestedFix) {
		rule, _, _ := strings.Cut(msg, ":")
		pass.Report(analysis.Diagnostic{Pos: fd.Name.Pos(), Category: rule, URL: testRuleURL + rule, Message: msg, SuggestedFixes: fixes})
	}
	name := fd.Name.Name
	switch mark {
	case "error":
		// Inserted right after the brace, badly spaced: gofmt must fix it.
		stmt := analysis.TextEdit{Pos: fd.Body.Lbrace + 1, End: fd.Body.Lbrace + 1, NewText: []byte("\n\t\t_ =   0")}
		report("test-error: "+name+" is marked error", remark("unmark", "fixed", stmt))
	case "warning":
		report("test-warning: "+name+" is marked warning", remark("unmark", "fixed"))
	case "nofix":
		report("test-error: " + name + " is marked nofix")
	case "conflict":
		report("test-warning: "+name+" second of two", remark("two", "two"))
		report("test-warning: "+name+" first of two", remark("one", "one"))
	case "same":
		report("test-warning: "+name+" second of two", remark("unmark", "fixed"))
		report("test-warning: "+name+" first of two", remark("unmark", "fixed"))
	}
}

func reportCalls(pass *analysis.Pass, fd *ast.FuncDecl) {
	if fd.Body == nil {
		return
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fn, ok := typeutil.Callee(pass.TypesInfo, call).(*types.Func)
		if ok && pass.ImportObjectFact(fn, new(markedFact)) {
			pass.Report(analysis.Diagnostic{
				Pos:     call.Pos(),
				Message: fmt.Sprintf("test-warning: call to marked function %s.%s", fn.Pkg().Name(), fn.Name()),
			})
		}
		return true
	})
}

// touchAnalyzer appends a newline to the file name once, while the
// analysis runs, as an editor might between the load and the fix.
func touchAnalyzer(name string) *analysis.Analyzer {
	var once sync.Once
	return &analysis.Analyzer{
		Name: "touch",
		Doc:  "appends a newline to a file",
		Run: func(pass *analysis.Pass) (any, error) {
			var err error
			once.Do(func() {
				var f *os.File
				if f, err = os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0); err == nil {
					_, err = f.WriteString("\n")
					err = errors.Join(err, f.Close())
				}
			})
			return nil, err
		},
	}
}

// packageAnalyzer reports every package it analyzes, at its first file's
// package clause.
var packageAnalyzer = &analysis.Analyzer{
	Name: "package",
	Doc:  "reports each package",
	Run: func(pass *analysis.Pass) (any, error) {
		pass.Reportf(pass.Files[0].Package, "test-warning: package %s", pass.Pkg.Path())
		return nil, nil
	},
}
