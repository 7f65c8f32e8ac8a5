package main

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"
)

func TestParseStat(t *testing.T) {
	// A command name with spaces and parentheses, as a process may set it.
	stat := "4242 (a) b (c)) S 1 4242 4242 0 -1 4194560 1234 0 0 0 731 269 0 0 20 0 7 0 123456 1000000 2000 18446744073709551615\n"
	got, err := parseStat([]byte(stat))
	if err != nil || got != 731+269 {
		t.Errorf("parseStat = %d, %v; want 1000", got, err)
	}
	for _, bad := range []string{"4242 no parenthesis", "4242 (x) S 1 2 3", "4242 (x) S 1 4242 4242 0 -1 0 0 0 0 0 u 5 0"} {
		if _, err := parseStat([]byte(bad)); err == nil {
			t.Errorf("parseStat(%q): no error", bad)
		}
	}
}

func TestParseStatus(t *testing.T) {
	status := "Name:\tarticles\nVmPeak:\t 1000 kB\nVmHWM:\t   25024 kB\nVmRSS:\t   22796 kB\nRssAnon:\t    9000 kB\nRssFile:\t   13796 kB\n"
	got, err := parseStatus([]byte(status))
	if err != nil || got != (mem{RSS: 22796, HWM: 25024, Anon: 9000}) {
		t.Errorf("parseStatus = %+v, %v", got, err)
	}
	if _, err := parseStatus([]byte("VmRSS:\t 1 kB\n")); err == nil {
		t.Error("parseStatus without VmHWM: no error")
	}
}

func TestPercentile(t *testing.T) {
	var d []time.Duration
	for i := 1; i <= 100; i++ {
		d = append(d, time.Duration(i))
	}
	for _, c := range []struct {
		p    float64
		want time.Duration
	}{{50, 50}, {99, 99}, {100, 100}, {0.1, 1}} {
		if got := percentile(d, c.p); got != c.want {
			t.Errorf("percentile(1..100, %v) = %v, want %v", c.p, got, c.want)
		}
	}
	if percentile(nil, 50) != 0 {
		t.Error("percentile of nothing is not 0")
	}
}

func TestSpreadAndRatios(t *testing.T) {
	if s := spreadOf([]float64{3, 1, 2}); s != (spread{Median: 2, Min: 1, Max: 3, N: 3}) {
		t.Errorf("odd count: %+v", s)
	}
	if s := spreadOf([]float64{4, 1, 2, math.NaN(), 3}); s != (spread{Median: 2.5, Min: 1, Max: 4, N: 4}) {
		t.Errorf("even count, NaN left out: %+v", s)
	}
	if s := spreadOf(nil); s.N != 0 || !math.IsNaN(s.Median) {
		t.Errorf("no values: %+v", s)
	}
	// Pass 3 ran only one server: no pair. Pass 4 divides by zero: NaN, left out.
	a := map[int]float64{1: 150, 2: 120, 3: 999, 4: 1}
	b := map[int]float64{1: 100, 2: 100, 4: 0}
	if s := spreadOf(pairedRatios(a, b)); s != (spread{Median: 1.35, Min: 1.2, Max: 1.5, N: 2}) {
		t.Errorf("paired ratios: %+v", s)
	}
}

