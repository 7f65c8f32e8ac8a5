// Command callpath counts the functions one MCP call runs: it builds a
// server with coverage counters, serves it over stdio for one call and
// then for two, and lists the functions whose counters grew between the
// two runs, that is the functions the second call ran. Functions that run
// once per process (start-up, the first call's lazy set-up) cancel out.
//
//	go run ./bench/callpath                       # examples/articles: echo and a declared failure
//	go run ./bench/callpath -v                    # and the functions, file by file
//	go run ./bench/callpath -C examples -pkg ./articles -tool echo -args '{"message":"hi"}'
//
// The counted packages are those of -cover (default: this module's); the
// count is of distinct functions, and of the distinct files they are in.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

func main() {
	mod := flag.String("C", "examples", "the module directory the server is built in")
	pkg := flag.String("pkg", "./articles", "the server's main package, in that module")
	cover := flag.String("cover", "github.com/seed417024ea/mcpcore/...", "the packages instrumented (-coverpkg); of them, examples, benchmarks and tools are not counted")
	tool := flag.String("tool", "", "the tool to call (default: echo, then fetch_articles' declared failure)")
	args := flag.String("args", `{"message":"hello"}`, "the call's arguments, as JSON")
	verbose := flag.Bool("v", false, "list the functions, by file")
	flag.Parse()

	dir, err := os.MkdirTemp("", "callpath")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "server")
	build := exec.Command("go", "-C", *mod, "build", "-cover", "-covermode=count", "-coverpkg="+*cover, "-o", bin, *pkg)
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		log.Fatalf("go build: %v", err)
	}
	calls := []struct{ name, tool, args string }{{"success", *tool, *args}}
	if *tool == "" {
		calls = []struct{ name, tool, args string }{
			{"success (echo)", "echo", `{"message":"hello"}`},
			{"declared failure (fetch_articles, no pmids)", "fetch_articles", `{"pmids":[]}`},
		}
	}
	for _, c := range calls {
		one := profile(dir, bin, c.tool, c.args, 1)
		two := profile(dir, bin, c.tool, c.args, 2)
		grown := grownBlocks(one, two)
		funcs, files := attribute(grown)
		fmt.Printf("%s: %d functions in %d files\n", c.name, len(funcs), len(files))
		if *verbose {
			for _, f := range funcs {
				fmt.Printf("\t%s\n", f)
			}
		}
	}
}

// profile runs the server for n calls of tool and returns its coverage
// profile in text form.
func profile(dir, bin, tool, args string, n int) []byte {
	covdir, err := os.MkdirTemp(dir, "cov")
	if err != nil {
		log.Fatal(err)
	}
	var in bytes.Buffer
	in.WriteString(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"callpath","version":"1"}}}` + "\n")
	in.WriteString(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`+"\n", i, tool, args)
	}
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "GOCOVERDIR="+covdir, "MCP_LOG_LEVEL=error")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		log.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		log.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		log.Fatal(err)
	}
	// Send one line at a time, each after the answer to the one before, so
	// that the runs differ by exactly one call.
	lines := strings.SplitAfter(in.String(), "\n")
	r := bufio.NewReader(stdout)
	for _, l := range lines {
		if l == "" {
			continue
		}
		if _, err := stdin.Write([]byte(l)); err != nil {
			log.Fatal(err)
		}
		if strings.Contains(l, `"id"`) {
			answer, err := r.ReadBytes('\n')
			if err != nil {
				log.Fatalf("reading the answer to %s: %v", l, err)
			}
			var m struct{ Error json.RawMessage }
			if json.Unmarshal(answer, &m) == nil && m.Error != nil {
				log.Fatalf("the server refused %s: %s", l, answer)
			}
		}
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		log.Fatalf("server: %v", err)
	}
	out := filepath.Join(dir, "profile-"+strconv.Itoa(n)+".txt")
	if b, err := exec.Command("go", "tool", "covdata", "textfmt", "-i="+covdir, "-o="+out).CombinedOutput(); err != nil {
		log.Fatalf("covdata: %v: %s", err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		log.Fatal(err)
	}
	return b
}

