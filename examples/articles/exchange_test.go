//lint:file-ignore SA1019 sampling, deprecated from protocol 2026-07-28 but in the protocol through its deprecation window, is one of the exchanges this file tests.

package main

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
)

// These tests are the exchanges a tool has with its client, on the wire:
// progress, sampling, elicitation and the notification of a subscribed
// resource. Each runs under the latest protocol version, where a question
// travels in the call's result and the client calls again with the answer,
// and under 2025-11-25, where the server asks the client during the call.

var versions = []string{"", "2025-11-25"}

// name is a subtest's name for a protocol version.
func name(version string) string {
	if version == "" {
		return "latest"
	}
	return version
}

// peer is what a test client heard from the server.
type peer struct {
	mu       sync.Mutex
	progress []*mcp.ProgressNotificationParams
	updated  []string
	samples  []*mcp.CreateMessageParams
	elicits  []*mcp.ElicitParams
}

func (p *peer) record(f func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	f()
}

// connectPeer resets the library, serves the example over in-memory
// transports and connects a client with opts (its capabilities and answers),
// whose notifications and questions p records. It returns the session and
// the server's log.
func connectPeer(t *testing.T, version string, p *peer, opts *mcp.ClientOptions) (*mcp.ClientSession, *wiretest.LogBuffer) {
	t.Helper()
	library.mu.Lock()
	library.articles = newArticles()
	library.mu.Unlock()

	logs := &wiretest.LogBuffer{}
	srv, err := mcpcore.NewServer(info, &mcpcore.ServerOptions{
		Logger: slog.New(mcpcore.NewLogHandler(logs, slog.LevelDebug, true)),
		Getenv: func(string) string { return "" },
	}, definitions()...)
	if err != nil {
		t.Fatal(err)
	}
	if opts == nil {
		opts = &mcp.ClientOptions{}
	}
	o := *opts
	o.ProgressNotificationHandler = func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
		p.record(func() { p.progress = append(p.progress, r.Params) })
	}
	o.ResourceUpdatedHandler = func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) {
		p.record(func() { p.updated = append(p.updated, r.Params.URI) })
	}
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.MCPServer().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "exchange-test", Version: "0.0.1"}, &o).
		Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs, logs
}

// model answers sampling requests with text, recording them in p.
func model(p *peer, text string) func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	return func(_ context.Context, r *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
		p.record(func() { p.samples = append(p.samples, r.Params) })
		return &mcp.CreateMessageResult{Role: "assistant", Model: "test-model", StopReason: "endTurn", Content: &mcp.TextContent{Text: text}}, nil
	}
}

// user answers elicitations with action and content, recording them in p.
func user(p *peer, action string, content map[string]any) func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	return func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		p.record(func() { p.elicits = append(p.elicits, r.Params) })
		return &mcp.ElicitResult{Action: action, Content: content}, nil
	}
}

// callWithProgress calls a tool with a progress token.
func callWithProgress(t *testing.T, cs *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	t.Helper()
	params := &mcp.CallToolParams{Name: name, Arguments: args}
	params.SetProgressToken("progress-1")
	res, err := cs.CallTool(context.Background(), params)
	if err != nil {
		t.Fatalf("CallTool(%s): %v", name, err)
	}
	return res
}

// assertError checks an error result: its text and its structured error.
func assertError(t *testing.T, res *mcp.CallToolResult, text, structured string) {
	t.Helper()
	if !res.IsError {
		t.Errorf("isError = false, want true")
	}
	if got := wiretest.Text(t, res); got != text {
		t.Errorf("content[0].text:\n got %q\nwant %q", got, text)
	}
	wiretest.AssertJSON(t, "structuredContent", res.StructuredContent, structured)
}

// assertProtocolError checks that err is the JSON-RPC error want.
func assertProtocolError(t *testing.T, err error, want string) {
	t.Helper()
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) {
		t.Fatalf("error = %v, want a JSON-RPC error", err)
	}
	wiretest.AssertJSON(t, "error", werr, want)
}

