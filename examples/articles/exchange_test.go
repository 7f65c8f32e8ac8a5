//lint:file-ignore SA1019 sampling, deprecated from protocol 2026-07-28 but in the protocol through its deprecation window, is one of the exchanges this file tests.

package main

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/mcpclient"
	"github.com/seed417024ea/mcpcore/mcptest"
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

// start resets the library and serves the example to a client that asks
// for version and answers the server's questions with client's handlers.
func start(t *testing.T, version string, client *mcp.ClientOptions) *mcptest.Client {
	t.Helper()
	library.mu.Lock()
	library.articles = newArticles()
	library.mu.Unlock()
	return mcptest.StartWith(t, info, &mcptest.Options{Client: client, ProtocolVersion: version}, definitions()...)
}

// asked records the questions the server asked the client.
type asked struct {
	mu      sync.Mutex
	samples []*mcp.CreateMessageParams
	elicits []*mcp.ElicitParams
}

// model answers sampling requests with text, recording them in q.
func model(q *asked, text string) *mcp.ClientOptions {
	return &mcp.ClientOptions{CreateMessageHandler: func(_ context.Context, r *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
		q.mu.Lock()
		defer q.mu.Unlock()
		q.samples = append(q.samples, r.Params)
		return &mcp.CreateMessageResult{Role: "assistant", Model: "test-model", StopReason: "endTurn", Content: &mcp.TextContent{Text: text}}, nil
	}}
}

// user answers elicitations with action and content, recording them in q.
func user(q *asked, action string, content map[string]any) *mcp.ClientOptions {
	return &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		q.mu.Lock()
		defer q.mu.Unlock()
		q.elicits = append(q.elicits, r.Params)
		return &mcp.ElicitResult{Action: action, Content: content}, nil
	}}
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
			q := &asked{}
			c := start(t, version, model(q, "  Teenagers who sleep longer remember more.\n"))
			res, err := c.Call("summarize_abstract", map[string]any{"pmid": "31000001"}, "progress-1")
			if err != nil {
				t.Fatalf("CallTool(summarize_abstract): %v", err)
			}
			if res.IsError {
				t.Fatalf("isError = true: %s", wiretest.Text(t, res))
			}
			wiretest.AssertJSON(t, "structuredContent", res.StructuredContent, `{"pmid":"31000001",
				"title":"Nightly sleep duration and working memory in adolescents: a two-year cohort",
				"summary":"Teenagers who sleep longer remember more.","model":"test-model"}`)

			// Progress notifications may reach the client after the result.
			c.WaitFor("the final progress notification", func() bool {
				return slices.ContainsFunc(c.Progress(), func(n *mcp.ProgressNotificationParams) bool { return n.Progress == 3 })
			})
			q.mu.Lock()
			defer q.mu.Unlock()
			// The model was asked once, with the abstract.
			if len(q.samples) != 1 {
				t.Fatalf("the model was asked %d times, want 1", len(q.samples))
			}
			s := q.samples[0]
			prompt := s.Messages[0].Content.(*mcp.TextContent).Text
			if s.MaxTokens != 200 || s.SystemPrompt == "" || !strings.Contains(prompt, "We followed 412 adolescents") {
				t.Errorf("sampling request = %s, want the abstract, a system prompt and maxTokens 200", wiretest.Canonical(t, wiretest.JSON(t, s)))
			}
			// Progress moved forward to its total, with a message at each step.
			progress := c.Progress()
			if len(progress) < 2 {
				t.Fatalf("got %d progress notifications, want at least 2", len(progress))
			}
			for i, n := range progress {
				if n.ProgressToken != "progress-1" || n.Total != 3 || n.Message == "" {
					t.Errorf("progress %d = %s, want token progress-1, total 3 and a message", i, wiretest.Canonical(t, wiretest.JSON(t, n)))
				}
				if i > 0 && n.Progress < progress[i-1].Progress {
					t.Errorf("progress went back: %v after %v", n.Progress, progress[i-1].Progress)
				}
			}
			if last := progress[len(progress)-1]; last.Progress != last.Total {
				t.Errorf("last progress = %v of %v, want the total", last.Progress, last.Total)
			}
		})
	}
}

