package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// config is what one run measures, from the flags.
type config struct {
	server     string   // path of the server binary
	name       string   // the server's label in the results
	transport  string   // stdio or http
	mode       string   // echo, error or fetch
	conc       int      // concurrent callers
	calls      int      // timed calls
	warmup     int      // untimed calls before them
	sessions   string   // http: shared or per-worker
	stateless  bool     // http: MCP_SESSION_MODE=stateless
	env        []string // extra KEY=VALUE for the server
	pass       int      // the pass number, copied to the result
	serverLog  string   // file for the server's stderr; none: /dev/null
	show       bool     // print the first result as JSON to stderr
	protocol   string   // the protocol version the client asks for; "": the SDK's latest
	settle     time.Duration
	clockTicks int64
}

// result is one run, written as one JSON line.
type result struct {
	Server       string  `json:"server"`
	Transport    string  `json:"transport"`
	Mode         string  `json:"mode"`
	Concurrency  int     `json:"c"`
	Sessions     string  `json:"sessions"`
	Stateless    bool    `json:"stateless,omitempty"`
	Protocol     string  `json:"protocol"`
	Pass         int     `json:"pass"`
	Calls        int     `json:"calls"`
	Warmup       int     `json:"warmup"`
	Seconds      float64 `json:"seconds"`
	CallsPerSec  float64 `json:"calls_per_s"`
	P50us        float64 `json:"p50_us"`
	P99us        float64 `json:"p99_us"`
	CPUTicks     int64   `json:"cpu_ticks"`
	ClockTicks   int64   `json:"clk_tck"`
	CPUusPerCall float64 `json:"cpu_us_per_call"`
	IdleRSSKiB   int64   `json:"idle_rss_kib"`
	IdleAnonKiB  int64   `json:"idle_rss_anon_kib"`
	PeakRSSKiB   int64   `json:"peak_rss_kib"`
	Time         string  `json:"time"`
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "report" {
		if err := reportMain(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "load report:", err)
			os.Exit(1)
		}
		return
	}
	cfg, err := parseFlags(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(2)
	}
	r, err := run(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
	line, _ := json.Marshal(r)
	fmt.Println(string(line))
	fmt.Fprintln(os.Stderr, benchLine(r))
	if r.CPUTicks < 100 {
		fmt.Fprintf(os.Stderr, "load: warning: only %d clock ticks of server CPU in the timed window; raise -n for a CPU figure within 1 %%\n", r.CPUTicks)
	}
}

type envFlag []string

func (e *envFlag) String() string { return strings.Join(*e, ",") }
func (e *envFlag) Set(v string) error {
	if !strings.Contains(v, "=") {
		return fmt.Errorf("%q: want KEY=VALUE", v)
	}
	*e = append(*e, v)
	return nil
}

// latestWithSessions is the latest protocol version that has sessions, the
// one a stateful HTTP run asks for unless -protocol says otherwise.
const latestWithSessions = "2025-11-25"

