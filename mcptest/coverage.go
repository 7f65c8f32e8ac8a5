package mcptest

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"text/tabwriter"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/fleet"
	"github.com/seed417024ea/mcpcore/mcpclient"
)

// Contract coverage: every tools/call answered through a client of the kit
// ([Start]) is read on the wire, whichever API made the call, and each
// declared reason it failed with is counted, for the test binary as a
// whole. [RequireCoverage] then names the declared reasons no test saw.

var coverProfile = flag.String("mcptest.coverprofile", "",
	"write the contract coverage of the tools served by mcptest.Start (per tool, the declared reasons seen on the wire) to this file")

// observed counts, per tool, the reasons its failures carried on the wire.
var observed = struct {
	sync.Mutex
	reasons map[string]map[string]int
}{reasons: map[string]map[string]int{}}

func observe(tool, reason string) {
	observed.Lock()
	defer observed.Unlock()
	if observed.reasons[tool] == nil {
		observed.reasons[tool] = map[string]int{}
	}
	observed.reasons[tool][reason]++
}

// Observed returns how many times each reason was seen on the wire in
// failures of tool during this test binary's run, so far.
func Observed(tool string) map[string]int {
	observed.Lock()
	defer observed.Unlock()
	return maps.Clone(observed.reasons[tool])
}

// recorder is a transport that reads every tools/call result that crosses
// it, and counts the reasons of failures: those answered at once, and those
// a task the call became completed with (read from the answer to the
// tasks/get that found it completed).
type recorder struct{ mcp.Transport }

func (r recorder) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := r.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &recordingConn{Connection: conn, calls: map[any]string{}, polls: map[any]string{}, tasks: map[string]string{}}, nil
}

type recordingConn struct {
	mcp.Connection
	mu    sync.Mutex
	calls map[any]string    // request id → tool name, for calls in flight
	polls map[any]string    // request id → task id, for tasks/get in flight
	tasks map[string]string // task id → tool name, for tasks not yet seen ended
}

func (c *recordingConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if req, ok := msg.(*jsonrpc.Request); ok && req.ID.IsValid() {
		switch req.Method {
		case "tools/call":
			var p struct {
				Name string `json:"name"`
			}
			if json.Unmarshal(req.Params, &p) == nil {
				c.mu.Lock()
				c.calls[req.ID.Raw()] = p.Name
				c.mu.Unlock()
			}
		case "tasks/get":
			var p struct {
				TaskID string `json:"taskId"`
			}
			if json.Unmarshal(req.Params, &p) == nil {
				c.mu.Lock()
				if _, ok := c.tasks[p.TaskID]; ok {
					c.polls[req.ID.Raw()] = p.TaskID
				}
				c.mu.Unlock()
			}
		}
	}
	return c.Connection.Write(ctx, msg)
}

func (c *recordingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if resp, ok := msg.(*jsonrpc.Response); ok && err == nil {
		c.mu.Lock()
		tool, isCall := c.calls[resp.ID.Raw()]
		delete(c.calls, resp.ID.Raw())
		taskID, isPoll := c.polls[resp.ID.Raw()]
		delete(c.polls, resp.ID.Raw())
		c.mu.Unlock()
		switch {
		case resp.Error != nil:
		case isCall:
			c.readCall(tool, resp.Result)
		case isPoll:
			c.readPoll(taskID, resp.Result)
		}
	}
	return msg, err
}

// taskAnswer is what the recorder reads of a CreateTaskResult and of the
// answer to tasks/get.
type taskAnswer struct {
	ResultType string           `json:"resultType"`
	TaskID     string           `json:"taskId"`
	Status     fleet.TaskStatus `json:"status"`
	Result     json.RawMessage  `json:"result"`
}

// readCall reads the answer to a tools/call of tool: a result, counted,
// or a task, whose end the polls will tell.
func (c *recordingConn) readCall(tool string, result json.RawMessage) {
	var task taskAnswer
	if json.Unmarshal(result, &task) == nil && task.ResultType == "task" && task.TaskID != "" {
		c.mu.Lock()
		c.tasks[task.TaskID] = tool
		c.mu.Unlock()
		return
	}
	countFailure(tool, result)
}

// readPoll reads the answer to a tasks/get of taskID: once the task has
// ended, its result counts as the call's, once.
func (c *recordingConn) readPoll(taskID string, result json.RawMessage) {
	var task taskAnswer
	if json.Unmarshal(result, &task) != nil || !task.Status.Terminal() {
		return
	}
	c.mu.Lock()
	tool, ok := c.tasks[taskID]
	delete(c.tasks, taskID)
	c.mu.Unlock()
	if ok && task.Status == fleet.TaskCompleted {
		countFailure(tool, task.Result)
	}
}

// countFailure counts the reason of result, a CallToolResult of tool, when
// it is a failure that carries one.
func countFailure(tool string, result json.RawMessage) {
	var res mcp.CallToolResult
	if json.Unmarshal(result, &res) != nil {
		return
	}
	if e := mcpclient.ErrorOf(&res); e != nil {
		if reason, _ := e.Data()["reason"].(string); reason != "" {
			observe(tool, reason)
		}
	}
}