func TestReport(t *testing.T) {
	var runs []result
	for pass := 1; pass <= 3; pass++ {
		for _, mode := range []string{"echo", "error", "fetch"} {
			f := map[string]float64{"echo": 1, "error": 1.1, "fetch": 1.05}[mode]
			runs = append(runs,
				result{Server: "mcpcore", Transport: "stdio", Mode: mode, Concurrency: 1, Pass: pass, CPUusPerCall: f * float64(100+10*pass), IdleRSSKiB: 14 << 10},
				result{Server: "baseline", Transport: "stdio", Mode: mode, Concurrency: 1, Pass: pass, CPUusPerCall: 100, IdleRSSKiB: 9 << 10})
		}
	}
	var buf bytes.Buffer
	writeReport(&buf, runs, "mcpcore", "baseline")
	out := buf.String()
	for _, want := range []string{
		"| stdio | 1 | success | 120.0 | 100.0 | 1.20 (1.10–1.30) |",
		"| stdio | 1 | error | 132.0 | 100.0 | 1.32 (1.21–1.43) |",
		"| stdio | 1 | success (fetch_articles) | 126.0 | 100.0 | 1.26 (1.16–1.36) |",
		"| stdio | 1 | echo | 1.10 (1.10–1.10) | 1.00 (1.00–1.00) |",
		"| stdio | 1 | fetch_articles | 1.05 (1.05–1.05) | 1.00 (1.00–1.00) |",
		"| stdio | 14.0 | 9.0 |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

func TestParseBench(t *testing.T) {
	out := `goos: linux
BenchmarkToolCall/server=sdk/outcome=success-2         	    2121	    543000 ns/op	  488292 B/op	     294 allocs/op
BenchmarkToolCall/server=mcpcore/outcome=success-2     	    2000	    486100 ns/op	  426361 B/op	     302 allocs/op
BenchmarkToolCall/server=mcpcore/outcome=success-2     	    2000	    486100 ns/op	  426361 B/op	     304 allocs/op
PASS
`
	rs := parseBench(out)
	if len(rs) != 3 || rs[0].Name != "BenchmarkToolCall/server=sdk/outcome=success" || rs[0].Allocs != 294 || rs[1].BOp != 426361 {
		t.Fatalf("parseBench = %+v", rs)
	}
	var buf bytes.Buffer
	writeAllocs(&buf, rs)
	if want := "| success | 294 allocs, 488292 B, 543.0 µs | 303 allocs, 426361 B, 486.1 µs | 1.03 |"; !strings.Contains(buf.String(), want) {
		t.Errorf("allocs table lacks %q:\n%s", want, buf.String())
	}
}

// TestWritePeers: each pair's ratio is paired within the pass, and its
// median and range are over the passes.
func TestWritePeers(t *testing.T) {
	mk := func(server string, pass int, us float64) result {
		return result{Server: server, Transport: "stdio", Concurrency: 1, Mode: "echo", Pass: pass, CPUusPerCall: us, IdleRSSKiB: 10240}
	}
	runs := []result{
		mk("mcpcore", 1, 100), mk("mcpgo", 1, 200), mk("baseline", 1, 50),
		mk("mcpcore", 2, 120), mk("mcpgo", 2, 100), mk("baseline", 2, 60),
		mk("mcpcore", 3, 90), mk("mcpgo", 3, 100), mk("baseline", 3, 100),
	}
	pairs, err := parsePairs("mcpcore/mcpgo, mcpcore/baseline")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	writePeers(&b, runs, pairs)
	// mcpcore/mcpgo per pass: 0.5, 1.2, 0.9; mcpcore/baseline: 2, 2, 0.9.
	want := "| stdio | 1 | success | 0.90 (0.50–1.20) | 2.00 (0.90–2.00) |"
	if !strings.Contains(b.String(), want) {
		t.Errorf("report lacks %q:\n%s", want, b.String())
	}
	if !strings.Contains(b.String(), "| stdio | 10.0 | 10.0 | 10.0 |") {
		t.Errorf("report lacks the idle RSS row:\n%s", b.String())
	}
	if _, err := parsePairs("mcpcore"); err == nil {
		t.Error(`parsePairs("mcpcore"): no error`)
	}
}

// TestCheckFirst: the first answer of each mode is held to what the
// example sends, so that a peer answering other bytes is caught.
func TestCheckFirst(t *testing.T) {
	decode := func(s string) any {
		var v any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, c := range []struct {
		mode, structured string
		ok               bool
	}{
		{"echo", `{"message":"hello"}`, true},
		{"echo", `{"message":"bye"}`, false},
		{"fetch", `{"articles":["31000001"]}`, true},
		{"fetch", `{"articles":[]}`, false},
		{"fetch", `{"articles":["31000001","2"]}`, false},
		{"error", `{"error":{"code":-32001,"message":"None of 0 PMIDs returned data"}}`, true},
		{"error", `{"error":{"code":-32603}}`, false},
	} {
		if err := checkFirst(c.mode, decode(c.structured)); (err == nil) != c.ok {
			t.Errorf("checkFirst(%s, %s) = %v, want ok %v", c.mode, c.structured, err, c.ok)
		}
	}
}

// TestReportSeparatesSessionModes: stateful and stateless runs of the same
// transport, concurrency and mode are rows of their own, labelled by mode,
// in every table and in the benchmark lines, never averaged together.
func TestReportSeparatesSessionModes(t *testing.T) {
	var runs []result
	for pass := 1; pass <= 3; pass++ {
		for _, stateless := range []bool{false, true} {
			us, protocol := 100.0, "2025-11-25"
			if stateless {
				us, protocol = 300, "2026-07-28"
			}
			for _, c := range []int{16, 64} {
				runs = append(runs,
					result{Server: "mcpcore", Transport: "http", Stateless: stateless, Protocol: protocol, Mode: "echo", Concurrency: c, Pass: pass, CPUusPerCall: 2 * us, IdleRSSKiB: 20 << 10},
					result{Server: "mcpgo", Transport: "http", Stateless: stateless, Protocol: protocol, Mode: "echo", Concurrency: c, Pass: pass, CPUusPerCall: us, IdleRSSKiB: 10 << 10})
			}
		}
		runs = append(runs,
			result{Server: "mcpcore", Transport: "stdio", Protocol: "2026-07-28", Mode: "echo", Concurrency: 1, Pass: pass, CPUusPerCall: 50, IdleRSSKiB: 15 << 10},
			result{Server: "mcpgo", Transport: "stdio", Protocol: "2026-07-28", Mode: "echo", Concurrency: 1, Pass: pass, CPUusPerCall: 50, IdleRSSKiB: 5 << 10})
	}
	var b bytes.Buffer
	writeProtocols(&b, runs)
	writePeers(&b, runs, []pair{{"mcpcore", "mcpgo"}})
	writeReport(&b, runs, "mcpcore", "mcpgo")
	out := b.String()
	for _, want := range []string{
		"Protocol versions agreed: stdio 2026-07-28; http 2025-11-25; http-stateless 2026-07-28.",
		// each server's own medians: 200 and 100 stateful, 600 and 300 stateless
		"| http | 16 | success | 200 (200–200) | 100 (100–100) |",
		"| http-stateless | 16 | success | 600 (600–600) | 300 (300–300) |",
		"| http | 64 | success | 200.0 | 100.0 | 2.00 (2.00–2.00) |",
		"| http-stateless | 64 | success | 600.0 | 300.0 | 2.00 (2.00–2.00) |",
		"| http-stateless | 20.0 | 10.0 |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	// Rows in order: stdio, then http by concurrency, then http-stateless.
	var order []string
	for line := range strings.Lines(out) {
		if strings.HasPrefix(line, "| ") && strings.Contains(line, "| success | 2") {
			f := strings.Split(line, " | ")
			order = append(order, strings.TrimPrefix(f[0], "| ")+":"+f[1])
		}
	}
	if got := strings.Join(order, " "); !strings.HasPrefix(got, "http:16 http:64 http-stateless:16 http-stateless:64") {
		t.Errorf("rows in the order %s, want http:16 http:64 http-stateless:16 http-stateless:64", got)
	}
	stateless := runs[4] // pass 1, stateless, c16, mcpcore
	if line := benchLine(stateless); !strings.HasPrefix(line, "BenchmarkLoad/transport=http-stateless/mode=echo/c=16/server=mcpcore ") {
		t.Errorf("benchLine of a stateless run: %s", line)
	}
	if line := benchLine(runs[0]); !strings.HasPrefix(line, "BenchmarkLoad/transport=http/mode=echo/c=16/server=mcpcore ") {
		t.Errorf("benchLine of a stateful run: %s", line)
	}
}

// TestCheckSessionMode: a server that answers in the other session mode
// than the one asked of it is refused, not measured under the wrong label.
func TestCheckSessionMode(t *testing.T) {
	for _, c := range []struct {
		id        string
		stateless bool
		ok        bool
	}{
		{"", true, true},
		{"3f2a", false, true},
		{"3f2a", true, false},
		{"", false, false},
	} {
		if err := checkSessionMode(c.id, c.stateless); (err == nil) != c.ok {
			t.Errorf("checkSessionMode(%q, stateless %v) = %v, want ok %v", c.id, c.stateless, err, c.ok)
		}
	}
	if _, err := parseFlags([]string{"-server", "x", "-transport", "stdio", "-stateless"}); err == nil {
		t.Error("-stateless over stdio: no error")
	}
	if cfg, err := parseFlags([]string{"-server", "x", "-transport", "http", "-stateless"}); err != nil || !cfg.stateless || cfg.protocol != "" {
		t.Errorf("-transport http -stateless: %+v, %v; want stateless, the SDK's latest protocol", cfg, err)
	}
}

// TestStatefulAsksForSessions: a stateful HTTP run asks for the latest
// protocol version with sessions, so that a server that also speaks
// 2026-07-28 is not measured serving calls without a session; -protocol
// still decides.
func TestStatefulAsksForSessions(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-transport", "http"}, "2025-11-25"},
		{[]string{"-transport", "http", "-protocol", "2025-06-18"}, "2025-06-18"},
		{[]string{"-transport", "http", "-stateless"}, ""},
		{[]string{"-transport", "stdio"}, ""},
	} {
		cfg, err := parseFlags(append([]string{"-server", "x"}, c.args...))
		if err != nil || cfg.protocol != c.want {
			t.Errorf("%v: protocol %q, %v; want %q", c.args, cfg.protocol, err, c.want)
		}
	}
}

// TestParseBenchHTTPCall: BenchmarkHTTPCall's rows are its mode and
// outcome, a table of its own beside BenchmarkToolCall's.
func TestParseBenchHTTPCall(t *testing.T) {
	out := `BenchmarkToolCall/server=bare/outcome=success-2         	    2000	    50000 ns/op	  40000 B/op	     200 allocs/op
BenchmarkToolCall/server=mcpcore/outcome=success-2      	    2000	    60000 ns/op	  50000 B/op	     300 allocs/op
BenchmarkHTTPCall/mode=stateful/server=bare/outcome=success-2       	     200	   150000 ns/op	  90000 B/op	     600 allocs/op
BenchmarkHTTPCall/mode=stateful/server=mcpcore/outcome=success-2    	     200	   180000 ns/op	  99000 B/op	     900 allocs/op
BenchmarkHTTPCall/mode=stateless/server=bare/outcome=success-2      	     200	   250000 ns/op	 190000 B/op	    1000 allocs/op
BenchmarkHTTPCall/mode=stateless/server=mcpcore/outcome=success-2   	     200	   280000 ns/op	 199000 B/op	     800 allocs/op
`
	var buf bytes.Buffer
	writeAllocs(&buf, parseBench(out))
	for _, want := range []string{
		"| outcome | bare | mcpcore | mcpcore ÷ bare allocs |",
		"| success | 200 allocs, 40000 B, 50.0 µs | 300 allocs, 50000 B, 60.0 µs | 1.50 |",
		"-bench HTTPCall -benchmem",
		"| mode, outcome | bare | mcpcore | mcpcore ÷ bare allocs |",
		"| stateful, success | 600 allocs, 90000 B, 150.0 µs | 900 allocs, 99000 B, 180.0 µs | 1.50 |",
		"| stateless, success | 1000 allocs, 190000 B, 250.0 µs | 800 allocs, 199000 B, 280.0 µs | 0.80 |",
	} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("allocs tables lack %q:\n%s", want, buf.String())
		}
	}
}
