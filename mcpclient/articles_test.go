//lint:file-ignore SA1019 sampling, deprecated from protocol 2026-07-28 but in the protocol through its deprecation window, is one of the exchanges the reference server has.

package mcpclient_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcpclient"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// These tests call the reference server, examples/articles, as a Go program
// would: built, run as a separate process, and reached over stdio and over
// Streamable HTTP. Every failure branch of its tools, resource and prompt
// must come back as an *mcperr.Error equal in code, message and data to the
// one its handler returned. The expected errors are built from the contracts
// the server publishes in tools/list, read with mcpclient.Contracts, and the
// messages its handlers write.

// A transport connects a client with opts to one running server.
type transport struct {
	name    string
	version string // the client's protocol version; "" for the latest
	dial    func(t *testing.T, opts *mcp.ClientOptions) *mcp.ClientSession
	// asks says whether the server asks the client during the call
	// (before 2026-07-28): only then does a client that refuses to
	// sample make the call fail with the server's ServiceUnavailable.
	asks bool
}

func TestArticles(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs examples/articles")
	}
	bin := filepath.Join(t.TempDir(), "articles")
	// examples is a module of its own, beside this one.
	build := exec.Command("go", "build", "-o", bin, "./articles")
	build.Dir = filepath.Join("..", "examples")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, tr := range []transport{
		{name: "stdio", dial: stdio(bin, "")},
		{name: "stdio-2025-11-25", version: "2025-11-25", dial: stdio(bin, "2025-11-25"), asks: true},
		{name: "http-stateful"},
		{name: "http-stateless"},
	} {
		t.Run(tr.name, func(t *testing.T) {
			if tr.dial == nil {
				tr.dial = streamable(t, bin, tr.name[len("http-"):])
			}
			testArticles(t, tr)
		})
	}
}

// stdio dials a new server process for each session, over its stdin and
// stdout.
func stdio(bin, version string) func(*testing.T, *mcp.ClientOptions) *mcp.ClientSession {
	return func(t *testing.T, opts *mcp.ClientOptions) *mcp.ClientSession {
		t.Helper()
		cmd := exec.Command(bin)
		cmd.Env = append(os.Environ(), "MCP_TRANSPORT_TYPE=stdio")
		logs := &syncBuffer{}
		cmd.Stderr = logs
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "mcpclient-test"}, opts).
			Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: version})
		if err != nil {
			t.Fatalf("connecting over stdio: %v\n%s", err, logs)
		}
		t.Cleanup(func() {
			cs.Close()
			if t.Failed() {
				t.Logf("server log:\n%s", logs)
			}
		})
		return cs
	}
}

// streamable starts one server process serving Streamable HTTP on a free
// port in mode (stateful or stateless), waits until the port answers, and
// dials sessions to it.
func streamable(t *testing.T, bin, mode string) func(*testing.T, *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "MCP_TRANSPORT_TYPE=http", "MCP_HTTP_HOST=127.0.0.1",
		"MCP_HTTP_PORT="+strconv.Itoa(port), "MCP_SESSION_MODE="+mode)
	logs := &syncBuffer{}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
		if t.Failed() {
			t.Logf("server log:\n%s", logs)
		}
	})
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	for deadline := time.Now().Add(30 * time.Second); ; {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			break
		}
		select {
		case <-exited:
			t.Fatalf("the server exited before it listened:\n%s", logs)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server did not listen on %s within 30s:\n%s", addr, logs)
		}
	}
	url := "http://" + addr + "/mcp"
	return func(t *testing.T, opts *mcp.ClientOptions) *mcp.ClientSession {
		t.Helper()
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "mcpclient-test"}, opts).
			Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, nil)
		if err != nil {
			t.Fatalf("connecting to %s: %v", url, err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
}

// peer is the client's side of the exchanges: what its model answers and
// what its user answers. Tests change it between calls.
type peer struct {
	mu       sync.Mutex
	summary  string // "" refuses to sample
	action   string
	response map[string]any
}

func (p *peer) options() *mcp.ClientOptions {
	return &mcp.ClientOptions{
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			p.mu.Lock()
			defer p.mu.Unlock()
			if p.summary == "" {
				return nil, errors.New("the user rejected the sampling request")
			}
			return &mcp.CreateMessageResult{Role: "assistant", Model: "test-model", Content: &mcp.TextContent{Text: p.summary}}, nil
		},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			p.mu.Lock()
			defer p.mu.Unlock()
			return &mcp.ElicitResult{Action: p.action, Content: p.response}, nil
		},
	}
}