// A block is one counter of a profile: a file and its first line.
type block struct {
	file string
	line int
}

// grownBlocks returns the blocks of the counted packages whose count in two
// exceeds their count in one, in the order of the profile.
func grownBlocks(one, two []byte) []block {
	count := func(p []byte) (map[string]int, []string) {
		m := map[string]int{}
		var order []string
		for _, l := range strings.Split(string(p), "\n") {
			if l == "" || strings.HasPrefix(l, "mode:") {
				continue
			}
			i := strings.LastIndexByte(l, ' ')
			n, _ := strconv.Atoi(l[i+1:])
			k := l[:i]
			if _, ok := m[k]; !ok {
				order = append(order, k)
			}
			m[k] += n
		}
		return m, order
	}
	a, _ := count(one)
	b, order := count(two)
	var out []block
	for _, k := range order {
		if b[k] <= a[k] {
			continue
		}
		file, pos, _ := strings.Cut(k, ":")
		if !library(filepath.Dir(file)) {
			continue
		}
		line, _ := strconv.Atoi(pos[:strings.IndexByte(pos, '.')])
		out = append(out, block{file, line})
	}
	return out
}

// attribute names the function of each block, by parsing its file, and
// returns the distinct functions (sorted) and the distinct files.
func attribute(blocks []block) (funcs []string, files map[string]bool) {
	files = map[string]bool{}
	seen := map[string]bool{}
	decls := map[string][]*ast.FuncDecl{}
	fsets := map[string]*token.FileSet{}
	for _, b := range blocks {
		files[b.file] = true
		if _, ok := decls[b.file]; !ok {
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, sourcePath(b.file), nil, parser.SkipObjectResolution)
			if err != nil {
				log.Fatal(err)
			}
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok {
					decls[b.file] = append(decls[b.file], fd)
				}
			}
			fsets[b.file] = fset
		}
		name := filepath.Base(b.file) + ":?"
		for _, fd := range decls[b.file] {
			fs := fsets[b.file]
			if fs.Position(fd.Pos()).Line <= b.line && b.line <= fs.Position(fd.End()).Line {
				name = filepath.Dir(b.file) + "." + funcName(fd)
				break
			}
		}
		if !seen[name] {
			seen[name] = true
			funcs = append(funcs, name)
		}
	}
	sort.Strings(funcs)
	return funcs, files
}

// library reports whether a package is one of the library's: not an
// example, a benchmark, a command or the linter.
func library(pkg string) bool {
	rel, ok := strings.CutPrefix(pkg, "github.com/seed417024ea/mcpcore")
	if !ok {
		return false
	}
	for _, p := range []string{"/examples", "/bench", "/cmd", "/lint", "/interop"} {
		if strings.HasPrefix(rel, p) {
			return false
		}
	}
	return true
}

func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
			continue
		case *ast.IndexExpr:
			t = x.X
			continue
		case *ast.IndexListExpr:
			t = x.X
			continue
		}
		break
	}
	if id, ok := t.(*ast.Ident); ok {
		return "(" + id.Name + ")." + fd.Name.Name
	}
	return fd.Name.Name
}

// sourcePath finds the file of a profile's import-path file name.
var dirs = map[string]string{}

func sourcePath(file string) string {
	pkg := filepath.Dir(file)
	d, ok := dirs[pkg]
	if !ok {
		out, err := exec.Command("go", "list", "-f", "{{.Dir}}", pkg).Output()
		if err != nil {
			log.Fatalf("go list %s: %v", pkg, err)
		}
		d = strings.TrimSpace(string(out))
		dirs[pkg] = d
	}
	return filepath.Join(d, filepath.Base(file))
}