func parseFlags(args []string) (config, error) {
	var cfg config
	var env envFlag
	fs := flag.NewFlagSet("load", flag.ContinueOnError)
	fs.StringVar(&cfg.server, "server", "", "path of the server binary to start (required)")
	fs.StringVar(&cfg.name, "name", "", "the server's label in the results (default: the binary's name)")
	fs.StringVar(&cfg.transport, "transport", "stdio", "stdio or http")
	fs.StringVar(&cfg.mode, "mode", "echo", "echo (echo, succeeds), error (fetch_articles with no PMIDs, fails) or fetch (fetch_articles with one PMID, succeeds: the error path's tool on its success path)")
	fs.IntVar(&cfg.conc, "c", 1, "concurrent callers")
	fs.IntVar(&cfg.calls, "n", 2000, "timed calls (20000 or more for a CPU figure within 1 %)")
	fs.IntVar(&cfg.warmup, "warmup", 500, "untimed calls first, at the same concurrency")
	fs.StringVar(&cfg.sessions, "sessions", "shared", "http: shared (one session, c concurrent calls) or per-worker (one session per caller)")
	fs.BoolVar(&cfg.stateless, "stateless", false, "http: serve with MCP_SESSION_MODE=stateless")
	fs.Var(&env, "env", "KEY=VALUE for the server's environment (repeatable)")
	fs.IntVar(&cfg.pass, "pass", 0, "pass number, copied to the result")
	fs.StringVar(&cfg.serverLog, "server-log", "", "file for the server's stderr (default /dev/null)")
	fs.BoolVar(&cfg.show, "show", false, "print the first result as JSON to stderr")
	fs.StringVar(&cfg.protocol, "protocol", "", "protocol version the client asks for (default: the SDK's latest; stateful HTTP: "+latestWithSessions+", the latest with sessions)")
	fs.DurationVar(&cfg.settle, "settle", 300*time.Millisecond, "wait after the session starts before reading idle RSS")
	fs.Int64Var(&cfg.clockTicks, "clk-tck", 0, "clock ticks per second (default: getconf CLK_TCK)")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	cfg.env = env
	switch {
	case cfg.server == "":
		return cfg, errors.New("-server is required")
	case cfg.transport != "stdio" && cfg.transport != "http":
		return cfg, fmt.Errorf("-transport %q: want stdio or http", cfg.transport)
	case callModes[cfg.mode].tool == "":
		return cfg, fmt.Errorf("-mode %q: want echo, error or fetch", cfg.mode)
	case cfg.stateless && cfg.transport != "http":
		return cfg, errors.New("-stateless is a mode of -transport http")
	case cfg.sessions != "shared" && cfg.sessions != "per-worker":
		return cfg, fmt.Errorf("-sessions %q: want shared or per-worker", cfg.sessions)
	case cfg.conc < 1 || cfg.calls < 1 || cfg.warmup < 0:
		return cfg, errors.New("-c and -n must be positive, -warmup not negative")
	}
	if cfg.transport == "stdio" {
		cfg.sessions = "shared" // one process, one session
	}
	if cfg.transport == "http" && !cfg.stateless && cfg.protocol == "" {
		// A server that speaks 2026-07-28, which has no sessions, would
		// answer the client's server/discover and serve it without one.
		cfg.protocol = latestWithSessions
	}
	if cfg.name == "" {
		cfg.name = cfg.server[strings.LastIndexByte(cfg.server, '/')+1:]
	}
	if cfg.clockTicks == 0 {
		cfg.clockTicks = clockTicks()
	}
	return cfg, nil
}

// serverEnv is the load's environment without the variables that configure
// mcpcore (MCP_) or its telemetry (OTEL_), then extra.
func serverEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "MCP_") && !strings.HasPrefix(kv, "OTEL_") {
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}

// target is a started server and the sessions the callers use.
type target struct {
	cmd      *exec.Cmd
	sessions []*mcp.ClientSession
	stop     func() error
}

func run(cfg config) (result, error) {
	ctx := context.Background()
	t, err := start(ctx, cfg)
	if err != nil {
		return result{}, err
	}
	defer t.stop()
	pid := t.cmd.Process.Pid

	// Idle: started and initialized, before any call.
	time.Sleep(cfg.settle)
	idle, err := memKiB(pid)
	if err != nil {
		return result{}, err
	}
	call := callFor(cfg.mode, cfg.show)
	// One checked call shows that the server answers as the load expects.
	if err := call(ctx, t.sessions[0], true); err != nil {
		return result{}, fmt.Errorf("first call to %s: %w", cfg.name, err)
	}
	if _, err := calls(ctx, t.sessions, cfg.conc, cfg.warmup, call); err != nil {
		return result{}, fmt.Errorf("warm-up: %w", err)
	}

	before, err := cpuTicks(pid)
	if err != nil {
		return result{}, err
	}
	start := time.Now()
	lat, err := calls(ctx, t.sessions, cfg.conc, cfg.calls, call)
	wall := time.Since(start)
	after, err2 := cpuTicks(pid)
	if err := errors.Join(err, err2); err != nil {
		return result{}, err
	}
	end, err := memKiB(pid)
	if err != nil {
		return result{}, err
	}
	if err := t.stop(); err != nil {
		return result{}, fmt.Errorf("stopping %s: %w", cfg.name, err)
	}

	slices.Sort(lat)
	ticks := after - before
	return result{
		Server: cfg.name, Transport: cfg.transport, Mode: cfg.mode, Concurrency: cfg.conc, Sessions: cfg.sessions,
		Stateless: cfg.stateless,
		Protocol:  t.sessions[0].InitializeResult().ProtocolVersion,
		Pass:      cfg.pass, Calls: cfg.calls, Warmup: cfg.warmup,
		Seconds:      wall.Seconds(),
		CallsPerSec:  float64(cfg.calls) / wall.Seconds(),
		P50us:        float64(percentile(lat, 50).Nanoseconds()) / 1e3,
		P99us:        float64(percentile(lat, 99).Nanoseconds()) / 1e3,
		CPUTicks:     ticks,
		ClockTicks:   cfg.clockTicks,
		CPUusPerCall: float64(ticks) * 1e6 / float64(cfg.clockTicks) / float64(cfg.calls),
		IdleRSSKiB:   idle.RSS,
		IdleAnonKiB:  idle.Anon,
		PeakRSSKiB:   end.HWM,
		Time:         start.UTC().Format(time.RFC3339),
	}, nil
}

