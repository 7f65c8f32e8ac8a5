package mcpcore_test

// The fault-injection load test: many concurrent calls over Streamable HTTP
// and over a real process's stdio, each with a fault drawn from every class
// a handler can produce. Every call must get the one answer its class
// implies, none another call's; the server must never die; goroutines and
// memory must come back to where they were.
//
// The test command runs it small. The full run:
//
//	go test -run TestLoadWithFaults -v . -args -load.calls=5000 -load.concurrency=32

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/mcperr"
	"github.com/seed417024ea/mcpcore/mcptest"
)

var (
	loadCalls       = flag.Int("load.calls", 600, "calls per transport in TestLoadWithFaults")
	loadConcurrency = flag.Int("load.concurrency", 16, "concurrent calls in TestLoadWithFaults")
)

// The fault classes, in the order calls cycle through them.
var faultClasses = []string{
	"ok", "panic", "typed_nil", "plain", "declared", "unencodable",
	"upstream", "deadline", "cancel", "slow", "invalid",
}

type faultInput struct {
	Fault string `json:"fault" jsonschema:"the fault to inject"`
	Token string `json:"token" jsonschema:"echoed back, to detect misrouted answers"`
}

type faultOutput struct {
	Token string `json:"token" jsonschema:"the token of the call"`
}

var loadNoMatch = mcpcore.Failure{
	Reason:   "no_match",
	Code:     mcperr.CodeNotFound,
	When:     "No item matched the token.",
	Recovery: "Call the tool again with a token that exists.",
}

// cancelsNotSeen counts the cancelled calls whose handler never saw the
// cancellation, in this process (the HTTP run).
var cancelsNotSeen atomic.Int64

// upstreamClient keeps no idle connections, so that the goroutine checks
// see the server's goroutines, not the handler's connection pool.
var upstreamClient = &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}

// faultTool fails in the way its input names. upstream is the URL of a
// server that answers 503.
func faultTool(upstream string) mcpcore.Tool[faultInput, faultOutput] {
	return mcpcore.Tool[faultInput, faultOutput]{
		Name:        "fault",
		Description: "Fails on demand, for load tests.",
		Errors:      []mcpcore.Failure{loadNoMatch},
		Handler: func(ctx *mcpcore.Context, in faultInput) (faultOutput, error) {
			switch in.Fault {
			case "panic":
				panic("injected panic " + in.Token)
			case "typed_nil":
				var e *mcperr.Error
				return faultOutput{}, e
			case "plain":
				return faultOutput{}, fmt.Errorf("store %s: %w", in.Token, fs.ErrNotExist)
			case "declared":
				return faultOutput{}, ctx.Fail(loadNoMatch, "No item "+in.Token)
			case "unencodable":
				return faultOutput{}, ctx.Fail(loadNoMatch, "Bad data "+in.Token,
					mcperr.WithData(map[string]any{"score": math.NaN(), "call": in.Token}))
			case "upstream":
				req, _ := http.NewRequestWithContext(ctx, http.MethodGet, upstream+"?token="+in.Token, nil)
				resp, err := upstreamClient.Do(req)
				if err != nil {
					return faultOutput{}, err
				}
				return faultOutput{}, mcperr.FromResponse(resp, mcperr.WithService("Upstream"))
			case "deadline":
				dctx, cancel := context.WithTimeout(ctx, time.Millisecond)
				defer cancel()
				<-dctx.Done()
				return faultOutput{}, dctx.Err()
			case "cancel":
				// The client gives up after 20 ms and tells the server.
				// Should the server never learn, the call still ends, and
				// the test says how often that happened.
				select {
				case <-ctx.Done():
					return faultOutput{}, ctx.Err()
				case <-time.After(3 * time.Second):
					cancelsNotSeen.Add(1)
					return faultOutput{}, errors.New("the cancellation never arrived")
				}
			case "slow":
				time.Sleep(5 * time.Millisecond)
			}
			return faultOutput{Token: in.Token}, nil
		},
	}
}

// upstream503 is an upstream that is down. Close it when done.
func upstream503() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "maintenance", http.StatusServiceUnavailable)
	}))
}