func TestSummarizeAbstractFailures(t *testing.T) {
	for _, version := range versions {
		for _, tc := range []struct {
			pmid     string
			declared mcpcore.Failure
			message  string
		}{
			{"123", unknownPMID, "No article with PMID 123; the library holds 31000001, 31000002, 31000003"},
			{"31000003", emptySummary, "The client's model answered PMID 31000003 without any text"},
		} {
			t.Run(name(version)+"/"+tc.declared.Reason, func(t *testing.T) {
				c := start(t, version, model(&asked{}, " \n"))
				res := c.CallTool("summarize_abstract", map[string]any{"pmid": tc.pmid})
				mcptest.AssertFailure(t, res, tc.declared, mcptest.DeclaredRecovery(), mcptest.Message(tc.message))
			})
		}
	}
}

// TestSummarizeAbstractWithoutSampling: a client that does not support
// sampling gets the protocol error MCP defines, not an error result.
func TestSummarizeAbstractWithoutSampling(t *testing.T) {
	for _, version := range versions {
		t.Run(name(version), func(t *testing.T) {
			c := start(t, version, nil)
			_, err := c.Call("summarize_abstract", map[string]any{"pmid": "31000001"}, nil)
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
	c := start(t, "2025-11-25", &mcp.ClientOptions{CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
		return nil, errors.New("the user rejected the sampling request")
	}})
	res := c.CallTool("summarize_abstract", map[string]any{"pmid": "31000001"})
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
			q := &asked{}
			c := start(t, version, user(q, "accept", map[string]any{"confirm": true, "reason": "Duplicated figures"}))
			if err := c.Subscribe(retractedURI); err != nil {
				t.Fatal(err)
			}
			res := c.CallTool("retract_article", map[string]any{"pmid": "31000002"})
			if res.IsError {
				t.Fatalf("isError = true: %s", wiretest.Text(t, res))
			}
			wiretest.AssertJSON(t, "structuredContent", res.StructuredContent, `{"pmid":"31000002",
				"title":"A randomized trial of reminder messages for medication adherence in hypertension",
				"reason":"Duplicated figures","uri":"articles://items/31000002"}`)

			// The user was asked once, with a form derived from retraction.
			q.mu.Lock()
			if len(q.elicits) != 1 {
				t.Fatalf("the user was asked %d times, want 1", len(q.elicits))
			}
			e := q.elicits[0]
			q.mu.Unlock()
			if !strings.Contains(e.Message, "PMID 31000002") {
				t.Errorf("elicitation message = %q, want it to name the PMID", e.Message)
			}
			wiretest.AssertJSON(t, "requestedSchema", e.RequestedSchema, `{"type":"object",
				"properties":{
					"confirm":{"type":"boolean","description":"Retract the article? It stays readable, marked as retracted."},
					"reason":{"type":"string","description":"Why the article is retracted; shown with it"}},
				"required":["confirm","reason"]}`)

			// The subscriber heard of the change, and reads it.
			c.WaitFor("notifications/resources/updated", func() bool { return slices.Contains(c.ResourceUpdates(), retractedURI) })
			read, err := c.ReadResource(retractedURI)
			if err != nil {
				t.Fatal(err)
			}
			wiretest.AssertJSON(t, "item", wiretest.Parse(t, read.Contents[0].Text), `{"itemId":"31000002","ok":true,
				"title":"A randomized trial of reminder messages for medication adherence in hypertension",
				"retracted":true,"retractionReason":"Duplicated figures"}`)

			// Again: already retracted, and the user is not asked.
			res = c.CallTool("retract_article", map[string]any{"pmid": "31000002"})
			mcptest.AssertFailure(t, res, alreadyRetracted, mcptest.DeclaredRecovery(), mcptest.Message("PMID 31000002 is already retracted"))
			q.mu.Lock()
			defer q.mu.Unlock()
			if len(q.elicits) != 1 {
				t.Errorf("the user was asked %d times, want 1", len(q.elicits))
			}
		})
	}
}

