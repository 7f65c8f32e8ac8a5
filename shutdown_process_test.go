package mcpcore_test

// Shutdown of a real process, by signal or by the end of its input, with a
// handler that ignores its cancellation: app.App.Run must return, and the
// process end, all the same.

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/app"
	"github.com/seed417024ea/mcpcore/mcpotel"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
)

// shutdownChildEnv runs TestShutdownServerProcess as a server, over the
// transport it names (stdio or http).
const shutdownChildEnv = "MCPCORE_SHUTDOWN_CHILD"

// TestShutdownServerProcess is the server of TestShutdownOfAProcess: app.Run,
// with a stubborn handler that never returns, whatever its context says,
// and a polite one (see stubbornTools). Each handler writes a line to
// stderr as it starts.
func TestShutdownServerProcess(t *testing.T) {
	transport := os.Getenv(shutdownChildEnv)
	if transport == "" {
		t.Skip("the server of TestShutdownOfAProcess")
	}
	started := make(chan string, 2)
	go func() {
		for name := range started {
			fmt.Fprintln(os.Stderr, "started", name)
		}
	}()
	a, err := app.New(mcpcore.Info{Name: "stubborn", Version: "1"},
		app.Config{Transport: app.Transport(transport), HTTPPort: app.AnyPort},
		&app.Options{Server: &mcpcore.ServerOptions{
			ShutdownTimeout: 200 * time.Millisecond,
			// Sessions measured are sessions closed at the end: that must
			// not wait for the stubborn handler either.
			Observer: otelObserver(t, mcpotel.Options{MeterProvider: sdkmetric.NewMeterProvider()}),
		}}, stubbornTools(started, make(chan struct{}))...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if err := a.Run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// A child is a server process of TestShutdownServerProcess.
type child struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr chan string // its lines
	stdout chan string // its lines, over stdio
	exited chan error
}

func startChild(t *testing.T, transport string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestShutdownServerProcess$")
	cmd.Env = append(os.Environ(), shutdownChildEnv+"="+transport)
	c := &child{cmd: cmd, stderr: make(chan string, 256), stdout: make(chan string, 256), exited: make(chan error, 1)}
	var err error
	if c.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := func(r io.Reader, ch chan<- string, done chan<- struct{}) {
		defer close(done)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			select {
			case ch <- sc.Text():
			default: // nobody needs that many
			}
		}
	}
	outDone, errDone := make(chan struct{}), make(chan struct{})
	go lines(stdout, c.stdout, outDone)
	go lines(stderr, c.stderr, errDone)
	go func() {
		<-outDone
		<-errDone
		c.exited <- cmd.Wait()
	}()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
		}
	})
	return c
}

// await returns the first stderr line that contains s.
func (c *child) await(t *testing.T, s string) string {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case l := <-c.stderr:
			if strings.Contains(l, s) {
				return l
			}
		case <-deadline:
			t.Fatalf("the server never logged %q", s)
		}
	}
}

// TestShutdownOfAProcess checks that SIGTERM, SIGINT and the end of stdin
// each end a stdio server whose handler ignores its cancellation, as
// SIGTERM ends an HTTP one, and that the call that honoured its
// cancellation is answered first.
func TestShutdownOfAProcess(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, transport string
		end             func(*child)
	}{
		{"stdio SIGTERM", "stdio", func(c *child) { c.cmd.Process.Signal(syscall.SIGTERM) }},
		{"stdio SIGINT", "stdio", func(c *child) { c.cmd.Process.Signal(syscall.SIGINT) }},
		{"stdio EOF", "stdio", func(c *child) { c.stdin.Close() }},
		{"http SIGTERM", "http", func(c *child) { c.cmd.Process.Signal(syscall.SIGTERM) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := startChild(t, tc.transport)
			var polite <-chan callResult
			if tc.transport == "stdio" {
				io.WriteString(c.stdin, initLine("2025-06-18")+`{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"+
					`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"stubborn","arguments":{}}}`+"\n"+
					`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"polite","arguments":{}}}`+"\n")
			} else {
				l := c.await(t, "Connect an MCP client to ")
				url := strings.TrimSuffix(l[strings.Index(l, "http://"):], `"`)
				cs, err := mcp.NewClient(&mcp.Implementation{Name: "shutdown", Version: "1"}, nil).
					Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, nil)
				if err != nil {
					t.Fatal(err)
				}
				defer cs.Close()
				callAsync(cs, "stubborn", map[string]any{})
				polite = callAsync(cs, "polite", map[string]any{})
			}
			c.await(t, "started ")
			c.await(t, "started ")
			tc.end(c)
			select {
			case err := <-c.exited:
				if err != nil {
					t.Errorf("the server exited with %v", err)
				}
			case <-time.After(60 * time.Second):
				t.Fatal("the server still runs a minute after it was told to stop")
			}
			if polite != nil {
				r := receive(t, "the polite call's answer", polite)
				if r.err != nil || !r.res.IsError || !strings.Contains(fmt.Sprint(r.res.StructuredContent), "-32011") {
					t.Errorf("the polite call got %+v, %v; want a RequestCancelled (-32011) result", r.res, r.err)
				}
				return
			}
			answered := false
			for len(c.stdout) > 0 {
				l := <-c.stdout
				answered = answered || cancelledAnswer(l) == 2
			}
			if !answered {
				t.Error("the polite call got no RequestCancelled (-32011) answer on stdout")
			}
		})
	}
}
