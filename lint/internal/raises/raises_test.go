package raises_test

import (
	"go/ast"
	"go/types"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/seed417024ea/mcpcore/lint/internal/raises"
)

// TestFacts asserts the facts of functions and Failure variables, across
// three packages: a handler in a, a service in b, a helper in c.
func TestFacts(t *testing.T) {
	analysistest.Run(t, testdata(t), raises.Analyzer, "a", "b", "c")
}

// TestResult asserts what an analyzer that requires raises.Analyzer gets
// from its Result: summaries of func literals and named handlers, the call
// site of each code, and the entries ctx.Fail is given.
func TestResult(t *testing.T) {
	analysistest.Run(t, testdata(t), probe, "h")
}

// probe reports what raises says of each handler, the position of each of
// their codes, and the entry of each ctx.Fail.
var probe = &analysis.Analyzer{
	Name:     "probe",
	Doc:      "report what raises says of handlers",
	Requires: []*analysis.Analyzer{raises.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[raises.Analyzer].(*raises.Result)
		report := func(n ast.Node, rs *raises.Raises, prefix string) {
			pass.Reportf(n.Pos(), "%s: %s", prefix, rs)
			for _, c := range rs.Codes {
				if c.Pos().IsValid() {
					pass.Reportf(c.Pos(), "code %s", c)
				}
			}
		}
		for _, f := range pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.KeyValueExpr:
					if id, ok := n.Key.(*ast.Ident); !ok || id.Name != "Handler" {
						return true
					}
					switch v := n.Value.(type) {
					case *ast.FuncLit:
						report(v, raises.Of(pass, v), "handler")
					case *ast.Ident, *ast.SelectorExpr:
						id, ok := v.(*ast.Ident)
						if !ok {
							id = v.(*ast.SelectorExpr).Sel
						}
						if fn, ok := pass.TypesInfo.Uses[id].(*types.Func); ok {
							pass.Reportf(v.Pos(), "named handler: %s", res.Func(fn))
						}
					}
				case *ast.FuncDecl:
					if strings.HasPrefix(n.Name.Name, "handle") {
						report(n, res.Of(n), "handler")
					}
				case *ast.CallExpr:
					if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Fail" {
						pass.Reportf(n.Pos(), "entry %s", res.Entry(n.Args[0]))
					}
				}
				return true
			})
		}
		return nil, nil
	},
}

// TestConcurrentQueries has two analyzers ask one Result about every func
// literal, function and entry of a package at the same time, as rule
// analyzers that require raises do; run it with -race.
func TestConcurrentQueries(t *testing.T) {
	query := func(name string) *analysis.Analyzer {
		return &analysis.Analyzer{
			Name:     name,
			Doc:      "query every node of the package",
			Requires: []*analysis.Analyzer{raises.Analyzer},
			Run: func(pass *analysis.Pass) (any, error) {
				res := pass.ResultOf[raises.Analyzer].(*raises.Result)
				for range 20 {
					for _, f := range pass.Files {
						ast.Inspect(f, func(n ast.Node) bool {
							switch n := n.(type) {
							case *ast.FuncLit, *ast.FuncDecl:
								_ = res.Of(n).String()
							case *ast.Ident:
								switch obj := pass.TypesInfo.Uses[n].(type) {
								case *types.Func:
									_ = res.Func(obj).String()
								case *types.Var:
									_ = res.Failure(obj)
									_ = res.Entry(n)
								}
							}
							return true
						})
					}
				}
				return nil, nil
			},
		}
	}
	both := &analysis.Analyzer{
		Name:     "both",
		Doc:      "require two queriers",
		Requires: []*analysis.Analyzer{query("q1"), query("q2")},
		Run:      func(*analysis.Pass) (any, error) { return nil, nil },
	}
	analysistest.Run(t, testdata(t), both, "race")
}

// testdata is the stub tree the analyzers of lint share.
func testdata(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}