// checkAnswer reports what is wrong with the answer to one call, or "".
func checkAnswer(class, token string, res *mcp.CallToolResult, err error) string {
	if class == "cancel" {
		if !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
			return fmt.Sprintf("cancelled call: err %v, res %v", err, res)
		}
		return ""
	}
	if err != nil {
		return "protocol error: " + err.Error()
	}
	if class == "ok" || class == "slow" {
		out, _ := res.StructuredContent.(map[string]any)
		if res.IsError || out["token"] != token {
			return fmt.Sprintf("success: isError %v, structuredContent %v", res.IsError, res.StructuredContent)
		}
		return ""
	}
	sc, _ := res.StructuredContent.(map[string]any)
	e, _ := sc["error"].(map[string]any)
	if !res.IsError || e == nil {
		return fmt.Sprintf("want an error result, got %v", res.StructuredContent)
	}
	code, _ := e["code"].(float64)
	msg, _ := e["message"].(string)
	data, _ := e["data"].(map[string]any)
	want := map[string]struct {
		code mcperr.Code
		msg  string
	}{
		"panic":       {mcperr.CodeInternalError, "An internal error occurred in tool fault."},
		"typed_nil":   {mcperr.CodeInternalError, "An internal error occurred in tool fault."},
		"plain":       {mcperr.CodeNotFound, "store " + token + ": file does not exist"},
		"declared":    {mcperr.CodeNotFound, "No item " + token},
		"unencodable": {mcperr.CodeNotFound, "Bad data " + token},
		"upstream":    {mcperr.CodeServiceUnavailable, "Upstream returned HTTP 503 Service Unavailable."},
		"deadline":    {mcperr.CodeTimeout, ""},
		"invalid":     {mcperr.CodeValidationError, `unrecognized key "extra"`},
	}[class]
	if mcperr.Code(code) != want.code || (want.msg != "" && msg != want.msg) {
		return fmt.Sprintf("got code %v message %q, want %d %q", code, msg, want.code, want.msg)
	}
	switch class {
	case "declared", "unencodable":
		if data["reason"] != "no_match" {
			return fmt.Sprintf("data %v has no reason", data)
		}
		if class == "unencodable" && (data["call"] != token || len(data) != 2) {
			return fmt.Sprintf("unencodable data: %v", data)
		}
	case "upstream":
		if data["status"] != float64(503) {
			return fmt.Sprintf("upstream data: %v", data)
		}
	}
	return ""
}

// loadResult counts what a load run saw.
type loadResult struct {
	calls  int
	faults map[string]int
	wrong  []string
}

// runLoad makes calls calls over the sessions, concurrency at a time,
// cycling through the fault classes.
func runLoad(t *testing.T, sessions []*mcp.ClientSession, calls, concurrency int) loadResult {
	t.Helper()
	var (
		mu  sync.Mutex
		r   = loadResult{faults: map[string]int{}}
		sem = make(chan struct{}, concurrency)
		wg  sync.WaitGroup
	)
	for i := range calls {
		class := faultClasses[i%len(faultClasses)]
		token := fmt.Sprintf("t%05d", i)
		cs := sessions[i%len(sessions)]
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			args := map[string]any{"fault": class, "token": token}
			if class == "invalid" {
				args["extra"] = 1
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			if class == "cancel" {
				ctx, cancel = context.WithTimeout(context.Background(), 20*time.Millisecond)
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "fault", Arguments: args})
			cancel()
			problem := checkAnswer(class, token, res, err)
			mu.Lock()
			defer mu.Unlock()
			r.calls++
			r.faults[class]++
			if problem != "" {
				r.wrong = append(r.wrong, class+" "+token+": "+problem)
			}
		})
	}
	wg.Wait()
	return r
}

func report(t *testing.T, transport string, r loadResult) {
	t.Helper()
	t.Logf("%s: %d calls, faults per class %v, %d wrong answers", transport, r.calls, r.faults, len(r.wrong))
	for i, w := range r.wrong {
		if i == 10 {
			t.Errorf("… and %d more", len(r.wrong)-10)
			break
		}
		t.Error(w)
	}
}

