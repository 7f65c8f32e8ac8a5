package main

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
)

// These tests run the example as users do, as a separate process, over
// stdio and over Streamable HTTP.

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// binary builds the example once per test run.
func binary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the example binary")
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "articles-bin")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "articles")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			buildErr = err
			t.Logf("go build: %s", out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// removeBinary removes the binary built for the tests, once they ran (see
// TestMain).
func removeBinary() {
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
}

func TestStdio(t *testing.T) {
	cmd := exec.Command(binary(t))
	cmd.Env = append(os.Environ(), "MCP_TRANSPORT_TYPE=stdio", "MCP_LOG_FORMAT=text")
	stderr := &wiretest.LogBuffer{}
	cmd.Stderr = stderr
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "stdio-test"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := wiretest.CallTool(t, cs, "fetch_articles", map[string]any{"pmids": []string{"queue_full"}})
	wiretest.AssertJSON(t, "structuredContent", res.StructuredContent, `{"error":{"code":-32003,"message":"Queue at capacity","data":{"retryable":true,"reason":"queue_full","recovery":{"hint":"Wait 30 seconds and retry, or reduce batch size."}}}}`)
	// A panic does not take the process down: the next call still works.
	res = wiretest.CallTool(t, cs, "fetch_articles", map[string]any{"pmids": []string{"panic"}})
	if !res.IsError {
		t.Error("panic call: isError = false")
	}
	res = wiretest.CallTool(t, cs, "echo", map[string]any{"message": "still here"})
	wiretest.AssertJSON(t, "structuredContent", res.StructuredContent, `{"message":"still here"}`)
	if err := cs.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	logs := stderr.String()
	first, _, _ := strings.Cut(logs, "\n")
	if !strings.Contains(first, `serving \"articles\" 1.0.0 over stdio`) || !strings.Contains(first, "7 tools, 1 resource, 1 prompt") {
		t.Errorf("first log line = %q, want it to say what is served and how", first)
	}
	if strings.Contains(logs, "nil pointer dereference") == false {
		t.Errorf("the panic's value is not in the log:\n%s", logs)
	}
}

var listening = regexp.MustCompile(`Connect an MCP client to (http://\S+/mcp)`)

// startHTTP runs the example over HTTP on a free port and returns its URL
// and its log lines from then on.
func startHTTP(t *testing.T, env ...string) (*exec.Cmd, string, <-chan string) {
	t.Helper()
	cmd := exec.Command(binary(t))
	cmd.Env = append(os.Environ(), append([]string{"MCP_TRANSPORT_TYPE=http", "MCP_HTTP_PORT=0"}, env...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := bufio.NewScanner(stderr)
	for lines.Scan() {
		if m := listening.FindStringSubmatch(lines.Text()); m != nil {
			rest := make(chan string, 100)
			go func() {
				for lines.Scan() {
					select {
					case rest <- lines.Text():
					default: // nobody is reading: drop
					}
				}
				close(rest)
			}()
			return cmd, m[1], rest
		}
	}
	t.Fatal("the server never said where it listens")
	return nil, "", nil
}

func TestHTTP(t *testing.T) {
	for _, mode := range []string{"stateful", "stateless"} {
		t.Run(mode, func(t *testing.T) {
			cmd, url, rest := startHTTP(t, "MCP_SESSION_MODE="+mode)
			if mode == "stateless" {
				// Written right after the line that says where it listens.
				select {
				case line := <-rest:
					if !strings.Contains(line, "no MCP_STATE_KEYS") || !strings.Contains(line, "level=WARN") {
						t.Errorf("the line after the start = %q, want the warning about MCP_STATE_KEYS", line)
					}
				case <-time.After(5 * time.Second):
					t.Error("no warning about MCP_STATE_KEYS at the start of a stateless server")
				}
			}
			ctx := context.Background()
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "http-test"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
			if err != nil {
				t.Fatal(err)
			}
			res := wiretest.CallTool(t, cs, "fetch_articles", map[string]any{"pmids": []string{"override"}})
			wiretest.AssertJSON(t, "structuredContent", res.StructuredContent, `{"error":{"code":-32001,"message":"No item 9","data":{"reason":"no_match","recovery":{"hint":"No item 9; try IDs 1-100 instead."}}}}`)
			res = wiretest.CallTool(t, cs, "echo", map[string]any{"message": "over http"})
			wiretest.AssertJSON(t, "structuredContent", res.StructuredContent, `{"message":"over http"}`)
			cs.Close()

			// SIGTERM: the server shuts down gracefully and exits 0.
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			select {
			case err := <-exited:
				if err != nil {
					t.Errorf("exit after SIGTERM: %v", err)
				}
			case <-time.After(20 * time.Second):
				t.Error("server did not exit after SIGTERM")
			}
		})
	}
}

// TestHTTPGracefulShutdown sends SIGTERM while a slow call is in flight: the
// call still completes with its result before the process exits.
func TestHTTPGracefulShutdown(t *testing.T) {
	cmd, url, logs := startHTTP(t)
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "http-test"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	result := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "fetch_articles", Arguments: map[string]any{"pmids": []string{"slow"}}})
		if err != nil {
			t.Errorf("slow call: %v", err)
		}
		result <- res
	}()
	for line := range logs { // wait until the handler runs
		if strings.Contains(line, "slow: waiting") {
			break
		}
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	res := <-result
	if res == nil {
		return
	}
	wiretest.AssertJSON(t, "structuredContent", res.StructuredContent, `{"articles":["slow"]}`)
	if err := cmd.Wait(); err != nil {
		t.Errorf("exit after SIGTERM: %v", err)
	}
}

// TestBadEnvironmentStopsTheStart: app.Main reads the environment, and
// a value it cannot use stops the program at once, with status 1 and an
// error on stderr that names every bad variable.
func TestBadEnvironmentStopsTheStart(t *testing.T) {
	cmd := exec.Command(binary(t))
	cmd.Env = append(os.Environ(), "MCP_TRANSPORT_TYPE=http", "MCP_HTTP_PORT=http", "MCP_AUTH_MODE=jwt")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("the server ended with %v, want exit status 1; stderr:\n%s", err, stderr.String())
	}
	for _, want := range []string{"mcpcore: bad configuration", `MCP_HTTP_PORT="http": want a port number`, "MCP_AUTH_MODE=jwt needs MCP_AUTH_SECRET_KEY"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr.String())
		}
	}
}