func TestSummarizeAbstract(t *testing.T) {
	for _, version := range versions {
		t.Run(name(version), func(t *testing.T) {
			p := &peer{}
			cs, _ := connectPeer(t, version, p, &mcp.ClientOptions{CreateMessageHandler: model(p, "  Teenagers who sleep longer remember more.\n")})
			res := callWithProgress(t, cs, "summarize_abstract", map[string]any{"pmid": "31000001"})
			if res.IsError {
				t.Fatalf("isError = true: %s", wiretest.Text(t, res))
			}
			wiretest.AssertJSON(t, "structuredContent", res.StructuredContent, `{"pmid":"31000001",
				"title":"Nightly sleep duration and working memory in adolescents: a two-year cohort",
				"summary":"Teenagers who sleep longer remember more.","model":"test-model"}`)

			// Progress notifications may reach the client after the result.
			wiretest.WaitFor(t, "the final progress notification", func() bool {
				p.mu.Lock()
				defer p.mu.Unlock()
				return slices.ContainsFunc(p.progress, func(n *mcp.ProgressNotificationParams) bool { return n.Progress == 3 })
			})
			p.mu.Lock()
			defer p.mu.Unlock()
			// The model was asked once, with the abstract.
			if len(p.samples) != 1 {
				t.Fatalf("the model was asked %d times, want 1", len(p.samples))
			}
			s := p.samples[0]
			prompt := s.Messages[0].Content.(*mcp.TextContent).Text
			if s.MaxTokens != 200 || s.SystemPrompt == "" || !strings.Contains(prompt, "We followed 412 adolescents") {
				t.Errorf("sampling request = %s, want the abstract, a system prompt and maxTokens 200", wiretest.Canonical(t, wiretest.JSON(t, s)))
			}
			// Progress moved forward to its total, with a message at each step.
			if len(p.progress) < 2 {
				t.Fatalf("got %d progress notifications, want at least 2", len(p.progress))
			}
			for i, n := range p.progress {
				if n.ProgressToken != "progress-1" || n.Total != 3 || n.Message == "" {
					t.Errorf("progress %d = %s, want token progress-1, total 3 and a message", i, wiretest.Canonical(t, wiretest.JSON(t, n)))
				}
				if i > 0 && n.Progress < p.progress[i-1].Progress {
					t.Errorf("progress went back: %v after %v", n.Progress, p.progress[i-1].Progress)
				}
			}
			if last := p.progress[len(p.progress)-1]; last.Progress != last.Total {
				t.Errorf("last progress = %v of %v, want the total", last.Progress, last.Total)
			}
		})
	}
}

func TestSummarizeAbstractFailures(t *testing.T) {
	for _, version := range versions {
		t.Run(name(version), func(t *testing.T) {
			p := &peer{}
			cs, _ := connectPeer(t, version, p, &mcp.ClientOptions{CreateMessageHandler: model(p, " \n")})

			t.Run("unknown_pmid", func(t *testing.T) {
				res := wiretest.CallTool(t, cs, "summarize_abstract", map[string]any{"pmid": "123"})
				assertError(t, res,
					"Error: No article with PMID 123; the library holds 31000001, 31000002, 31000003\n\n"+
						"Recovery: Complete the itemId of articles://items/{itemId} to list the PMIDs the library holds.",
					`{"error":{"code":-32001,"message":"No article with PMID 123; the library holds 31000001, 31000002, 31000003",
						"data":{"reason":"unknown_pmid","recovery":{"hint":"Complete the itemId of articles://items/{itemId} to list the PMIDs the library holds."}}}}`)
			})

			t.Run("empty_summary", func(t *testing.T) {
				res := wiretest.CallTool(t, cs, "summarize_abstract", map[string]any{"pmid": "31000003"})
				assertError(t, res,
					"Error: The client's model answered PMID 31000003 without any text\n\n"+
						"Recovery: Call again; if the answer stays empty, the client's model cannot summarize text.",
					`{"error":{"code":-32000,"message":"The client's model answered PMID 31000003 without any text",
						"data":{"retryable":true,"reason":"empty_summary","recovery":{"hint":"Call again; if the answer stays empty, the client's model cannot summarize text."}}}}`)
			})
		})
	}
}

