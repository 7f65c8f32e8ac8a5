// Package driver runs mcplint's analyzers, standalone or as a vet tool.
//
// Standalone, mcplint loads packages with golang.org/x/tools/go/packages,
// runs the analyzers with golang.org/x/tools/go/analysis/checker, prints
// each finding of the named packages as file:line:col: message, and fails
// by the level of the rule each message names: an error fails, a warning
// fails only with -strict. As a vet tool (go vet -vettool=...), it hands
// the command line to golang.org/x/tools/go/analysis/unitchecker, and every
// finding fails, as vet's convention is.
//
// The driver takes its analyzers and rules as a [Tool] rather than reading
// package lint itself, so that its tests run it on an analyzer of their own.
// It lives under cmd/mcplint, not lint/internal, because only the command
// uses it, and a package under lint/internal could not be imported there.
package driver

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/seed417024ea/mcpcore/lint"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/analysis/unitchecker"
	"golang.org/x/tools/go/packages"
)

// A Tool is what the driver runs.
type Tool struct {
	// Analyzers are run on every named package.
	Analyzers []*analysis.Analyzer
	// Rules are listed by -help, in their order.
	Rules []lint.Rule
	// Level gives a finding's level from its message. Nil makes every
	// finding an error.
	Level func(message string) lint.Level
}

// The exit statuses of the standalone command.
const (
	ExitClean    = 0 // nothing that fails: no finding, or warnings only
	ExitFindings = 1 // an error-level finding, or any finding with -strict
	ExitTrouble  = 2 // a usage error, a load or type error, a failed analyzer, or a fix that could not be written
)

// Main is the whole of mcplint's main function: it runs t on the process's
// command line and exits. Invoked by go vet (-V=full, -flags, or a .cfg
// file), it speaks vet's protocol through unitchecker, which exits 1 on any
// finding; otherwise it exits with [Tool.Run]'s status.
func Main(t Tool) {
	if isVetInvocation(os.Args[1:]) {
		unitchecker.Main(t.Analyzers...) // does not return
	}
	os.Exit(t.Run(os.Args[1:], os.Stdout, os.Stderr))
}

// isVetInvocation reports whether args come from go vet -vettool, which
// first asks the tool for its version (-V=full) and its flags (-flags),
// then runs it once per package with the flags it was given and the path
// of a JSON description of the package, ending in .cfg. multichecker
// tells the two modes apart the same way.
func isVetInvocation(args []string) bool {
	if len(args) == 0 {
		return false
	}
	if strings.HasSuffix(args[len(args)-1], ".cfg") {
		return true
	}
	for _, a := range args {
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && (name == "V" || name == "flags") {
			return true
		}
	}
	return false
}

// options are the standalone command's flags.
type options struct {
	fix    bool
	strict bool
	tests  bool
	tags   string
	json   bool
}

// Run runs t standalone on args (the command line without the program's
// name) from the current directory, prints findings to stdout and trouble
// to stderr, and returns the exit status: [ExitClean], [ExitFindings] or
// [ExitTrouble].
//
// Findings go to stdout because they are the command's output, to be piped
// or compared; what stops the run (usage, load and type errors) and notes
// about fixes go to stderr.
func (t Tool) Run(args []string, stdout, stderr io.Writer) int {
	opts, patterns, status, ok := t.parse(args, stdout, stderr)
	if !ok {
		return status
	}
	cwd, _ := os.Getwd() // to print files relative to it; "" prints them whole
	diags, status, ok := t.analyze(patterns, opts, cwd, stderr)
	if !ok {
		return ExitTrouble
	}
	if opts.fix {
		var fixed bool
		diags, fixed = applyFixes(diags, cwd, stderr)
		if !fixed {
			status = ExitTrouble
		}
	}
	return max(status, t.print(diags, opts, cwd, stdout, stderr))
}

// parse reads the command line: the options and the patterns, ./... when
// none is given. When ok is false, Run returns status (the help was
// asked for, or a flag is wrong).
func (t Tool) parse(args []string, stdout, stderr io.Writer) (opts options, patterns []string, status int, ok bool) {
	fs := flag.NewFlagSet("mcplint", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.BoolVar(&opts.fix, "fix", false, "apply the first suggested fix of each finding, gofmt the files it changes, and report only the findings left")
	fs.BoolVar(&opts.strict, "strict", false, "fail on warnings too, for CI")
	fs.BoolVar(&opts.tests, "test", false, "analyze the packages' test files too")
	fs.StringVar(&opts.tags, "tags", "", "comma-separated build tags, as for go build")
	fs.BoolVar(&opts.json, "json", false, "print the findings as JSON, one object a line, with each rule's level and documentation URL")
	// The flag package prints a bad flag's error; the help is printed
	// here, on stdout when asked for, since it is then the output.
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			t.usage(stdout, fs)
			return opts, nil, ExitClean, false
		}
		fmt.Fprintln(stderr, "Run mcplint -help for the flags and the rules.")
		return opts, nil, ExitTrouble, false
	}
	patterns = fs.Args()
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	return opts, patterns, ExitClean, true
}