func (p *peer) answer(action string, response map[string]any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.action, p.response = action, response
}

// declared is the error a handler raises with ctx.Fail(f, message, …), as
// mcpcore documents it: the entry's code; the message, or When when it is
// empty; data.reason; data.retryable when the entry declares it; the
// recovery hint when the handler forwards it; and any data of its own.
func declared(f mcpcore.Failure, message string, recovery bool, extra map[string]any) *mcperr.Error {
	data := map[string]any{"reason": f.Reason}
	switch f.Retryable {
	case mcpcore.Retryable:
		data["retryable"] = true
	case mcpcore.NotRetryable:
		data["retryable"] = false
	}
	if recovery {
		data["recovery"] = map[string]any{"hint": f.Recovery}
	}
	for k, v := range extra {
		data[k] = v
	}
	if message == "" {
		message = f.When
	}
	return mcperr.New(f.Code, message, mcperr.WithData(data))
}

// plain is an error without a contract entry; data is JSON, "" for none.
func plain(code mcperr.Code, message, data string) *mcperr.Error {
	var d map[string]any
	if data != "" {
		if err := json.Unmarshal([]byte(data), &d); err != nil {
			panic(err)
		}
	}
	return mcperr.New(code, message, mcperr.WithData(d))
}

// same checks that err is an *mcperr.Error equal to want in code, message
// and data (want's data as JSON decodes it).
func same(t *testing.T, err error, want *mcperr.Error) {
	t.Helper()
	got := asError(t, err)
	wantData := want.Data()
	if wantData != nil {
		b, _ := json.Marshal(wantData)
		wantData = nil
		json.Unmarshal(b, &wantData)
	}
	if got.Code() != want.Code() || got.Message() != want.Message() || !reflect.DeepEqual(got.Data(), wantData) {
		gotJSON, _ := json.Marshal(got)
		wantJSON, _ := json.Marshal(want)
		t.Errorf("error:\n got %s\nwant %s", gotJSON, wantJSON)
	}
}

// entry returns the contract entry with the given reason.
func entry(t *testing.T, contract []mcpcore.Failure, reason string) mcpcore.Failure {
	t.Helper()
	for _, f := range contract {
		if f.Reason == reason {
			return f
		}
	}
	t.Fatalf("no %q in the contract %+v", reason, contract)
	return mcpcore.Failure{}
}

type fetchOutput struct {
	Articles []string `json:"articles"`
}

type summary struct {
	PMID    string `json:"pmid"`
	Summary string `json:"summary"`
}

type retraction struct {
	PMID   string `json:"pmid"`
	Reason string `json:"reason"`
	URI    string `json:"uri"`
}