// calls makes n calls from conc callers, and returns the latency of each.
// Caller i uses sessions[i % len(sessions)].
func calls(ctx context.Context, sessions []*mcp.ClientSession, conc, n int, call func(ctx context.Context, cs *mcp.ClientSession, first bool) error) ([]time.Duration, error) {
	lat := make([]time.Duration, n)
	var next atomic.Int64
	var (
		mu    sync.Mutex
		first error
	)
	var wg sync.WaitGroup
	for w := range conc {
		cs := sessions[w%len(sessions)]
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				t0 := time.Now()
				err := call(ctx, cs, false)
				lat[i] = time.Since(t0)
				if err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
					next.Store(int64(n)) // stop every caller
					return
				}
			}
		})
	}
	wg.Wait()
	return lat, first
}

// A callMode is what a -mode calls, and whether the call must fail.
type callMode struct {
	tool  string
	args  map[string]any
	fails bool
}

// callModes are the modes by name.
var callModes = map[string]callMode{
	"echo":  {tool: "echo", args: map[string]any{"message": "hello"}},
	"error": {tool: "fetch_articles", args: map[string]any{"pmids": []string{}}, fails: true},
	"fetch": {tool: "fetch_articles", args: map[string]any{"pmids": []string{fetchPMID}}},
}

// callFor is one call of the mode, with a check of its answer: it must
// fail exactly when the mode says so. The first call, and only the first,
// is checked further (checkFirst), and printed with show.
func callFor(mode string, show bool) func(ctx context.Context, cs *mcp.ClientSession, first bool) error {
	m := callModes[mode]
	params := &mcp.CallToolParams{Name: m.tool, Arguments: m.args}
	return func(ctx context.Context, cs *mcp.ClientSession, first bool) error {
		res, err := cs.CallTool(ctx, params)
		if err != nil {
			return err
		}
		if first && show {
			b, _ := json.Marshal(res)
			fmt.Fprintf(os.Stderr, "load: %s answered %s\n", params.Name, b)
		}
		if res.IsError != m.fails {
			b, _ := json.Marshal(res)
			return fmt.Errorf("%s: unexpected result %s", params.Name, b)
		}
		if !first {
			return nil
		}
		return checkFirst(mode, res.StructuredContent)
	}
}

// fetchPMID is the PMID of -mode fetch: no PMID the example treats as a
// way to fail.
const fetchPMID = "31000001"

// checkFirst checks the structuredContent of the first answer of the mode:
// echo must send the message back, fetch the PMID, and error must be the
// example's no_match failure (code -32001).
func checkFirst(mode string, structured any) error {
	sc, _ := structured.(map[string]any)
	switch mode {
	case "echo":
		if sc["message"] != "hello" {
			return fmt.Errorf("echo: structuredContent %v, want message hello", structured)
		}
	case "fetch":
		if a, _ := sc["articles"].([]any); len(a) != 1 || a[0] != fetchPMID {
			return fmt.Errorf("fetch_articles: structuredContent %v, want articles [%s]", structured, fetchPMID)
		}
	case "error":
		if e, _ := sc["error"].(map[string]any); e["code"] != float64(-32001) {
			return fmt.Errorf("fetch_articles: structuredContent %v, want error code -32001", structured)
		}
	}
	return nil
}