// analyze loads the packages and runs the analyzers on them, returning
// the findings sorted, and ExitTrouble as status when an analyzer failed.
// ok is false when the packages did not load, or do not build.
func (t Tool) analyze(patterns []string, opts options, cwd string, stderr io.Writer) (diags []finding, status int, ok bool) {
	pkgs, err := load(patterns, opts, needFacts(t.Analyzers))
	if err != nil {
		fmt.Fprintf(stderr, "mcplint: %v\n", err)
		return nil, ExitTrouble, false
	}
	// The analyzers see only well-typed code: a finding on a package that
	// does not compile would be a guess, and the build error comes first.
	if errs := packageErrors(pkgs, cwd); len(errs) > 0 {
		for _, e := range errs {
			fmt.Fprintln(stderr, e)
		}
		fmt.Fprintf(stderr, "mcplint: %d error(s) loading the packages; mcplint analyzes only packages that build\n", len(errs))
		return nil, ExitTrouble, false
	}

	// With -test, the go command adds a main package per test binary,
	// generated in its cache: nothing of the user's to report there, and
	// analyzing it would run the analyzers over package testing and all
	// it imports.
	pkgs = dropTestMains(pkgs)
	graph, err := checker.Analyze(t.Analyzers, pkgs, nil)
	if err != nil {
		fmt.Fprintf(stderr, "mcplint: %v\n", err)
		return nil, ExitTrouble, false
	}
	status = ExitClean
	for _, act := range graph.Roots {
		if act.Err != nil {
			fmt.Fprintf(stderr, "mcplint: %s: %v\n", act, act.Err)
			status = ExitTrouble
			continue
		}
		for _, d := range act.Diagnostics {
			diags = append(diags, newFinding(act.Package, d))
		}
	}
	return sortFindings(diags), status, true
}

// print prints the findings, as text or JSON, and returns the status they
// give: ExitFindings for an error-level one (any one, with -strict),
// ExitTrouble when the JSON could not be written.
func (t Tool) print(diags []finding, opts options, cwd string, stdout, stderr io.Writer) int {
	status := ExitClean
	if opts.json {
		if err := printJSON(stdout, diags, cwd, t.level); err != nil {
			fmt.Fprintf(stderr, "mcplint: %v\n", err)
			status = ExitTrouble
		}
	}
	var errCount, warnCount int
	for _, d := range diags {
		if !opts.json {
			fmt.Fprintf(stdout, "%s: %s\n", d.where(cwd), d.Message)
		}
		switch t.level(d.Message) {
		case lint.Error:
			errCount++
		case lint.Warning:
			warnCount++
		}
	}
	if errCount > 0 || (opts.strict && warnCount > 0) {
		status = max(status, ExitFindings)
	}
	return status
}

// level is t.Level, or Error for every message when it is nil.
func (t Tool) level(message string) lint.Level {
	if t.Level == nil {
		return lint.Error
	}
	return t.Level(message)
}

// usage writes the help: how to run mcplint, its flags, its exit statuses
// and its rules.
func (t Tool) usage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, `mcplint checks mcpcore servers: each tool's and resource's error contract,
each handler against its contract, and handler bodies.

Usage:
  mcplint [flags] [packages]          from a module root; packages default to ./...
  go vet -vettool=$(which mcplint) [packages]

Each finding is printed as file:line:col: message, and each message begins
with the ID of its rule; with -json, as a JSON object a line, which gives
the address of the rule's documentation too.

Flags:
`)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
	fmt.Fprint(w, `
Exit status:
  0  no finding fails: none at all, or warnings only (printed all the same)
  1  an error-level finding, or any finding with -strict
  2  a usage error; packages that do not load or type-check; an analyzer
     that failed; or a fix that could not be written
With -fix, the findings whose fix was applied are neither printed nor
counted; those left (no fix, or a fix that overlaps another) are.

As a vet tool, mcplint follows vet's convention: every finding fails,
warnings too, and go vet exits 1. Vet analyzes test files as well.

Silence a finding with a comment on its line, or on the contract entry:
  //mcplint:ignore <rule-id> <reason>

Rules:
`)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range t.Rules {
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", r.ID, r.Level, r.Catches)
	}
	tw.Flush()
}