// TestSummarizeAbstractWithoutSampling: a client that does not support
// sampling gets the protocol error MCP defines, not an error result.
func TestSummarizeAbstractWithoutSampling(t *testing.T) {
	for _, version := range versions {
		t.Run(name(version), func(t *testing.T) {
			cs, _ := connectPeer(t, version, &peer{}, nil)
			_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "summarize_abstract", Arguments: map[string]any{"pmid": "31000001"}})
			assertProtocolError(t, err, `{"code":-32021,
				"message":"This request needs the client capabilities sampling, which the client did not declare.",
				"data":{"requiredCapabilities":{"sampling":{}}}}`)
		})
	}
}

// TestSummarizeAbstractModelRefuses: a client that refuses to sample, asked
// during the call (before 2026-07-28), makes the call fail with
// ServiceUnavailable, the framework's baseline failure of a question.
func TestSummarizeAbstractModelRefuses(t *testing.T) {
	cs, _ := connectPeer(t, "2025-11-25", &peer{}, &mcp.ClientOptions{CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
		return nil, errors.New("the user rejected the sampling request")
	}})
	res := wiretest.CallTool(t, cs, "summarize_abstract", map[string]any{"pmid": "31000001"})
	if !res.IsError {
		t.Fatal("isError = false, want true")
	}
	m := wiretest.JSON(t, res.StructuredContent).(map[string]any)["error"].(map[string]any)
	if m["code"] != float64(-32000) || m["data"].(map[string]any)["method"] != "sampling/createMessage" {
		t.Errorf("error = %v, want ServiceUnavailable with data.method sampling/createMessage", m)
	}
}

const retractedURI = "articles://items/31000002"

func TestRetractArticle(t *testing.T) {
	for _, version := range versions {
		t.Run(name(version), func(t *testing.T) {
			p := &peer{}
			cs, _ := connectPeer(t, version, p, &mcp.ClientOptions{
				ElicitationHandler: user(p, "accept", map[string]any{"confirm": true, "reason": "Duplicated figures"}),
			})
			ctx := context.Background()
			if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: retractedURI}); err != nil {
				t.Fatal(err)
			}
			res := wiretest.CallTool(t, cs, "retract_article", map[string]any{"pmid": "31000002"})
			if res.IsError {
				t.Fatalf("isError = true: %s", wiretest.Text(t, res))
			}
			wiretest.AssertJSON(t, "structuredContent", res.StructuredContent, `{"pmid":"31000002",
				"title":"A randomized trial of reminder messages for medication adherence in hypertension",
				"reason":"Duplicated figures","uri":"articles://items/31000002"}`)

			// The user was asked once, with a form derived from retraction.
			p.mu.Lock()
			if len(p.elicits) != 1 {
				t.Fatalf("the user was asked %d times, want 1", len(p.elicits))
			}
			e := p.elicits[0]
			p.mu.Unlock()
			if !strings.Contains(e.Message, "PMID 31000002") {
				t.Errorf("elicitation message = %q, want it to name the PMID", e.Message)
			}
			wiretest.AssertJSON(t, "requestedSchema", e.RequestedSchema, `{"type":"object",
				"properties":{
					"confirm":{"type":"boolean","description":"Retract the article? It stays readable, marked as retracted."},
					"reason":{"type":"string","description":"Why the article is retracted; shown with it"}},
				"required":["confirm","reason"]}`)

			// The subscriber heard of the change, and reads it.
			wiretest.WaitFor(t, "notifications/resources/updated", func() bool {
				p.mu.Lock()
				defer p.mu.Unlock()
				return slices.Contains(p.updated, retractedURI)
			})
			read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: retractedURI})
			if err != nil {
				t.Fatal(err)
			}
			wiretest.AssertJSON(t, "item", wiretest.Parse(t, read.Contents[0].Text), `{"itemId":"31000002","ok":true,
				"title":"A randomized trial of reminder messages for medication adherence in hypertension",
				"retracted":true,"retractionReason":"Duplicated figures"}`)

			// Again: already retracted, and the user is not asked.
			res = wiretest.CallTool(t, cs, "retract_article", map[string]any{"pmid": "31000002"})
			assertError(t, res,
				"Error: PMID 31000002 is already retracted\n\nRecovery: Nothing to do; read the article's item resource for the reason it was retracted.",
				`{"error":{"code":-32002,"message":"PMID 31000002 is already retracted",
					"data":{"reason":"already_retracted","recovery":{"hint":"Nothing to do; read the article's item resource for the reason it was retracted."}}}}`)
			p.mu.Lock()
			defer p.mu.Unlock()
			if len(p.elicits) != 1 {
				t.Errorf("the user was asked %d times, want 1", len(p.elicits))
			}
		})
	}
}

