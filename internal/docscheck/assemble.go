package docscheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"slices"
	"strings"
)

// Imports maps the package names a fragment may use without importing them
// to their import paths. A fragment that needs another package is written
// as a whole file, with its own imports.
var Imports = map[string]string{
	"mcpcore":   "github.com/seed417024ea/mcpcore",
	"mcperr":    "github.com/seed417024ea/mcpcore/mcperr",
	"mcptest":   "github.com/seed417024ea/mcpcore/mcptest",
	"mcpclient": "github.com/seed417024ea/mcpcore/mcpclient",
	"mcp":       "github.com/modelcontextprotocol/go-sdk/mcp",
	"auth":      "github.com/modelcontextprotocol/go-sdk/auth",
	"otel":      "go.opentelemetry.io/otel",
	"context":   "context",
	"errors":    "errors",
	"fmt":       "fmt",
	"http":      "net/http",
	"io":        "io",
	"json":      "encoding/json",
	"os":        "os",
	"slices":    "slices",
	"slog":      "log/slog",
	"strings":   "strings",
	"testing":   "testing",
	"time":      "time",
}

// Files lays out the Go blocks and go:context comments of pages as the
// files of a module: one package per page for its declarations, bodies and
// contexts, one per whole-file block. It returns the files' contents by
// path (with slashes) from the module's root.
func Files(blocks []Block, contexts []Context) map[string]string {
	files := map[string]string{}
	for _, c := range contexts {
		dir := pkgName(c.Page)
		files[fmt.Sprintf("%s/context_l%d.go", dir, c.Line)] = fragment(dir, c.Page, c.Line, c.Code, "")
	}
	for _, b := range blocks {
		if b.Lang != "go" {
			continue
		}
		dir := pkgName(b.Page)
		switch {
		case b.Body == "" && wholeFile(b.Code):
			files[fmt.Sprintf("%s_l%d/block.go", dir, b.Line)] = lineDirective(b.Page, b.Line) + b.Code + "\n"
		default:
			files[fmt.Sprintf("%s/block_l%d.go", dir, b.Line)] = fragment(dir, b.Page, b.Line, b.Code, b.Body)
		}
	}
	return files
}

// pkgName is the name of a page's package: its file name without the
// extension, in lower case, with every character that is not a letter or a
// digit as an underscore (docs/errors-and-contracts.md: errors_and_contracts).
func pkgName(page string) string {
	name := strings.ToLower(strings.TrimSuffix(path.Base(page), path.Ext(page)))
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, name)
}

// wholeFile reports whether code is a Go file of its own: its first line
// that is neither blank nor a // comment is a package clause.
func wholeFile(code string) bool {
	for line := range strings.SplitSeq(code, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "//") {
			continue
		}
		return strings.HasPrefix(line, "package ")
	}
	return false
}

// fragment is the file of one fragment in the package pkg: declarations, or
// with a signature, the statements of a function's body, after the imports
// of the packages it names and a //line directive that maps it to its page.
func fragment(pkg, page string, line int, code, sig string) string {
	var src string
	if sig == "" {
		src = lineDirective(page, line) + code + "\n"
	} else {
		src = "func _" + strings.TrimPrefix(sig, "func") + " {\n" + lineDirective(page, line) + code + "\n}\n"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "package %s\n\n", pkg)
	for _, p := range importsOf(src) {
		fmt.Fprintf(&b, "import %q\n", p)
	}
	b.WriteString("\n" + src)
	return b.String()
}

// lineDirective makes the compiler report the next line as line of page.
func lineDirective(page string, line int) string {
	return fmt.Sprintf("//line %s:%d\n", page, line)
}

// importsOf returns the import paths of the packages of [Imports] that src,
// a list of declarations, uses as the left of a selector (fmt.Println) and
// does not declare itself. Source that does not parse imports nothing: the
// compiler then reports the syntax error at its page and line.
func importsOf(src string) []string {
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	declared := map[string]bool{}
	used := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if id, ok := n.X.(*ast.Ident); ok {
				used[id.Name] = true
			}
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						declared[id.Name] = true
					}
				}
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				declared[id.Name] = true
			}
		case *ast.Field:
			for _, id := range n.Names {
				declared[id.Name] = true
			}
		case *ast.TypeSpec:
			declared[n.Name.Name] = true
		case *ast.FuncDecl:
			declared[n.Name.Name] = true
		}
		return true
	})
	var paths []string
	for name, p := range Imports {
		if used[name] && !declared[name] {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	return paths
}