func testArticles(t *testing.T, tr transport) {
	ctx := context.Background()
	p := &peer{summary: " \n"}
	cs := tr.dial(t, p.options())

	// The contracts, as tools/list publishes them.
	contracts, err := mcpclient.Contracts(ctx, cs)
	if err != nil {
		t.Fatal(err)
	}
	const (
		searchFirst = "Try pubmed_search_articles to discover valid PMIDs first."
		holds       = "31000001, 31000002, 31000003"
	)
	wantFetch := []mcpcore.Failure{
		{Reason: "no_match", Code: mcperr.CodeNotFound, When: "No requested PMID returned data", Recovery: searchFirst},
		{Reason: "queue_full", Code: mcperr.CodeRateLimited, When: "Local request queue is at capacity",
			Recovery: "Wait 30 seconds and retry, or reduce batch size.", Retryable: mcpcore.Retryable},
		{Reason: "ncbi_down", Code: mcperr.CodeServiceUnavailable, When: "NCBI E-utilities unreachable after retries",
			Recovery: "NCBI is degraded; retry in a few minutes.", Retryable: mcpcore.Retryable},
	}
	fetch := contracts["fetch_articles"]
	if !reflect.DeepEqual(fetch, wantFetch) {
		t.Errorf("fetch_articles contract:\n got %+v\nwant %+v", fetch, wantFetch)
	}
	var reasons []string
	for _, name := range []string{"echo", "fetch_articles", "export_articles", "notice_tool", "summarize_abstract", "retract_article"} {
		for _, f := range contracts[name] {
			reasons = append(reasons, name+":"+f.Reason)
		}
	}
	wantReasons := []string{"fetch_articles:no_match", "fetch_articles:queue_full", "fetch_articles:ncbi_down",
		"export_articles:no_match", "notice_tool:soft_limit", "summarize_abstract:unknown_pmid", "summarize_abstract:empty_summary",
		"retract_article:unknown_pmid", "retract_article:already_retracted", "retract_article:consent_declined"}
	if !reflect.DeepEqual(reasons, wantReasons) || len(contracts) != 5 {
		t.Errorf("declared failures = %v (%d tools), want %v (5 tools; echo declares none)", reasons, len(contracts), wantReasons)
	}
	if t.Failed() {
		t.FailNow()
	}
	notice := contracts["notice_tool"]
	summarize := contracts["summarize_abstract"]
	retract := contracts["retract_article"]

	t.Run("fetch_articles", func(t *testing.T) {
		noMatch, queueFull, ncbiDown := entry(t, fetch, "no_match"), entry(t, fetch, "queue_full"), entry(t, fetch, "ncbi_down")
		for _, tc := range []struct {
			name string
			args map[string]any
			want *mcperr.Error
		}{
			{"no_match", map[string]any{"pmids": []string{}}, declared(noMatch, "None of 0 PMIDs returned data", true, nil)},
			{"override", map[string]any{"pmids": []string{"override"}},
				declared(noMatch, "No item 9", false, map[string]any{"recovery": map[string]any{"hint": "No item 9; try IDs 1-100 instead."}})},
			{"queue_full", map[string]any{"pmids": []string{"queue_full"}}, declared(queueFull, "Queue at capacity", true, nil)},
			{"ncbi_down", map[string]any{"pmids": []string{"ncbi_down"}}, declared(ncbiDown, "", false, nil)},
			{"plain", map[string]any{"pmids": []string{"plain"}}, plain(mcperr.CodeNotFound, "Item not found in upstream", "")},
			{"data", map[string]any{"pmids": []string{"data"}}, plain(mcperr.CodeNotFound, "Item 7 not found", `{"itemId":"7"}`)},
			{"panic", map[string]any{"pmids": []string{"panic"}},
				plain(mcperr.CodeInternalError, "An internal error occurred in tool fetch_articles.", "")},
			{"invalid input", map[string]any{"pmids": "123", "limt": 5}, plain(mcperr.CodeValidationError, `2 issues: unrecognized key "limt"; at pmids: expected array, received string`,
				`{"issues":[{"path":[],"message":"unrecognized key \"limt\"","keyword":"additionalProperties"},
					{"path":["pmids"],"message":"expected array, received string","keyword":"type"}]}`)},
		} {
			t.Run(tc.name, func(t *testing.T) {
				_, err := mcpclient.Call[fetchOutput](ctx, cs, "fetch_articles", tc.args)
				same(t, err, tc.want)
			})
		}
		t.Run("success", func(t *testing.T) {
			out, err := mcpclient.Call[fetchOutput](ctx, cs, "fetch_articles", map[string]any{"pmids": []string{"123", "456"}})
			if err != nil || !reflect.DeepEqual(out.Articles, []string{"123", "456"}) {
				t.Errorf("Call = %+v, %v; want articles 123 and 456", out, err)
			}
		})
		t.Run("slow, cancelled by the client", func(t *testing.T) {
			ctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
			defer cancel()
			_, err := mcpclient.Call[fetchOutput](ctx, cs, "fetch_articles", map[string]any{"pmids": []string{"slow"}})
			if mcperr.CodeOf(err) != mcperr.CodeTimeout || !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("error = %v (code %v), want Timeout wrapping context.DeadlineExceeded", err, mcperr.CodeOf(err))
			}
		})
	})

	t.Run("notice_tool", func(t *testing.T) {
		_, err := mcpclient.Call[map[string]any](ctx, cs, "notice_tool", map[string]any{})
		same(t, err, declared(entry(t, notice, "soft_limit"), "Soft limit exceeded", true, nil))
		out, err := mcpclient.Call[map[string]any](ctx, cs, "notice_tool", map[string]any{"fail": false})
		if err != nil || out["ok"] != true {
			t.Errorf("Call(fail: false) = %v, %v; want ok", out, err)
		}
	})

	t.Run("summarize_abstract", func(t *testing.T) {
		_, err := mcpclient.Call[summary](ctx, cs, "summarize_abstract", map[string]any{"pmid": "123"})
		same(t, err, declared(entry(t, summarize, "unknown_pmid"), "No article with PMID 123; the library holds "+holds, true, nil))

		_, err = mcpclient.Call[summary](ctx, cs, "summarize_abstract", map[string]any{"pmid": "31000003"})
		same(t, err, declared(entry(t, summarize, "empty_summary"), "The client's model answered PMID 31000003 without any text", true, nil))

		p.mu.Lock()
		p.summary = "Cities have poorer soil."
		p.mu.Unlock()
		out, err := mcpclient.Call[summary](ctx, cs, "summarize_abstract", map[string]any{"pmid": "31000003"})
		if err != nil || out.Summary != "Cities have poorer soil." {
			t.Errorf("Call = %+v, %v; want the model's summary", out, err)
		}

		if tr.asks {
			p.mu.Lock()
			p.summary = ""
			p.mu.Unlock()
			_, err = mcpclient.Call[summary](ctx, cs, "summarize_abstract", map[string]any{"pmid": "31000001"})
			same(t, err, plain(mcperr.CodeServiceUnavailable,
				`The client did not answer sampling/createMessage: calling "sampling/createMessage": the user rejected the sampling request`,
				`{"method":"sampling/createMessage"}`))
		}
	})

	t.Run("retract_article", func(t *testing.T) {
		const declined = "Leave the article as it is; call again only if the user asks for the retraction."
		unknown, already, consent := entry(t, retract, "unknown_pmid"), entry(t, retract, "already_retracted"), entry(t, retract, "consent_declined")
		if consent.Recovery != declined {
			t.Errorf("consent_declined recovery = %q, want %q", consent.Recovery, declined)
		}

		_, err := mcpclient.Call[retraction](ctx, cs, "retract_article", map[string]any{"pmid": "42"})
		same(t, err, declared(unknown, "No article with PMID 42; the library holds "+holds, true, nil))

		for _, tc := range []struct {
			action   string
			response map[string]any
			want     *mcperr.Error
		}{
			{"decline", nil, declared(consent, "The user declined to answer.", true, map[string]any{"action": "decline"})},
			{"cancel", nil, declared(consent, "The user dismissed the question without answering.", true, map[string]any{"action": "cancel"})},
			{"accept", map[string]any{"confirm": false, "reason": "changed my mind"},
				declared(consent, "The user did not confirm the retraction of PMID 31000001", true, nil)},
		} {
			t.Run("consent_declined/"+tc.action, func(t *testing.T) {
				p.answer(tc.action, tc.response)
				_, err := mcpclient.Call[retraction](ctx, cs, "retract_article", map[string]any{"pmid": "31000001"})
				same(t, err, tc.want)
			})
		}

		p.answer("accept", map[string]any{"confirm": true, "reason": "Duplicated figures"})
		out, err := mcpclient.Call[retraction](ctx, cs, "retract_article", map[string]any{"pmid": "31000002"})
		if err != nil || out.Reason != "Duplicated figures" || out.URI != "articles://items/31000002" {
			t.Fatalf("Call = %+v, %v; want the retraction", out, err)
		}
		_, err = mcpclient.Call[retraction](ctx, cs, "retract_article", map[string]any{"pmid": "31000002"})
		same(t, err, declared(already, "PMID 31000002 is already retracted", true, nil))
	})

	t.Run("protocol errors", func(t *testing.T) {
		bare := tr.dial(t, nil) // a client without sampling or elicitation
		for _, tc := range []struct {
			tool, pmid, capability string
		}{
			{"summarize_abstract", "31000001", "sampling"},
			{"retract_article", "31000001", "elicitation"},
		} {
			_, err := mcpclient.Call[map[string]any](ctx, bare, tc.tool, map[string]any{"pmid": tc.pmid})
			same(t, err, plain(mcperr.CodeMissingClientCapability,
				"This request needs the client capabilities "+tc.capability+", which the client did not declare.",
				`{"requiredCapabilities":{"`+tc.capability+`":{}}}`))
			var w *jsonrpc.Error
			if !errors.As(err, &w) {
				t.Errorf("%s: the *jsonrpc.Error is not in the chain of %v", tc.tool, err)
			}
		}
		_, err := mcpclient.Call[map[string]any](ctx, bare, "no_such_tool", nil)
		if mcperr.CodeOf(err) != mcperr.CodeInvalidParams {
			t.Errorf("unknown tool: error %v (code %v), want InvalidParams", err, mcperr.CodeOf(err))
		}
	})

	t.Run("resource", func(t *testing.T) {
		_, err := mcpclient.ReadResource(ctx, cs, "articles://items/missing")
		same(t, err, plain(mcperr.CodeNotFound, "Item missing not found", `{"itemId":"missing"}`))
		if res, err := mcpclient.ReadResource(ctx, cs, "articles://items/42"); err != nil || len(res.Contents) != 1 {
			t.Errorf("ReadResource(42) = %v, %v", res, err)
		}
	})

	t.Run("prompt", func(t *testing.T) {
		_, err := mcpclient.GetPrompt(ctx, cs, "summarize_article", nil)
		e := asError(t, err)
		if e.Code() != mcperr.CodeValidationError || e.Data()["issues"] == nil {
			t.Errorf("GetPrompt without pmid = %v %q %v, want a ValidationError with issues", e.Code(), e.Message(), e.Data())
		}
		if res, err := mcpclient.GetPrompt(ctx, cs, "summarize_article", map[string]string{"pmid": "123"}); err != nil || len(res.Messages) != 1 {
			t.Errorf("GetPrompt(123) = %v, %v", res, err)
		}
	})

	t.Run("retry", func(t *testing.T) {
		// What the contract declares Retryable is retried until the attempts
		// run out; nothing else is, transient code or not.
		opts := mcperr.RetryOptions{MaxRetries: 2, BaseDelay: time.Millisecond, Jitter: mcperr.NoJitter}
		for _, tc := range []struct {
			pmid     string
			attempts int
			code     mcperr.Code
		}{
			{"queue_full", 3, mcperr.CodeRateLimited},
			{"ncbi_down", 3, mcperr.CodeServiceUnavailable},
			{"none", 1, mcperr.CodeNotFound}, // no_match
			{"plain", 1, mcperr.CodeNotFound},
			{"panic", 1, mcperr.CodeInternalError},
		} {
			t.Run(tc.pmid, func(t *testing.T) {
				pmids := []string{tc.pmid}
				if tc.pmid == "none" {
					pmids = []string{}
				}
				attempts := 0
				_, err := mcpclient.RetryByContract(ctx, opts, fetch, func(ctx context.Context) (fetchOutput, error) {
					attempts++
					return mcpclient.Call[fetchOutput](ctx, cs, "fetch_articles", map[string]any{"pmids": pmids})
				})
				if attempts != tc.attempts || mcperr.CodeOf(err) != tc.code {
					t.Errorf("%d attempts, error %v (code %v); want %d attempts, code %v", attempts, err, mcperr.CodeOf(err), tc.attempts, tc.code)
				}
				if e := asError(t, err); tc.attempts > 1 && e.Data()["retryAttempts"] != tc.attempts {
					t.Errorf("data = %v, want retryAttempts %d", e.Data(), tc.attempts)
				}
			})
		}
	})
}

// syncBuffer is a buffer written by a process's stderr and read by the test.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