func TestRetractArticleDeclined(t *testing.T) {
	const recovery = "Leave the article as it is; call again only if the user asks for the retraction."
	for _, version := range versions {
		for _, tc := range []struct {
			name       string
			action     string
			content    map[string]any
			message    string
			structured string
		}{
			{
				name:    "decline",
				action:  "decline",
				message: "The user declined to answer.",
				structured: `{"error":{"code":-32600,"message":"The user declined to answer.",
					"data":{"action":"decline","reason":"consent_declined","recovery":{"hint":"` + recovery + `"}}}}`,
			},
			{
				name:    "cancel",
				action:  "cancel",
				message: "The user dismissed the question without answering.",
				structured: `{"error":{"code":-32600,"message":"The user dismissed the question without answering.",
					"data":{"action":"cancel","reason":"consent_declined","recovery":{"hint":"` + recovery + `"}}}}`,
			},
			{
				name:    "not confirmed",
				action:  "accept",
				content: map[string]any{"confirm": false, "reason": "changed my mind"},
				message: "The user did not confirm the retraction of PMID 31000001",
				structured: `{"error":{"code":-32600,"message":"The user did not confirm the retraction of PMID 31000001",
					"data":{"reason":"consent_declined","recovery":{"hint":"` + recovery + `"}}}}`,
			},
		} {
			t.Run(name(version)+"/"+tc.name, func(t *testing.T) {
				p := &peer{}
				cs, logs := connectPeer(t, version, p, &mcp.ClientOptions{ElicitationHandler: user(p, tc.action, tc.content)})
				if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: "articles://items/31000001"}); err != nil {
					t.Fatal(err)
				}
				res := wiretest.CallTool(t, cs, "retract_article", map[string]any{"pmid": "31000001"})
				assertError(t, res, "Error: "+tc.message+"\n\nRecovery: "+recovery, tc.structured)

				// A modeled outcome, logged at notice; nothing changed.
				var levels []any
				for _, r := range logs.Failures(t, "retract_article") {
					levels = append(levels, r["level"])
				}
				if len(levels) != 1 || levels[0] != "NOTICE" {
					t.Errorf("failure records at levels %v, want exactly one NOTICE", levels)
				}
				if a, _ := lookup("31000001"); a.Retracted {
					t.Error("the article was retracted")
				}
				p.mu.Lock()
				defer p.mu.Unlock()
				if len(p.updated) != 0 {
					t.Errorf("notified of %v, want no change", p.updated)
				}
			})
		}
	}
}

