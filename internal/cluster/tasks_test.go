package cluster

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	mcpfleet "github.com/seed417024ea/mcpcore/fleet"
	"github.com/seed417024ea/mcpcore/mcpclient"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// taskSession connects a client that takes tasks (mcpclient's) to url,
// stateless, protocol 2026-07-28: through the balancer, each request
// lands on the next replica. It declares elicitation, which the ask tool
// needs; the test answers its question itself, with tasks/update.
func taskSession(t *testing.T, url string) *mcp.ClientSession {
	t.Helper()
	client := mcpclient.NewClient(&mcp.Implementation{Name: "cluster", Version: "1"},
		&mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{}}})
	transport := mcpclient.Transport(&mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1, HTTPClient: mcpclient.HTTPClient(nil)})
	cs, err := client.Connect(ctxFor(t, 10*time.Second), transport, &mcp.ClientSessionOptions{ProtocolVersion: "2026-07-28"})
	if err != nil {
		t.Fatalf("connecting to %s: %v", url, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// startTask calls tool, which runs only as a task, and returns the task's
// id.
func startTask(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) string {
	t.Helper()
	// A replica that has not yet seen Redis come back refuses a task
	// retryable, for at most its once-a-second probe: a client retries.
	deadline := time.Now().Add(10 * time.Second)
	for {
		res, err := cs.CallTool(ctxFor(t, 10*time.Second), &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			t.Fatalf("calling %s: %v", tool, err)
		}
		if task := mcpclient.TaskOf(res); task != nil {
			return task.TaskID
		}
		if !mcpclient.Retryable(mcpclient.ErrorOf(res), nil) || time.Now().After(deadline) {
			t.Fatalf("%s answered without a task: %+v", tool, res)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// getTask reads task id once, within 2 s: a stopped replica behind the
// balancer costs a read, not the test.
func getTask(cs *mcp.ClientSession, id string) (*mcpclient.DetailedTask, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	return mcpclient.GetTask(ctx, cs, id)
}

// awaitStatus reads task id every 100 ms until its status is want, for
// at most within; it returns the task as last read and when it was read
// with that status (zero if never).
func awaitStatus(cs *mcp.ClientSession, id string, want mcpfleet.TaskStatus, within time.Duration) (*mcpclient.DetailedTask, time.Time, error) {
	deadline := time.Now().Add(within)
	var last *mcpclient.DetailedTask
	var lastErr error
	for time.Now().Before(deadline) {
		d, err := getTask(cs, id)
		if err == nil {
			last, lastErr = d, nil
			if d.Status == want {
				return d, time.Now(), nil
			}
		} else {
			lastErr = err
		}
		time.Sleep(100 * time.Millisecond)
	}
	return last, time.Time{}, lastErr
}

// rpcError is the JSON-RPC error of a failed task.
type rpcError struct {
	Code    int            `json:"code"`
	Message string         `json:"message"`
	Data    map[string]any `json:"data"`
}

// failedRetryable reports whether d is a task failed with
// ServiceUnavailable, retryable, and says what it is.
func failedRetryable(d *mcpclient.DetailedTask) (bool, string) {
	if d == nil {
		return false, "no task read"
	}
	var e rpcError
	_ = json.Unmarshal(d.Error, &e)
	ok := d.Status == mcpfleet.TaskFailed && e.Code == -32000 && e.Data["retryable"] == true
	return ok, fmt.Sprintf("%s %d %q retryable=%v", d.Status, e.Code, e.Message, e.Data["retryable"])
}

// unknownTask reports whether err is the answer for a task id no one
// knows: InvalidParams.
func unknownTask(err error) bool {
	e, ok := err.(*mcperr.Error)
	return ok && e.Code() == -32602
}

// A taskEvent is a line a task tool of the fleet server wrote (see
// fleetserver/tasks.go): which replica, and when.
type taskEvent struct {
	replica int // 0-based
	at      time.Time
}

var eventLine = regexp.MustCompile(`^fleet: task (\S+) (.*) on r(\d) at (\d+)$`)

// findEvent looks in the replicas' logs for the line of task id whose
// event starts with what.
func findEvent(id, what string) (taskEvent, bool) {
	for i := range 3 {
		f, err := os.Open(filepath.Join(outDir(), fmt.Sprintf("r%d.log", i+1)))
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		for sc.Scan() {
			m := eventLine.FindStringSubmatch(sc.Text())
			if m == nil || m[1] != id || !strings.HasPrefix(m[2], what) {
				continue
			}
			r, _ := strconv.Atoi(m[3])
			ns, _ := strconv.ParseInt(m[4], 10, 64)
			f.Close()
			return taskEvent{replica: r - 1, at: time.Unix(0, ns)}, true
		}
		f.Close()
	}
	return taskEvent{}, false
}

// awaitEvent waits up to within for the line findEvent finds.
func awaitEvent(id, what string, within time.Duration) (taskEvent, bool) {
	deadline := time.Now().Add(within)
	for {
		if e, ok := findEvent(id, what); ok {
			return e, true
		}
		if time.Now().After(deadline) {
			return taskEvent{}, false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// awaitLog waits up to within for a line of replica i's log holding text,
// and returns when it was first seen.
func awaitLog(i int, text string, within time.Duration) (time.Time, bool) {
	deadline := time.Now().Add(within)
	for {
		b, _ := os.ReadFile(filepath.Join(outDir(), fmt.Sprintf("r%d.log", i+1)))
		if strings.Contains(string(b), text) {
			return time.Now(), true
		}
		if time.Now().After(deadline) {
			return time.Time{}, false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// other is a replica other than i.
func other(i int) int { return (i + 1) % 3 }