func TestRetractArticleDeclined(t *testing.T) {
	for _, version := range versions {
		for _, tc := range []struct {
			name    string
			action  string
			content map[string]any
			message string
		}{
			// Declined or dismissed: Elicit's failure, which says what the user did.
			{name: "decline", action: "decline", message: "The user declined to answer."},
			{name: "cancel", action: "cancel", message: "The user dismissed the question without answering."},
			// Answered without confirming: the handler's own failure.
			{name: "not confirmed", action: "accept", content: map[string]any{"confirm": false, "reason": "changed my mind"},
				message: "The user did not confirm the retraction of PMID 31000001"},
		} {
			t.Run(name(version)+"/"+tc.name, func(t *testing.T) {
				c := start(t, version, user(&asked{}, tc.action, tc.content))
				if err := c.Subscribe("articles://items/31000001"); err != nil {
					t.Fatal(err)
				}
				res := c.CallTool("retract_article", map[string]any{"pmid": "31000001"})
				if tc.action != "accept" {
					mcptest.AssertFailure(t, res, consentDeclined, mcptest.DeclaredRecovery(), mcptest.Message(tc.message),
						mcptest.Data("action", tc.action))
				} else {
					mcptest.AssertFailure(t, res, consentDeclined, mcptest.DeclaredRecovery(), mcptest.Message(tc.message))
					if action, ok := mcpclient.ErrorOf(res).Data()["action"]; ok {
						t.Errorf("data.action = %v, want none: the user answered", action)
					}
				}

				// A modeled outcome, logged at notice; nothing changed.
				var levels []any
				for _, r := range c.Logs().Find("Error in tool:retract_article:") {
					levels = append(levels, r["level"])
				}
				if len(levels) != 1 || levels[0] != "NOTICE" {
					t.Errorf("failure records at levels %v, want exactly one NOTICE", levels)
				}
				if a, _ := lookup("31000001"); a.Retracted {
					t.Error("the article was retracted")
				}
				if u := c.ResourceUpdates(); len(u) != 0 {
					t.Errorf("notified of %v, want no change", u)
				}
			})
		}
	}
}

func TestRetractArticleFailures(t *testing.T) {
	for _, version := range versions {
		// While the user answers, another call retracts the article.
		answer := &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			retract("31000003", "retracted by another call")
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true, "reason": "Fabricated data"}}, nil
		}}

		t.Run(name(version)+"/unknown_pmid", func(t *testing.T) {
			c := start(t, version, answer)
			res := c.CallTool("retract_article", map[string]any{"pmid": "42"})
			mcptest.AssertFailure(t, res, unknownPMID, mcptest.DeclaredRecovery(),
				mcptest.Message("No article with PMID 42; the library holds 31000001, 31000002, 31000003"))
		})

		t.Run(name(version)+"/already_retracted meanwhile", func(t *testing.T) {
			// Asked during the call, the handler finds the change when it
			// commits; from 2026-07-28 it runs again from the start with
			// the answer, and finds it before it asks.
			message := "PMID 31000003 was retracted meanwhile"
			if version == "" {
				message = "PMID 31000003 is already retracted"
			}
			c := start(t, version, answer)
			res := c.CallTool("retract_article", map[string]any{"pmid": "31000003"})
			mcptest.AssertFailure(t, res, alreadyRetracted, mcptest.DeclaredRecovery(), mcptest.Message(message))
			if a, _ := lookup("31000003"); a.RetractionReason != "retracted by another call" {
				t.Errorf("retraction reason = %q, want the other call's", a.RetractionReason)
			}
		})
	}
}

func TestRetractArticleWithoutElicitation(t *testing.T) {
	for _, version := range versions {
		t.Run(name(version), func(t *testing.T) {
			c := start(t, version, nil)
			_, err := c.Call("retract_article", map[string]any{"pmid": "31000001"}, nil)
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
			c := start(t, version, nil)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := c.Subscribe("articles://items/42"); err != nil {
				t.Errorf("Subscribe(item 42): %v", err)
			}
			if err := c.Session.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: "articles://items/42"}); err != nil {
				t.Errorf("Unsubscribe(item 42): %v", err)
			}
			if version != "" { // from 2026-07-28 the client subscribes on a stream it opens, without asking
				err := c.Subscribe("articles://authors/1")
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
				res, err := c.Session.Complete(ctx, &mcp.CompleteParams{
					Ref:      &mcp.CompleteReference{Type: "ref/resource", URI: "articles://items/{itemId}"},
					Argument: mcp.CompleteParamsArgument{Name: "itemId", Value: value},
				})
				if err != nil {
					t.Fatalf("Complete(%q): %v", value, err)
				}
				wiretest.AssertJSON(t, "completion of "+value, res.Completion, want)
			}

			read, err := c.ReadResource("articles://items/31000003")
			if err != nil {
				t.Fatal(err)
			}
			wiretest.AssertJSON(t, "item", wiretest.Parse(t, read.Contents[0].Text),
				`{"itemId":"31000003","ok":true,"title":"Soil microbial diversity along an urban-to-rural gradient"}`)
		})
	}
}