// A Coverage is the contract coverage of a set of tools.
type Coverage struct {
	// Tools lists, per tool in name order, each declared reason and the
	// number of times a failure carried it on the wire.
	Tools []ToolCoverage
}

// ToolCoverage is the coverage of one tool's declared reasons.
type ToolCoverage struct {
	Tool    string
	Reasons []ReasonCoverage
}

// ReasonCoverage is how often one declared reason was seen.
type ReasonCoverage struct {
	Reason string
	Seen   int
}

// Uncovered returns "tool: reason" for every declared reason never seen.
func (c Coverage) Uncovered() []string {
	var out []string
	for _, t := range c.Tools {
		for _, r := range t.Reasons {
			if r.Seen == 0 {
				out = append(out, t.Tool+": "+r.Reason)
			}
		}
	}
	return out
}

// WriteTo writes the coverage as a table: per tool, each declared reason,
// covered or not, and how many failures carried it.
func (c Coverage) WriteTo(w io.Writer) (int64, error) {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TOOL\tREASON\tSEEN\t")
	covered, declared := 0, 0
	for _, t := range c.Tools {
		for _, r := range t.Reasons {
			declared++
			mark := "uncovered"
			if r.Seen > 0 {
				covered++
				mark = fmt.Sprint(r.Seen)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t\n", t.Tool, r.Reason, mark)
		}
	}
	tw.Flush()
	fmt.Fprintf(&b, "%d of %d declared reasons covered\n", covered, declared)
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}

// CoverageOf returns the coverage of the tools among defs that declare an
// error contract, from what this test binary has seen so far. It reads the
// contracts as clients do, from the tools/list of a server built from defs.
func CoverageOf(defs ...mcpcore.Definition) (Coverage, error) {
	contracts, err := contractsOf(defs)
	if err != nil {
		return Coverage{}, err
	}
	var c Coverage
	for _, tool := range slices.Sorted(maps.Keys(contracts)) {
		seen := Observed(tool)
		tc := ToolCoverage{Tool: tool}
		for _, f := range contracts[tool] {
			tc.Reasons = append(tc.Reasons, ReasonCoverage{Reason: f.Reason, Seen: seen[f.Reason]})
		}
		c.Tools = append(c.Tools, tc)
	}
	return c, nil
}

// contractsOf lists the published contract of every tool of defs.
func contractsOf(defs []mcpcore.Definition) (map[string][]mcpcore.Failure, error) {
	srv, err := mcpcore.NewServer(mcpcore.Info{Name: "mcptest-coverage"}, &mcpcore.ServerOptions{
		Logger: discard}, defs...)
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	cs, closeSession, err := connect(srv, "mcptest-coverage", nil, "", false, false)
	if err != nil {
		return nil, err
	}
	defer closeSession()
	out := map[string][]mcpcore.Failure{}
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		contract, err := mcpclient.Contract(tool)
		if err != nil {
			return nil, fmt.Errorf("tool %s: %w", tool.Name, err)
		}
		if len(contract) > 0 {
			out[tool.Name] = contract
		}
	}
	return out, nil
}

// RequireCoverage runs the tests of m, then fails the run when a tool of
// defs declares a reason that no failure seen on the wire carried, naming
// each. Call it from TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(mcptest.RequireCoverage(m, definitions()...)) }
//
// Only calls made through a client of [Start] are seen. A run of part of
// the tests (-run, -short) would rarely cover everything: the check applies
// only to a run of every test, and otherwise the table is printed with -v.
// With -mcptest.coverprofile=FILE the table is also written to FILE.
func RequireCoverage(m *testing.M, defs ...mcpcore.Definition) int {
	code := m.Run()
	cov, err := CoverageOf(defs...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcptest: contract coverage:", err)
		return 1
	}
	if *coverProfile != "" {
		f, err := os.Create(*coverProfile)
		if err == nil {
			_, err = cov.WriteTo(f)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "mcptest: writing the contract coverage:", err)
			return 1
		}
	}
	partial := flagSet("test.run") || flagSet("test.skip") || testing.Short()
	uncovered := cov.Uncovered()
	switch {
	case code != 0:
		return code
	case len(uncovered) > 0 && !partial:
		noun := "reasons were"
		if len(uncovered) == 1 {
			noun = "reason was"
		}
		fmt.Fprintf(os.Stderr, "mcptest: FAIL: contract coverage: %d declared %s never seen on the wire; test each with a call that fails with it:\n", len(uncovered), noun)
		for _, u := range uncovered {
			fmt.Fprintln(os.Stderr, "  "+u)
		}
		cov.WriteTo(os.Stderr)
		return 1
	case testing.Verbose():
		cov.WriteTo(os.Stdout)
	}
	return code
}

// flagSet reports whether the flag name was given a non-empty value.
func flagSet(name string) bool {
	f := flag.Lookup(name)
	return f != nil && f.Value.String() != ""
}