// heapInUse is the live heap after a full collection.
func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// Not parallel: goroutines and memory are compared with the process's own.
func TestLoadWithFaultsOverHTTP(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	heapBefore := heapInUse()
	goroutinesBefore := runtime.NumGoroutine()

	func() {
		up := upstream503()
		defer up.Close()
		logs := &wiretest.LogBuffer{}
		srv, err := mcpcore.NewServer(mcpcore.Info{Name: "load", Version: "1"},
			&mcpcore.ServerOptions{Logger: slog.New(mcpcore.NewLogHandler(logs, &mcpcore.LogOptions{Level: slog.LevelInfo, JSON: true}))},
			faultTool(up.URL))
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(srv.Handler())
		defer ts.Close()
		// Keep-alive connections would outlive the test; the goroutine
		// check is about the server's goroutines.
		httpClient := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
		var sessions []*mcp.ClientSession
		for range 4 {
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "load", Version: "1"}, nil).Connect(context.Background(),
				&mcp.StreamableClientTransport{Endpoint: ts.URL + mcpcore.HTTPPath, HTTPClient: httpClient}, nil)
			if err != nil {
				t.Fatal(err)
			}
			sessions = append(sessions, cs)
		}
		r := runLoad(t, sessions, *loadCalls, *loadConcurrency)
		report(t, "HTTP", r)
		// The server still answers.
		res := wiretest.CallTool(t, sessions[0], "fault", map[string]any{"fault": "ok", "token": "last"})
		if problem := checkAnswer("ok", "last", res, nil); problem != "" {
			t.Errorf("after the load: %s", problem)
		}
		for _, cs := range sessions {
			cs.Close()
		}
		t.Logf("HTTP: %d log records for %d calls", len(logs.Records(t)), r.calls)
	}()

	if n := cancelsNotSeen.Load(); n > 0 {
		t.Logf("HTTP: %d cancelled calls never saw their cancellation", n)
	}
	mcptest.WaitFor(t, "goroutines back to baseline", func() bool { return runtime.NumGoroutine() <= goroutinesBefore })
	heapAfter := heapInUse()
	t.Logf("HTTP: goroutines %d before, %d after; heap %d KB before, %d KB after",
		goroutinesBefore, runtime.NumGoroutine(), heapBefore/1024, heapAfter/1024)
	if heapAfter > heapBefore+16<<20 {
		t.Errorf("heap grew from %d KB to %d KB", heapBefore/1024, heapAfter/1024)
	}
}

// loadServerEnv makes the test binary a stdio server of the fault tool, for
// TestLoadWithFaultsOverStdio.
const loadServerEnv = "MCPCORE_LOAD_SERVER_UPSTREAM"

func TestLoadServerProcess(t *testing.T) {
	upstream := os.Getenv(loadServerEnv)
	if upstream == "" {
		t.Skip("the stdio server of TestLoadWithFaultsOverStdio")
	}
	baseline := goleak.IgnoreCurrent()
	srv, err := mcpcore.NewServer(mcpcore.Info{Name: "load", Version: "1"}, &mcpcore.ServerOptions{}, faultTool(upstream))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if err := srv.Serve(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	// Every goroutine the session started is gone once it ends.
	if err := goleak.Find(baseline); err != nil {
		fmt.Fprintln(os.Stderr, "leaked goroutines:", err)
		os.Exit(3)
	}
	os.Exit(0)
}

func TestLoadWithFaultsOverStdio(t *testing.T) {
	t.Parallel()
	up := upstream503()
	defer up.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^TestLoadServerProcess$")
	cmd.Env = append(os.Environ(), loadServerEnv+"="+up.URL)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "load", Version: "1"}, nil).
		Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := runLoad(t, []*mcp.ClientSession{cs}, *loadCalls, *loadConcurrency)
	report(t, "stdio", r)
	res := wiretest.CallTool(t, cs, "fault", map[string]any{"fault": "ok", "token": "last"})
	if problem := checkAnswer("ok", "last", res, nil); problem != "" {
		t.Errorf("after the load: %s", problem)
	}
	if cmd.ProcessState != nil {
		t.Fatalf("the server died: %v\n%s", cmd.ProcessState, stderr.String())
	}
	// Closing stdin ends the server cleanly.
	if err := cs.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if cmd.ProcessState == nil || !cmd.ProcessState.Success() {
		t.Errorf("server exit: %v\n%s", cmd.ProcessState, stderr.String())
	}
	t.Logf("stdio: %d log lines for %d calls", strings.Count(stderr.String(), "\n"), r.calls)
}
