package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// reportMain reads the JSON lines of runs (and, with -allocs, the output of
// go test -bench 'ToolCall|HTTPCall' -benchmem) and prints the markdown tables.
func reportMain(args []string) error {
	fs := flag.NewFlagSet("load report", flag.ContinueOnError)
	subject := fs.String("subject", "mcpcore", "the server measured")
	base := fs.String("base", "baseline", "the server it is measured against")
	allocs := fs.String("allocs", "", "output of go test -run '^$' -bench 'ToolCall|HTTPCall' -benchmem")
	pairsFlag := fs.String("pairs", "", "subject/base pairs to compare first, comma-separated (mcpcore/mcpgo,…)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	pairs, err := parsePairs(*pairsFlag)
	if err != nil {
		return err
	}
	var runs []result
	for _, path := range fs.Args() {
		rs, err := readResults(path)
		if err != nil {
			return err
		}
		runs = append(runs, rs...)
	}
	if len(runs) == 0 {
		return fmt.Errorf("no runs: give the files of JSON lines that load printed")
	}
	writeProtocols(os.Stdout, runs)
	if len(pairs) > 0 {
		writePeers(os.Stdout, runs, pairs)
	}
	writeReport(os.Stdout, runs, *subject, *base)
	if *allocs != "" {
		b, err := os.ReadFile(*allocs)
		if err != nil {
			return err
		}
		writeAllocs(os.Stdout, parseBench(string(b)))
	}
	return nil
}

// readResults reads the JSON lines of path; other lines are skipped.
func readResults(path string) ([]result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []result
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "{") {
			continue
		}
		var r result
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		out = append(out, r)
	}
	return out, sc.Err()
}

// cell names a configuration that both servers ran: transport (with its
// session mode, transportLabel), concurrency and mode.
type cell struct {
	Transport string
	C         int
	Mode      string
}

// table holds the runs by cell, server and pass.
type table map[cell]map[string]map[int]result

func index(runs []result) table {
	t := table{}
	for _, r := range runs {
		k := cell{r.transportLabel(), r.Concurrency, r.Mode}
		if t[k] == nil {
			t[k] = map[string]map[int]result{}
		}
		if t[k][r.Server] == nil {
			t[k][r.Server] = map[int]result{}
		}
		t[k][r.Server][r.Pass] = r
	}
	return t
}

// sortedCells orders cells by transport (transportOrder), then by
// concurrency, echo before error.
func (t table) sortedCells() []cell {
	var cs []cell
	for k := range t {
		cs = append(cs, k)
	}
	slices.SortFunc(cs, func(a, b cell) int {
		if c := compareTransports(a.Transport, b.Transport); c != 0 {
			return c
		}
		if a.C != b.C {
			return a.C - b.C
		}
		return strings.Compare(a.Mode, b.Mode)
	})
	return cs
}

// transportOrder is the order of the transports in the tables; any other
// comes after them, by name.
var transportOrder = []string{"stdio", "http", "http-stateless"}