// load loads the packages matched by patterns from the current directory,
// with the syntax of every dependency when an analyzer uses facts, since
// the checker then runs it on the dependencies too.
func load(patterns []string, opts options, allSyntax bool) ([]*packages.Package, error) {
	mode := packages.LoadSyntax
	if allSyntax {
		mode = packages.LoadAllSyntax
	}
	mode |= packages.NeedModule | packages.NeedForTest // NeedForTest for dropTestMains
	cfg := &packages.Config{Mode: mode, Tests: opts.tests}
	if opts.tags != "" {
		cfg.BuildFlags = []string{"-tags=" + opts.tags}
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, err
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("%s matched no packages", strings.Join(patterns, " "))
	}
	return pkgs, nil
}

// dropTestMains drops the main packages the go command generates for test
// binaries: "p.test", for each package p that has a test variant.
func dropTestMains(pkgs []*packages.Package) []*packages.Package {
	tested := map[string]bool{}
	for _, p := range pkgs {
		if p.ForTest != "" {
			tested[p.ForTest] = true
		}
	}
	return slices.DeleteFunc(pkgs, func(p *packages.Package) bool {
		under, ok := strings.CutSuffix(p.ID, ".test")
		return ok && p.Name == "main" && tested[under]
	})
}

// packageErrors returns the errors of pkgs and of their dependencies
// (list, parse and type errors), each once, in a stable order, their
// files relative to cwd.
func packageErrors(pkgs []*packages.Package, cwd string) []string {
	var errs []string
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			errs = append(errs, s)
		}
	}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		typed := slices.ContainsFunc(p.Errors, func(e packages.Error) bool { return e.Kind != packages.ListError })
		for _, e := range p.Errors {
			// When the go command compiled the package for its export
			// data, it reports the compiler's output ("# path" and the
			// errors) as one more error: the same errors again, when
			// the package's own parse or type errors are there.
			if typed && e.Kind == packages.ListError && strings.HasPrefix(e.Msg, "# ") {
				continue
			}
			if e.Pos == "" || e.Pos == "-" {
				add(e.Msg)
			} else {
				add(relative(cwd, e.Pos) + ": " + e.Msg)
			}
		}
		if p.Module != nil && p.Module.Error != nil {
			add(p.Module.Error.Err)
		}
	})
	return errs
}

// needFacts reports whether an analyzer, or one it requires, uses facts.
func needFacts(analyzers []*analysis.Analyzer) bool {
	seen := map[*analysis.Analyzer]bool{}
	var visit func([]*analysis.Analyzer) bool
	visit = func(as []*analysis.Analyzer) bool {
		for _, a := range as {
			if seen[a] {
				continue
			}
			seen[a] = true
			if len(a.FactTypes) > 0 || visit(a.Requires) {
				return true
			}
		}
		return false
	}
	return visit(analyzers)
}

// A finding is a diagnostic with its resolved position.
type finding struct {
	analysis.Diagnostic
	fset *token.FileSet
	pos  token.Position
	pkg  string // the package's path, for a finding without a position
}

func newFinding(pkg *packages.Package, d analysis.Diagnostic) finding {
	return finding{Diagnostic: d, fset: pkg.Fset, pos: pkg.Fset.Position(d.Pos), pkg: pkg.PkgPath}
}

// where is the finding's file:line:col, the file relative to dir when it
// is under dir, so that the output is short and the same on every machine.
func (f finding) where(dir string) string {
	if !f.pos.IsValid() {
		return f.pkg
	}
	return fmt.Sprintf("%s:%d:%d", relative(dir, f.pos.Filename), f.pos.Line, f.pos.Column)
}

// relative returns name relative to dir when it is under dir, and name
// otherwise. The go command reports files by their real path, so dir is
// tried with its symbolic links resolved too (on macOS, /tmp is
// /private/tmp).
func relative(dir, name string) string {
	if dir == "" {
		return name
	}
	dirs := []string{dir}
	if real, err := filepath.EvalSymlinks(dir); err == nil && real != dir {
		dirs = append(dirs, real)
	}
	for _, d := range dirs {
		if rel, err := filepath.Rel(d, name); err == nil && filepath.IsLocal(rel) {
			return rel
		}
	}
	return name
}

// sortFindings sorts by file, position and message, and drops repeats:
// with -test a package is analyzed twice, alone and with its tests, and a
// finding in a shared file comes out of both.
func sortFindings(fs []finding) []finding {
	slices.SortStableFunc(fs, func(a, b finding) int {
		return cmp.Or(
			strings.Compare(a.pos.Filename, b.pos.Filename),
			cmp.Compare(a.pos.Line, b.pos.Line),
			cmp.Compare(a.pos.Column, b.pos.Column),
			strings.Compare(a.Message, b.Message),
			strings.Compare(a.pkg, b.pkg),
		)
	})
	return slices.CompactFunc(fs, func(a, b finding) bool {
		return a.pos == b.pos && a.Message == b.Message && (a.pos.IsValid() || a.pkg == b.pkg)
	})
}