func TestRetractArticleFailures(t *testing.T) {
	for _, version := range versions {
		t.Run(name(version), func(t *testing.T) {
			p := &peer{}
			answer := user(p, "accept", map[string]any{"confirm": true, "reason": "Fabricated data"})
			cs, _ := connectPeer(t, version, p, &mcp.ClientOptions{
				ElicitationHandler: func(ctx context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					// While the user answers, another call retracts the article.
					retract("31000003", "retracted by another call")
					return answer(ctx, r)
				},
			})

			t.Run("unknown_pmid", func(t *testing.T) {
				res := wiretest.CallTool(t, cs, "retract_article", map[string]any{"pmid": "42"})
				assertError(t, res,
					"Error: No article with PMID 42; the library holds 31000001, 31000002, 31000003\n\n"+
						"Recovery: Complete the itemId of articles://items/{itemId} to list the PMIDs the library holds.",
					`{"error":{"code":-32001,"message":"No article with PMID 42; the library holds 31000001, 31000002, 31000003",
						"data":{"reason":"unknown_pmid","recovery":{"hint":"Complete the itemId of articles://items/{itemId} to list the PMIDs the library holds."}}}}`)
			})

			t.Run("already_retracted meanwhile", func(t *testing.T) {
				// Asked during the call, the handler finds the change when it
				// commits; from 2026-07-28 it runs again from the start with
				// the answer, and finds it before it asks.
				message := "PMID 31000003 was retracted meanwhile"
				if version == "" {
					message = "PMID 31000003 is already retracted"
				}
				res := wiretest.CallTool(t, cs, "retract_article", map[string]any{"pmid": "31000003"})
				assertError(t, res,
					"Error: "+message+"\n\nRecovery: Nothing to do; read the article's item resource for the reason it was retracted.",
					`{"error":{"code":-32002,"message":"`+message+`",
						"data":{"reason":"already_retracted","recovery":{"hint":"Nothing to do; read the article's item resource for the reason it was retracted."}}}}`)
				if a, _ := lookup("31000003"); a.RetractionReason != "retracted by another call" {
					t.Errorf("retraction reason = %q, want the other call's", a.RetractionReason)
				}
			})
		})
	}
}

func TestRetractArticleWithoutElicitation(t *testing.T) {
	for _, version := range versions {
		t.Run(name(version), func(t *testing.T) {
			cs, _ := connectPeer(t, version, &peer{}, nil)
			_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "retract_article", Arguments: map[string]any{"pmid": "31000001"}})
			assertProtocolError(t, err, `{"code":-32021,
				"message":"This request needs the client capabilities elicitation, which the client did not declare.",
				"data":{"requiredCapabilities":{"elicitation":{}}}}`)
		})
	}
}

// TestItemSubscriptionAndCompletion: the item resource accepts
// subscriptions to its items, and completes itemId with the library's
// PMIDs.
func TestItemSubscriptionAndCompletion(t *testing.T) {
	for _, version := range versions {
		t.Run(name(version), func(t *testing.T) {
			cs, _ := connectPeer(t, version, &peer{}, nil)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "articles://items/42"}); err != nil {
				t.Errorf("Subscribe(item 42): %v", err)
			}
			if err := cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: "articles://items/42"}); err != nil {
				t.Errorf("Unsubscribe(item 42): %v", err)
			}
			if version != "" { // from 2026-07-28 the client subscribes on a stream it opens, without asking
				err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "articles://authors/1"})
				var werr *jsonrpc.Error
				if !errors.As(err, &werr) || werr.Code != jsonrpc.CodeInvalidParams {
					t.Errorf("Subscribe(a URI of no resource) error = %v, want InvalidParams", err)
				}
			}

			for value, want := range map[string]string{
				"":         `{"values":["31000001","31000002","31000003"],"total":3}`,
				"3100000":  `{"values":["31000001","31000002","31000003"],"total":3}`,
				"31000002": `{"values":["31000002"],"total":1}`,
				"999":      `{"values":[]}`,
			} {
				res, err := cs.Complete(ctx, &mcp.CompleteParams{
					Ref:      &mcp.CompleteReference{Type: "ref/resource", URI: "articles://items/{itemId}"},
					Argument: mcp.CompleteParamsArgument{Name: "itemId", Value: value},
				})
				if err != nil {
					t.Fatalf("Complete(%q): %v", value, err)
				}
				wiretest.AssertJSON(t, "completion of "+value, res.Completion, want)
			}

			read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "articles://items/31000003"})
			if err != nil {
				t.Fatal(err)
			}
			wiretest.AssertJSON(t, "item", wiretest.Parse(t, read.Contents[0].Text),
				`{"itemId":"31000003","ok":true,"title":"Soil microbial diversity along an urban-to-rural gradient"}`)
		})
	}
}
