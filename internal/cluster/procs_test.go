package cluster

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// A proc is a process the test started, in a process group of its own so
// that it and anything it starts are stopped together.
type proc struct {
	name string
	cmd  *exec.Cmd
	done chan struct{}
	err  error
}

var pidMu sync.Mutex

// recordPID appends a started process's id to the pid file, from which
// scripts/cluster.sh stops whatever a test killed mid-run left behind.
func recordPID(pid int) {
	f := os.Getenv("MCPCORE_CLUSTER_PIDS")
	if f == "" {
		return
	}
	pidMu.Lock()
	defer pidMu.Unlock()
	if fh, err := os.OpenFile(f, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
		fmt.Fprintln(fh, pid)
		fh.Close()
	}
}

// start runs argv with env added to the test's environment, its output
// going to <out>/<name>.log, and kills its group when the test ends.
func start(t *testing.T, name string, env []string, argv ...string) *proc {
	t.Helper()
	log, err := os.OpenFile(filepath.Join(outDir(), name+".log"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		log.Close()
		t.Fatalf("starting %s: %v", name, err)
	}
	recordPID(cmd.Process.Pid)
	p := &proc{name: name, cmd: cmd, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		log.Close()
		close(p.done)
	}()
	t.Cleanup(func() { p.kill() })
	return p
}

// signal sends sig to the process's group.
func (p *proc) signal(sig syscall.Signal) { _ = syscall.Kill(-p.cmd.Process.Pid, sig) }

// kill stops the group at once and waits for the process.
func (p *proc) kill() {
	select {
	case <-p.done:
		return
	default:
	}
	p.signal(syscall.SIGCONT) // a stopped process must run to die
	p.signal(syscall.SIGKILL)
	<-p.done
}

// wait waits up to d for the process to exit.
func (p *proc) wait(d time.Duration) bool {
	select {
	case <-p.done:
		return true
	case <-time.After(d):
		return false
	}
}

// freePort is a loopback port free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

func addr(port int) string { return "127.0.0.1:" + strconv.Itoa(port) }

// waitHTTP waits until GET url answers 200.
func waitHTTP(t *testing.T, url string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not answer 200 within %s (last: %v)", url, within, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitTCP waits until something listens on a.
func waitTCP(t *testing.T, a string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		c, err := net.DialTimeout("tcp", a, 200*time.Millisecond)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("nothing listens on %s after %s: %v", a, within, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func outDir() string {
	if d := os.Getenv("MCPCORE_CLUSTER_OUT"); d != "" {
		return d
	}
	return os.TempDir()
}

// ctxFor is a context that ends after d or with the test.
func ctxFor(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}
