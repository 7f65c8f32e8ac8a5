//lint:file-ignore SA1019 log notifications are deprecated from protocol 2026-07-28 (SEP-2577) but stay in the protocol through its deprecation window, and a test kit must hear them.

package mcptest

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcpclient"
)

// discard is the logger of servers whose records nobody reads.
var discard = slog.New(slog.DiscardHandler)

// Options adjust the server and the client of [StartWith].
type Options struct {
	// Server are the server's options. Its Logger defaults to the test's
	// log (see [Client.Logs]); its Config is used as it is (NewServer
	// reads no environment), so that a test never depends on the process
	// environment.
	Server *mcpcore.ServerOptions
	// Client are the client's options: the handlers with which it answers
	// the server's questions (CreateMessageHandler, ElicitationHandler),
	// and its capabilities. The kit adds its own notification handlers,
	// after calling any given here.
	Client *mcp.ClientOptions
	// ProtocolVersion is the version the client asks for; "" for the
	// latest. "2025-11-25" makes the server ask its questions during the
	// call; "2026-07-28" and later, in the result (see
	// mcpcore.ErrInputRequired).
	ProtocolVersion string
	// NoTasks makes a client that does not declare the tasks extension
	// (io.modelcontextprotocol/tasks), to test how a tool refuses one or
	// answers it at once. By default the client declares it, as
	// mcpclient.NewClient does, and [Client.Call] waits for the end of
	// any task the server answers with.
	NoTasks bool
}

// A Client is a client session connected to a server in memory, with
// helpers for tests. Session is the SDK's session, for anything the
// helpers do not cover; calls through it are recorded for contract
// coverage too.
type Client struct {
	Session *mcp.ClientSession
	t       testing.TB
	srv     *mcpcore.Server
	logs    *Logs
	heard   *heard
}

// heard is what the server sent the client besides answers.
type heard struct {
	mu       sync.Mutex
	progress []*mcp.ProgressNotificationParams
	messages []*mcp.LoggingMessageParams
	updates  []string
	// acked are the resources whose subscription the server acknowledged
	// (subscriptions/listen, 2026-07-28).
	acked map[string]bool
}

// heardAcks notes the subscriptions the server acknowledges.
func (c *Client) heardAcks(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "notifications/subscriptions/acknowledged" {
			if p, ok := req.GetParams().(*mcp.SubscriptionsAcknowledgedParams); ok {
				c.heard.mu.Lock()
				if c.heard.acked == nil {
					c.heard.acked = map[string]bool{}
				}
				for _, uri := range p.Notifications.ResourceSubscriptions {
					c.heard.acked[uri] = true
				}
				c.heard.mu.Unlock()
			}
		}
		return next(ctx, method, req)
	}
}

// Start serves defs in memory and returns a connected client. The server
// logs to the test's log (records at debug and above, as JSON); the
// session closes when the test ends. A definition the server refuses
// fails the test.
//
//	c := mcptest.Start(t, mcpcore.Info{Name: "shop"}, orderItem)
//	res := c.CallTool("order_item", map[string]any{"item": "teapot"})
//	mcptest.AssertFailure(t, res, outOfStock)
func Start(t testing.TB, info mcpcore.Info, defs ...mcpcore.Definition) *Client {
	t.Helper()
	return StartWith(t, info, nil, defs...)
}

// StartWith is [Start] with options.
func StartWith(t testing.TB, info mcpcore.Info, opts *Options, defs ...mcpcore.Definition) *Client {
	t.Helper()
	if opts == nil {
		opts = &Options{}
	}
	c := &Client{t: t, logs: newLogs(t), heard: &heard{}}
	var so mcpcore.ServerOptions
	if opts.Server != nil {
		so = *opts.Server
	}
	if so.Logger == nil {
		so.Logger = c.logs.logger()
	}
	srv, err := mcpcore.NewServer(info, &so, defs...)
	if err != nil {
		t.Fatalf("mcptest: NewServer: %v", err)
	}
	c.srv = srv
	var co mcp.ClientOptions
	if opts.Client != nil {
		co = *opts.Client
	}
	c.hear(&co)
	cs, closeSession, err := connect(srv, "mcptest", &co, opts.ProtocolVersion, true, !opts.NoTasks, c.heardAcks)
	if err != nil {
		t.Fatalf("mcptest: connecting a client: %v", err)
	}
	c.Session = cs
	t.Cleanup(closeSession)
	return c
}

// hear chains the kit's notification handlers after the user's.
func (c *Client) hear(co *mcp.ClientOptions) {
	progress, logging, updated := co.ProgressNotificationHandler, co.LoggingMessageHandler, co.ResourceUpdatedHandler
	co.ProgressNotificationHandler = func(ctx context.Context, r *mcp.ProgressNotificationClientRequest) {
		if progress != nil {
			progress(ctx, r)
		}
		c.heard.mu.Lock()
		c.heard.progress = append(c.heard.progress, r.Params)
		c.heard.mu.Unlock()
	}
	co.LoggingMessageHandler = func(ctx context.Context, r *mcp.LoggingMessageRequest) {
		if logging != nil {
			logging(ctx, r)
		}
		c.heard.mu.Lock()
		c.heard.messages = append(c.heard.messages, r.Params)
		c.heard.mu.Unlock()
	}
	co.ResourceUpdatedHandler = func(ctx context.Context, r *mcp.ResourceUpdatedNotificationRequest) {
		if updated != nil {
			updated(ctx, r)
		}
		c.heard.mu.Lock()
		c.heard.updates = append(c.heard.updates, r.Params.URI)
		c.heard.mu.Unlock()
	}
}