// start starts the server and opens the sessions of the run.
func start(ctx context.Context, cfg config) (*target, error) {
	client := mcp.NewClient(&mcp.Implementation{Name: "mcpcore-bench-load", Version: "1.0.0"}, nil)
	sessionOpts := &mcp.ClientSessionOptions{ProtocolVersion: cfg.protocol}
	var stderr io.Writer
	if cfg.serverLog != "" {
		f, err := os.Create(cfg.serverLog)
		if err != nil {
			return nil, err
		}
		stderr = f
	}
	if cfg.transport == "stdio" {
		cmd := exec.Command(cfg.server)
		cmd.Env = serverEnv(cfg.env...)
		cmd.Stderr = stderr
		cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, sessionOpts)
		if err != nil {
			return nil, fmt.Errorf("starting %s over stdio: %w", cfg.server, err)
		}
		var once sync.Once
		var closeErr error
		return &target{cmd: cmd, sessions: []*mcp.ClientSession{cs}, stop: func() error {
			once.Do(func() { closeErr = cs.Close() })
			return closeErr
		}}, nil
	}

	port, err := freePort()
	if err != nil {
		return nil, err
	}
	mode := "stateful"
	if cfg.stateless {
		mode = "stateless"
	}
	cmd := exec.Command(cfg.server)
	cmd.Env = serverEnv(append([]string{"MCP_TRANSPORT_TYPE=http", "MCP_HTTP_HOST=127.0.0.1",
		"MCP_HTTP_PORT=" + strconv.Itoa(port), "MCP_SESSION_MODE=" + mode}, cfg.env...)...)
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	t := &target{cmd: cmd}
	var once sync.Once
	var stopErr error
	t.stop = func() error {
		once.Do(func() { stopErr = stopHTTP(t) })
		return stopErr
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	if err := waitListening(addr, 10*time.Second); err != nil {
		t.stop()
		return nil, err
	}
	// Enough idle connections for every caller: the default keeps two per
	// host, and the rest would reconnect on every call.
	hc := &http.Client{Transport: &http.Transport{MaxIdleConns: cfg.conc + 8, MaxIdleConnsPerHost: cfg.conc + 8}}
	n := 1
	if cfg.sessions == "per-worker" {
		n = cfg.conc
	}
	for range n {
		cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{
			Endpoint: "http://" + addr + "/mcp", HTTPClient: hc,
			// Only request and response: no stream left open beside them.
			DisableStandaloneSSE: true,
		}, sessionOpts)
		if err != nil {
			t.stop()
			return nil, fmt.Errorf("connecting to %s over HTTP: %w", cfg.server, err)
		}
		t.sessions = append(t.sessions, cs)
		if err := checkSessionMode(cs.ID(), cfg.stateless); err != nil {
			t.stop()
			return nil, fmt.Errorf("%s over HTTP: %w", cfg.name, err)
		}
	}
	return t, nil
}

// checkSessionMode checks that a server serves HTTP in the mode asked of
// it, by the session id it answered with (empty without one): a peer that
// ignored MCP_SESSION_MODE would otherwise be measured in the other mode
// under this one's name.
func checkSessionMode(id string, stateless bool) error {
	switch {
	case stateless && id != "":
		return fmt.Errorf("asked for MCP_SESSION_MODE=stateless, it answered with the session id %q", id)
	case !stateless && id == "":
		return errors.New("asked for MCP_SESSION_MODE=stateful, it answered with no session id")
	}
	return nil
}

// stopHTTP closes the sessions, then ends the server with SIGTERM, and with
// SIGKILL after 5 s.
func stopHTTP(t *target) error {
	for _, cs := range t.sessions {
		cs.Close()
	}
	t.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- t.cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.Sys().(syscall.WaitStatus).Signaled() {
			return nil // the default SIGTERM action: no handler, no fault
		}
		return err
	case <-time.After(5 * time.Second):
		t.cmd.Process.Kill()
		<-done
		return errors.New("the server did not stop within 5 s of SIGTERM")
	}
}

// freePort is a TCP port free on 127.0.0.1 a moment ago.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// waitListening waits until addr accepts TCP connections.
func waitListening(addr string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the server did not listen on %s within %v: %v", addr, limit, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// transportLabel names r's transport with its session mode, as the cells
// of bench/run.sh do: stdio, http (stateful) or http-stateless.
func (r result) transportLabel() string {
	if r.Transport == "http" && r.Stateless {
		return "http-stateless"
	}
	return r.Transport
}

// benchLine is r as a line of the Go benchmark format, whose keys benchstat
// can compare: benchstat -col /server.
func benchLine(r result) string {
	return fmt.Sprintf("BenchmarkLoad/transport=%s/mode=%s/c=%d/server=%s %d %.0f ns/op %.2f server-cpu-us/op %.0f calls/s %.1f p50-us %.1f p99-us %d idle-rss-KiB %d peak-rss-KiB",
		r.transportLabel(), r.Mode, r.Concurrency, r.Server, r.Calls, r.Seconds*1e9/float64(r.Calls),
		r.CPUusPerCall, r.CallsPerSec, r.P50us, r.P99us, r.IdleRSSKiB, r.PeakRSSKiB)
}