func compareTransports(a, b string) int {
	rank := func(t string) int {
		if i := slices.Index(transportOrder, t); i >= 0 {
			return i
		}
		return len(transportOrder)
	}
	if c := rank(a) - rank(b); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

// transportsOf is the transports the runs used (transportLabel), in
// table order.
func transportsOf(runs []result) []string {
	var ts []string
	for _, r := range runs {
		if l := r.transportLabel(); !slices.Contains(ts, l) {
			ts = append(ts, l)
		}
	}
	slices.SortFunc(ts, compareTransports)
	return ts
}

// writeProtocols names the protocol version each transport agreed on,
// since a stateless server and a stateful one are asked for different
// ones (2026-07-28 has no sessions).
func writeProtocols(w io.Writer, runs []result) {
	var parts []string
	for _, tr := range transportsOf(runs) {
		var vs []string
		for _, r := range runs {
			if r.transportLabel() == tr && r.Protocol != "" && !slices.Contains(vs, r.Protocol) {
				vs = append(vs, r.Protocol)
			}
		}
		if len(vs) > 0 {
			slices.Sort(vs)
			parts = append(parts, tr+" "+strings.Join(vs, ", "))
		}
	}
	if len(parts) == 0 {
		return
	}
	fmt.Fprintf(w, "Protocol versions agreed: %s.", strings.Join(parts, "; "))
	if slices.ContainsFunc(runs, func(r result) bool { return r.Transport == "http" }) {
		fmt.Fprint(w, " http is Streamable HTTP with sessions (MCP_SESSION_MODE=stateful), http-stateless without (MCP_SESSION_MODE=stateless).")
	}
	fmt.Fprint(w, "\n\n")
}

// field is one measure of every pass of a server in a cell.
func field(byPass map[int]result, f func(result) float64) map[int]float64 {
	m := map[int]float64{}
	for p, r := range byPass {
		m[p] = f(r)
	}
	return m
}

func values(m map[int]float64) []float64 {
	var v []float64
	for _, x := range m {
		v = append(v, x)
	}
	return v
}

func cpu(r result) float64 { return r.CPUusPerCall }

func fmtSpread(s spread, prec int) string {
	if s.N == 0 {
		return "–"
	}
	return fmt.Sprintf("%.*f (%.*f–%.*f)", prec, s.Median, prec, s.Min, prec, s.Max)
}

func fmtMedian(xs []float64, prec int) string {
	s := spreadOf(xs)
	if s.N == 0 {
		return "–"
	}
	return strconv.FormatFloat(s.Median, 'f', prec, 64)
}

// path names a mode's path in the tables: the error path, or the success
// path of echo or, named, of another tool.
func path(mode string) string {
	m := callModes[mode]
	switch {
	case m.fails:
		return "error"
	case m.tool == "" || m.tool == "echo":
		return "success"
	}
	return "success (" + m.tool + ")"
}

// writeReport writes the tables: the paired CPU ratio, throughput and
// latency, the error/success ratio, memory.
func writeReport(w io.Writer, runs []result, subject, base string) {
	t := index(runs)
	passes := map[int]bool{}
	for _, r := range runs {
		passes[r.Pass] = true
	}
	fmt.Fprintf(w, "Server CPU per call (µs, median of %d passes) and the paired ratio %s/%s per pass: median (min–max).\n\n", len(passes), subject, base)
	fmt.Fprintf(w, "| transport | c | path | %s µs/call | %s µs/call | ratio median (min–max) |\n", subject, base)
	fmt.Fprintln(w, "|---|---:|---|---:|---:|---|")
	for _, k := range t.sortedCells() {
		a, b := field(t[k][subject], cpu), field(t[k][base], cpu)
		fmt.Fprintf(w, "| %s | %d | %s | %s | %s | %s |\n", k.Transport, k.C, path(k.Mode),
			fmtMedian(values(a), 1), fmtMedian(values(b), 1), fmtSpread(spreadOf(pairedRatios(a, b)), 2))
	}

	fmt.Fprintf(w, "\nThroughput and client-side latency (median of the passes).\n\n")
	fmt.Fprintf(w, "| transport | c | path | %[1]s calls/s | %[2]s calls/s | %[1]s p50 / p99 µs | %[2]s p50 / p99 µs |\n", subject, base)
	fmt.Fprintln(w, "|---|---:|---|---:|---:|---:|---:|")
	for _, k := range t.sortedCells() {
		row := []string{}
		for _, f := range []func(result) float64{func(r result) float64 { return r.CallsPerSec }} {
			row = append(row, fmtMedian(values(field(t[k][subject], f)), 0), fmtMedian(values(field(t[k][base], f)), 0))
		}
		for _, s := range []string{subject, base} {
			row = append(row, fmtMedian(values(field(t[k][s], func(r result) float64 { return r.P50us })), 0)+" / "+
				fmtMedian(values(field(t[k][s], func(r result) float64 { return r.P99us })), 0))
		}
		fmt.Fprintf(w, "| %s | %d | %s | %s |\n", k.Transport, k.C, path(k.Mode), strings.Join(row, " | "))
	}

	fmt.Fprintf(w, "\nError path ÷ success path, server CPU per call, paired per pass: median (min–max). The success path is echo's, or, with -mode fetch, fetch_articles' own: the error path's tool.\n\n")
	fmt.Fprintf(w, "| transport | c | success path | %s | %s |\n|---|---:|---|---|---|\n", subject, base)
	for _, k := range t.sortedCells() {
		m, ok := callModes[k.Mode]
		if !ok || m.fails {
			continue
		}
		e := cell{k.Transport, k.C, "error"}
		if t[e] == nil {
			continue
		}
		row := []string{}
		for _, s := range []string{subject, base} {
			row = append(row, fmtSpread(spreadOf(pairedRatios(field(t[e][s], cpu), field(t[k][s], cpu))), 2))
		}
		fmt.Fprintf(w, "| %s | %d | %s | %s |\n", k.Transport, k.C, m.tool, strings.Join(row, " | "))
	}

	fmt.Fprintf(w, "\nResident memory of the server (MiB, median over the runs): idle RSS once initialized, before any call, and its anonymous part (heap, stacks: RssAnon); peak (VmHWM) at the end of the run, median (max).\n\n")
	fmt.Fprintf(w, "| transport | %[1]s idle | %[2]s idle | %[1]s idle anon | %[2]s idle anon | %[1]s peak | %[2]s peak |\n|---|---:|---:|---:|---:|---:|---:|\n", subject, base)
	for _, tr := range transportsOf(runs) {
		var cells []string
		var any bool
		for _, f := range []func(result) float64{
			func(r result) float64 { return float64(r.IdleRSSKiB) / 1024 },
			func(r result) float64 { return float64(r.IdleAnonKiB) / 1024 },
		} {
			for _, s := range []string{subject, base} {
				var xs []float64
				for _, r := range runs {
					if r.transportLabel() == tr && r.Server == s {
						xs = append(xs, f(r))
						any = true
					}
				}
				cells = append(cells, fmtMedian(xs, 1))
			}
		}
		for _, s := range []string{subject, base} {
			var xs []float64
			for _, r := range runs {
				if r.transportLabel() == tr && r.Server == s {
					xs = append(xs, float64(r.PeakRSSKiB)/1024)
				}
			}
			sp := spreadOf(xs)
			if sp.N == 0 {
				cells = append(cells, "–")
			} else {
				cells = append(cells, fmt.Sprintf("%.1f (%.1f)", sp.Median, sp.Max))
			}
		}
		if any {
			fmt.Fprintf(w, "| %s | %s |\n", tr, strings.Join(cells, " | "))
		}
	}
}

// benchResult is one line of go test -bench -benchmem output.
type benchResult struct {
	Name              string // without the -GOMAXPROCS suffix
	NsOp, BOp, Allocs float64
}

var benchRE = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op\s+([\d.]+) B/op\s+([\d.]+) allocs/op`)

// parseBench reads the benchmark lines of go test output; with -count, a
// name comes once per count.
func parseBench(out string) []benchResult {
	var rs []benchResult
	for line := range strings.Lines(out) {
		m := benchRE.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			continue
		}
		r := benchResult{Name: m[1]}
		r.NsOp, _ = strconv.ParseFloat(m[2], 64)
		r.BOp, _ = strconv.ParseFloat(m[3], 64)
		r.Allocs, _ = strconv.ParseFloat(m[4], 64)
		rs = append(rs, r)
	}
	return rs
}

// allocsIntro introduces the in-process table of each benchmark of
// bench_test.go that run.sh reports.
var allocsIntro = map[string]string{
	"BenchmarkToolCall": "In process (`go test -run '^$' -bench ToolCall -benchmem`, in-memory transports, client included; bare is the SDK's raw `Server.AddTool`, sdk its typed `mcp.AddTool`)",
	"BenchmarkHTTPCall": "Over HTTP in process (`go test -run '^$' -bench HTTPCall -benchmem`, Streamable HTTP on loopback, client included; bare is the SDK's own handler in front of its raw `Server.AddTool`; stateful with one session, stateless without)",
}

// writeAllocs writes a table per benchmark of bench_test.go whose
// sub-benchmarks name a server (BenchmarkToolCall, BenchmarkHTTPCall): a
// row per setting of the other keys (outcome; mode and outcome), each
// server's allocations and bytes per call, medians over the counts, and
// mcpcore's allocations over the bare SDK's.
func writeAllocs(w io.Writer, rs []benchResult) {
	type key struct{ bench, row, server string }
	by := map[key][]benchResult{}
	var benches []string
	rows, servers, header := map[string][]string{}, map[string][]string{}, map[string]string{}
	for _, r := range rs {
		parts := strings.Split(r.Name, "/")
		k := key{bench: parts[0]}
		var names, settings []string
		for _, part := range parts[1:] {
			if v, ok := strings.CutPrefix(part, "server="); ok {
				k.server = v
			} else if n, v, ok := strings.Cut(part, "="); ok {
				names, settings = append(names, n), append(settings, v)
			}
		}
		k.row = strings.Join(settings, ", ")
		if k.server == "" || k.row == "" {
			continue
		}
		if !slices.Contains(benches, k.bench) {
			benches = append(benches, k.bench)
			header[k.bench] = strings.Join(names, ", ")
		}
		if !slices.Contains(rows[k.bench], k.row) {
			rows[k.bench] = append(rows[k.bench], k.row)
		}
		if !slices.Contains(servers[k.bench], k.server) {
			servers[k.bench] = append(servers[k.bench], k.server)
		}
		by[k] = append(by[k], r)
	}
	med := func(k key, f func(benchResult) float64) float64 {
		var xs []float64
		for _, r := range by[k] {
			xs = append(xs, f(r))
		}
		return spreadOf(xs).Median
	}
	allocs := func(r benchResult) float64 { return r.Allocs }
	for _, bench := range benches {
		// The floor is the bare SDK (raw AddTool), when the benchmark has it.
		floor := "sdk"
		if slices.Contains(servers[bench], "bare") {
			floor = "bare"
		}
		intro, ok := allocsIntro[bench]
		if !ok {
			intro = "In process (`go test -run '^$' -bench " + strings.TrimPrefix(bench, "Benchmark") + " -benchmem`)"
		}
		fmt.Fprintf(w, "\n%s: allocs/op and B/op, median of the counts.\n\n", intro)
		fmt.Fprintf(w, "| %s | %s | mcpcore ÷ %s allocs |\n|---|%s---:|\n", header[bench], strings.Join(servers[bench], " | "),
			floor, strings.Repeat("---:|", len(servers[bench])))
		for _, row := range rows[bench] {
			var cells []string
			for _, s := range servers[bench] {
				k := key{bench, row, s}
				if len(by[k]) == 0 {
					cells = append(cells, "–")
					continue
				}
				cells = append(cells, fmt.Sprintf("%.0f allocs, %.0f B, %.1f µs", med(k, allocs),
					med(k, func(r benchResult) float64 { return r.BOp }), med(k, func(r benchResult) float64 { return r.NsOp })/1e3))
			}
			r := ratio(med(key{bench, row, "mcpcore"}, allocs), med(key{bench, row, floor}, allocs))
			rs := "–"
			if !math.IsNaN(r) {
				rs = fmt.Sprintf("%.2f", r)
			}
			fmt.Fprintf(w, "| %s | %s | %s |\n", row, strings.Join(cells, " | "), rs)
		}
	}
}
