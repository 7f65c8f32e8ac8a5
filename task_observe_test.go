package mcpcore_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcpclient"
	"github.com/seed417024ea/mcpcore/mcperr"
	"github.com/seed417024ea/mcpcore/mcptest"
)

// eventLog is what an observer was told, in order.
type eventLog struct {
	mu     sync.Mutex
	events []string
	ended  []mcpcore.CallOutcome
}

func (l *eventLog) add(e string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, e)
}

func (l *eventLog) snapshot() ([]string, []mcpcore.CallOutcome) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.events...), append([]mcpcore.CallOutcome(nil), l.ended...)
}

// plainObserver's observations have End only, as every observer written
// before tasks; taskObserver's are also told of the boundary.
type plainObserver struct{ log *eventLog }

type plainCall struct{ log *eventLog }

func (o plainObserver) StartCall(ctx context.Context, c mcpcore.CallInfo) (context.Context, mcpcore.CallObservation) {
	o.log.add("start " + c.Name)
	return ctx, plainCall(o)
}
func (plainObserver) StartSession(mcpcore.SessionInfo) mcpcore.SessionObservation { return nil }
func (plainObserver) TraceIDs(context.Context) (string, string)                   { return "", "" }

func (c plainCall) End(o mcpcore.CallOutcome) {
	c.log.mu.Lock()
	defer c.log.mu.Unlock()
	c.log.events = append(c.log.events, "end")
	c.log.ended = append(c.log.ended, o)
}

type taskObserver struct{ plainObserver }

type taskAwareCall struct{ plainCall }

func (o taskObserver) StartCall(ctx context.Context, c mcpcore.CallInfo) (context.Context, mcpcore.CallObservation) {
	ctx, _ = o.plainObserver.StartCall(ctx, c)
	return ctx, taskAwareCall{plainCall(o.plainObserver)}
}

func (c taskAwareCall) BecameTask(id string) { c.log.add("task " + id) }

// TestTaskObservation: an observation is ended once, at the task's end,
// with its final outcome; one that has BecameTask is told of the boundary
// first, with the task's id; one without it sees one long call.
func TestTaskObservation(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		obs  func(*eventLog) mcpcore.Observer
		told bool
	}{
		{"without BecameTask", func(l *eventLog) mcpcore.Observer { return plainObserver{l} }, false},
		{"with BecameTask", func(l *eventLog) mcpcore.Observer { return taskObserver{plainObserver{l}} }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			l := &eventLog{}
			c := mcptest.StartWith(t, mcpcore.Info{Name: "observed-tasks", Version: "1"},
				&mcptest.Options{Server: &mcpcore.ServerOptions{Observer: tc.obs(l)}},
				jobTool("job", mcpcore.TaskSupport{Mode: mcpcore.TaskRequired, After: mcpcore.TaskAtOnce, PollInterval: mcpclient.MinPollInterval}, nil))
			created, err := c.Session.CallTool(context.Background(), &mcp.CallToolParams{Name: "job", Arguments: map[string]any{"mode": "fail"}})
			if err != nil {
				t.Fatal(err)
			}
			task := mcpclient.TaskOf(created)
			if task == nil {
				t.Fatalf("answered at once: %+v", created)
			}
			res, err := mcpclient.AwaitTask(context.Background(), c.Session, "job", created)
			if err != nil {
				t.Fatal(err)
			}
			mcptest.AssertFailure(t, res, taskNoMatch)
			events, ended := l.snapshot()
			want := []string{"start job", "end"}
			if tc.told {
				want = []string{"start job", "task " + task.TaskID, "end"}
			}
			if !slices.Equal(events, want) {
				t.Errorf("the observer was told %q, want %q", events, want)
			}
			if len(ended) != 1 || !ended[0].Failed || ended[0].Code != mcperr.CodeNotFound || ended[0].Message != "No article matches PMID 1." {
				t.Errorf("ended with %+v, want the declared failure once", ended)
			}
		})
	}
}