// For returns the client, reporting to t: for a client shared with
// subtests, whose failures must fail the subtest (c.For(t).CallTool(…)).
// The copy shares the session and what was heard.
func (c *Client) For(t testing.TB) *Client {
	return &Client{Session: c.Session, t: t, srv: c.srv, logs: c.logs, heard: c.heard}
}

// Server returns the server the client is connected to.
func (c *Client) Server() *mcpcore.Server { return c.srv }

// Logs returns the server's log records so far.
func (c *Client) Logs() *Logs { return c.logs }

// CallTool calls a tool with args (anything that encodes as a JSON object)
// and returns its result, failing the test on a protocol error. A tool's
// failure is a result, not an error: check it with [AssertFailure]. A call
// the server made a task is waited for (see [Client.Call]).
func (c *Client) CallTool(name string, args any) *mcp.CallToolResult {
	c.t.Helper()
	res, err := c.Call(name, args, nil)
	if err != nil {
		c.t.Fatalf("mcptest: tools/call %s: %v", name, err)
	}
	return res
}

// Call calls a tool with args and returns what the client got: a result,
// or a JSON-RPC error (such as MissingClientCapability). A non-nil
// progressToken asks for progress notifications (see [Client.Progress]).
//
// When the server answers with a task (a tool whose Task field allows it,
// run past its TaskSupport.After), Call polls the task as
// mcpclient.AwaitTask does, answering its questions with the client's
// handlers, and returns its end: the result of a completed task, which is
// the result the call would have had at once (with isError true for a
// failure), or the error of a failed or cancelled one, an *mcperr.Error
// whose cause is the task's JSON-RPC error.
func (c *Client) Call(name string, args any, progressToken any) (*mcp.CallToolResult, error) {
	if args == nil {
		args = map[string]any{}
	}
	params := &mcp.CallToolParams{Name: name, Arguments: args}
	if progressToken != nil {
		params.SetProgressToken(progressToken)
	}
	ctx := context.Background()
	res, err := c.Session.CallTool(ctx, params)
	if err != nil {
		return nil, err
	}
	return mcpclient.AwaitTask(ctx, c.Session, name, res)
}

// ReadResource reads a resource; a failure is the JSON-RPC error the server
// sent (mcpclient turns it back into an *mcperr.Error).
func (c *Client) ReadResource(uri string) (*mcp.ReadResourceResult, error) {
	return c.Session.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
}

// GetPrompt gets a prompt with its arguments.
func (c *Client) GetPrompt(name string, args map[string]string) (*mcp.GetPromptResult, error) {
	return c.Session.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: name, Arguments: args})
}

// Subscribe subscribes to a resource; [Client.ResourceUpdates] lists the
// updates heard.
func (c *Client) Subscribe(uri string) error {
	if err := c.Session.Subscribe(context.Background(), &mcp.SubscribeParams{URI: uri}); err != nil {
		return err
	}
	if r := c.Session.InitializeResult(); r == nil || r.ProtocolVersion < "2026-07-28" {
		return nil
	}
	// Under 2026-07-28 a subscription is a stream the server opens, and
	// holds only once it acknowledges it: an update sent before would be
	// lost, and a test that waits for it would fail by chance.
	deadline := time.Now().Add(10 * time.Second)
	for {
		c.heard.mu.Lock()
		acked := c.heard.acked[uri]
		c.heard.mu.Unlock()
		if acked {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("mcptest: the server did not acknowledge the subscription to %s", uri)
		}
		time.Sleep(time.Millisecond)
	}
}

// SetLogLevel asks the server for log messages at level and above
// ("debug", "info", "notice", "warning", "error", …); [Client.LogMessages]
// lists them.
func (c *Client) SetLogLevel(level mcp.LoggingLevel) error {
	return c.Session.SetLoggingLevel(context.Background(), &mcp.SetLoggingLevelParams{Level: level})
}

// Progress returns the progress notifications heard so far.
func (c *Client) Progress() []*mcp.ProgressNotificationParams {
	c.heard.mu.Lock()
	defer c.heard.mu.Unlock()
	return slices.Clone(c.heard.progress)
}

// LogMessages returns the log notifications heard so far.
func (c *Client) LogMessages() []*mcp.LoggingMessageParams {
	c.heard.mu.Lock()
	defer c.heard.mu.Unlock()
	return slices.Clone(c.heard.messages)
}

// ResourceUpdates returns the URIs of the resource updates heard so far.
func (c *Client) ResourceUpdates() []string {
	c.heard.mu.Lock()
	defer c.heard.mu.Unlock()
	return slices.Clone(c.heard.updates)
}

// WaitFor waits until cond holds, failing the test after 10 seconds:
// notifications may arrive after the result of the call that sent them.
func (c *Client) WaitFor(what string, cond func() bool) {
	c.t.Helper()
	WaitFor(c.t, what, cond)
}

// WaitFor waits until cond holds, polling, and fails t after 10 seconds.
func WaitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("mcptest: timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
