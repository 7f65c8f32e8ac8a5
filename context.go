package mcpcore

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/internal/errchain"
	"github.com/seed417024ea/mcpcore/internal/redact"
	"github.com/seed417024ea/mcpcore/internal/reqlog"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// A Context is what a handler receives: a [context.Context] for the one
// request (cancelled when the client cancels it or the server shuts down),
// plus the definition's error contract and a logger. Pass it as it is to any
// service that takes a context.Context.
//
// Only the framework builds one: a server for each call, or
// [ContextForTest] for a handler run alone in a test (mcptest.NewHarness).
// A zero Context is a context.Background() without a contract, whose Fail
// reports the mistake.
type Context struct {
	ctx context.Context // the request's; nil in a zero Context
	// definition is what the call is of: its kind ("tool", "resource" or
	// "prompt"), name and contract.
	definition
	// base is the server's logger; attrs, what the request's adds to it.
	// The request's logger (reqLog) is built on first use: most calls log
	// nothing.
	base      *slog.Logger
	attrs     []slog.Attr
	reqOnce   sync.Once
	attrsOnce sync.Once
	log       *slog.Logger
	session   *mcp.ServerSession
	token     *auth.TokenInfo // the bearer token's, over HTTP with auth
	// clientLogs is set when the client may want log notifications of this
	// call (see clientlog.go).
	clientLogs bool
	serverName string
	uri        string
	srv        *Server
	// x is the call's exchange with the client: progress, questions and
	// answers (nil in a Context built by hand).
	x *exchange
	// task is the call's task, when the definition is a tool with a Task
	// mode; nil otherwise.
	task *taskCall

	// The handler's logger and the client's, built on first use: most
	// calls log nothing.
	logOnce   sync.Once
	userLog   *slog.Logger
	clientLog *slog.Logger
}

// contextKey finds the *Context among a request context's values, so that
// services holding only a derived context.Context can still reach the
// contract through [RecoveryFor].
type contextKey struct{}

// parent is the request's context.Context, or context.Background() for a
// zero Context.
func (c *Context) parent() context.Context {
	if c == nil || c.ctx == nil {
		return context.Background()
	}
	return c.ctx
}

// Deadline implements context.Context.
func (c *Context) Deadline() (time.Time, bool) { return c.parent().Deadline() }

// Done implements context.Context: closed when the client cancels the
// request, its deadline passes, or the server stops waiting for it.
func (c *Context) Done() <-chan struct{} { return c.parent().Done() }

// Err implements context.Context.
func (c *Context) Err() error { return c.parent().Err() }

// Value implements context.Context.
// The Context of a served call also carries the request's logger for
// mcperr's TryCatch and Retry (see internal/reqlog), built on first use.
func (c *Context) Value(key any) any {
	if key == (contextKey{}) {
		return c
	}
	if c != nil && c.srv != nil && reqlog.Is(key) {
		return c.reqLog
	}
	return c.parent().Value(key)
}

// Fail returns the error of a failure declared in this definition's Errors:
//   - its code is f.Code;
//   - its message is message, or f.When when message is empty;
//   - its data is data.retryable as f.Retryable declares it (true, false,
//     or absent), then the data of opts (which may override retryable),
//     then data.reason = f.Reason,
//     written last so that nothing can override it;
//   - opts may also give a cause ([mcperr.WithCause]).
//
// Return it, and the framework renders it on the wire. A failure that this
// definition does not declare yields an InternalError that names the declared
// reasons instead: a contract drifting from its handler fails loudly.
//
// The declared Recovery is not added by Fail; pass [Context.RecoveryFor] (or
// [mcperr.WithRecovery] with a hint built at run time) to send it.
func (c *Context) Fail(f Failure, message string, opts ...mcperr.Option) *mcperr.Error {
	if c == nil || c.kind == "" {
		return mcperr.InternalError(fmt.Sprintf("ctx.Fail(%q) was called on a Context that mcpcore did not build, which has no contract: serve the handler, or run it with mcptest.NewHarness in a test.", f.Reason),
			mcperr.WithCause(errNotDeclared), mcperr.WithData(map[string]any{"reason": f.Reason}))
	}
	if !declares(c.contract, f) {
		msg := fmt.Sprintf("ctx.Fail() called with unknown reason '%s' — not declared in the Errors of %s %q.", f.Reason, c.kind, c.name)
		if _, ok := byReason(c.contract, f.Reason); ok {
			msg = fmt.Sprintf("ctx.Fail() called with a Failure '%s' that differs from the one declared in the Errors of %s %q; pass the declared value.", f.Reason, c.kind, c.name)
		}
		return mcperr.InternalError(msg, mcperr.WithCause(errNotDeclared),
			mcperr.WithData(map[string]any{"reason": f.Reason, "declaredReasons": reasons(c.contract)}))
	}
	return build(f, message, opts)
}

// errNotDeclared is the cause of the error Fail returns for a failure its
// contract does not declare: it marks the framework's own error, which is
// logged at error whatever the severity of the reason it names.
var errNotDeclared = errors.New("mcpcore: Fail was given a failure that the contract does not declare")

// RecoveryFor returns an option that sets data.recovery.hint to the
// Recovery this definition's contract declares for f's reason, for
// [Context.Fail] or any [mcperr] factory. When the contract has no entry
// with that reason, or there is no contract, the option does nothing, so it
// is always safe to pass. A service that has only a context.Context uses
// [RecoveryFor], which is this method.
func (c *Context) RecoveryFor(f Failure) mcperr.Option {
	if c == nil {
		return noOption
	}
	declared, ok := byReason(c.contract, f.Reason)
	if !ok {
		return noOption
	}
	return mcperr.WithRecovery(declared.Recovery)
}

// RecoveryFor is [Context.RecoveryFor] for code that has only a
// context.Context, such as a service a handler calls: the hint is the one
// the contract of the tool or resource being served declares for f's
// reason, so a service need not know which tool called it. When ctx
// carries no contract, or the contract has no entry with f's reason, the
// option does nothing. The service opts in where it raises, and
// [Context.FailFrom] keeps the hint:
//
//	return nil, mcperr.ServiceUnavailable("NCBI is unreachable", mcpcore.RecoveryFor(ctx, ncbiDown))
func RecoveryFor(ctx context.Context, f Failure) mcperr.Option {
	if ctx == nil {
		return noOption
	}
	c, _ := ctx.Value(contextKey{}).(*Context)
	return c.RecoveryFor(f)
}

// FailFrom maps a service's error onto this definition's contract. When
// err carries an [*mcperr.Error], the entry it becomes is, among entries:
//   - the one whose Reason is the error's data.reason, when the service
//     named one (a service that raises RateLimited for its own queue and
//     for the upstream's quota tells the two apart this way); its Code is
//     the code that goes out;
//   - otherwise the one entry with the error's code.
//
// That entry is returned as [Context.Fail] builds it, with:
//   - err's message, and err as its cause;
//   - err's data (data set deliberately, so client-safe: retryAfter,
//     status, a recovery hint the service set, …), under the entry's
//     reason, which is written last.
//
// The entry's declared Recovery is not added, as Fail does not add it: a
// hint reaches the client when the service raised its error with one
// ([RecoveryFor], or [mcperr.WithRecovery]).
//
// When neither decides (err nil, no *mcperr.Error in it, a data.reason no
// entry has and no entry with its code, or several entries with its code
// and no data.reason naming one of them) it returns err unchanged, for the
// framework to render as it is. With no entries, the definition's whole
// contract is searched. (mcplint sees the reasons of the entries passed,
// not of a whole-contract search.)
func (c *Context) FailFrom(err error, entries ...Failure) error {
	if err == nil || c == nil {
		return err
	}
	e, ok := errchain.As[*mcperr.Error](err)
	if !ok || e == nil {
		return err
	}
	candidates := entries
	if len(candidates) == 0 {
		candidates = c.contract
	}
	match := mapped(candidates, e)
	if match == nil {
		return err
	}
	opts := []mcperr.Option{mcperr.WithCause(err)}
	if data := e.Data(); len(data) > 0 {
		opts = append(opts, mcperr.WithData(data))
	}
	return c.Fail(*match, e.Message(), opts...)
}

// mapped returns the entry FailFrom maps e to: the one named by e's
// data.reason, else the only one with e's code; nil when neither decides.
func mapped(candidates []Failure, e *mcperr.Error) *Failure {
	if r, ok := e.Data()["reason"].(string); ok && r != "" {
		for i := range candidates {
			if candidates[i].Reason == r {
				return &candidates[i]
			}
		}
	}
	var match *Failure
	for i, f := range candidates {
		if f.Code != e.Code() {
			continue
		}
		if match != nil && match.Reason != f.Reason {
			return nil // ambiguous: the caller must choose
		}
		match = &candidates[i]
	}
	return match
}

func noOption(*mcperr.Error) {}

// reqLog is the server's logger of this request, with its attributes;
// nil in a zero Context.
func (c *Context) reqLog() *slog.Logger {
	c.reqOnce.Do(func() {
		if c.base != nil {
			h := c.base.Handler().WithAttrs(c.logAttrs())
			if c.task != nil {
				h = taskIDHandler{h, c.task}
			}
			c.log = slog.New(h)
		}
	})
	return c.log
}

// logAttrs are the request's attributes (see requestAttrs), made once.
func (c *Context) logAttrs() []slog.Attr {
	c.attrsOnce.Do(func() {
		if c.attrs == nil {
			c.attrs = c.requestAttrs()
		}
	})
	return c.attrs
}

// logRecord writes one record of the call with the server's logger: the
// request's attributes go with the record, rather than into a logger of
// the request that a call which logs once would build for nothing.
func (c *Context) logRecord(level slog.Level, msg string, attrs ...slog.Attr) {
	if c.base == nil {
		c.reqLog().LogAttrs(context.WithoutCancel(c), level, msg, attrs...)
		return
	}
	req := c.recordAttrs()
	c.base.LogAttrs(context.WithoutCancel(c), level, msg, append(req[:len(req):len(req)], attrs...)...)
}

// logScrubbed writes the record of a call's failure, whose texts
// logFailure has scrubbed, each once, past the redaction of the server's
// logger, which would only scan them again. A logger whose handler is not
// the redactor's own gets it through logRecord.
func (c *Context) logScrubbed(level slog.Level, msg string, attrs ...slog.Attr) {
	h, ok := redact.Below(c.base.Handler())
	if !ok {
		c.logRecord(level, msg, attrs...)
		return
	}
	ctx := context.WithoutCancel(c)
	if !h.Enabled(ctx, level) {
		return
	}
	r := slog.NewRecord(time.Now(), level, msg, 0)
	r.AddAttrs(c.recordAttrs()...)
	r.AddAttrs(attrs...)
	_ = h.Handle(ctx, r)
}

// requestAttrs are the attributes of every record of the call, the
// server's and the handler's: which request it belongs to, and which trace
// when one is recorded. The request id exists only for the records, and is
// drawn only when there is one.
func (c *Context) requestAttrs() []slog.Attr {
	attrs := []slog.Attr{slog.String("requestId", newRequestID()), slog.String("operation", c.kind+":"+c.name)}
	if c.session != nil {
		// Scrubbed once here: a stateless server takes the id a client
		// sends, and the failure's record goes past the log's redaction
		// (see logScrubbed).
		if id := c.session.ID(); id != "" {
			attrs = append(attrs, slog.String("sessionId", redact.String(id)))
		}
	}
	if traceID, spanID := c.traceIDs(); traceID != "" {
		attrs = append(attrs, slog.String("traceId", traceID), slog.String("spanId", spanID))
	}
	return attrs
}

// Logger returns the logger of this request. Its records carry the request
// id, the definition (operation, such as tool:fetch_articles), the session
// and, once the call is a task, the task's id (taskId), and are redacted (see [ServerOptions.Logger]). They go to the
// server's log and, when the client has asked for log notifications with
// logging/setLevel, to the client as notifications/message at or above its
// level, with the server's name as the logger name.
func (c *Context) Logger() *slog.Logger {
	c.buildLogs()
	return c.userLog
}

// buildLogs builds the handler's logger, and the client's when there is a
// session to notify.
func (c *Context) buildLogs() {
	c.logOnce.Do(func() {
		c.userLog = c.reqLog()
		if c.userLog == nil { // a zero Context
			c.userLog = slog.Default()
			return
		}
		if c.session == nil || !c.clientLogs {
			return
		}
		//lint:ignore SA1019 log notifications stay in the protocol through its deprecation window, and clients use them.
		client := mcp.NewLoggingHandler(c.session, &mcp.LoggingHandlerOptions{LoggerName: c.serverName})
		// One redaction for both: the client gets exactly the attributes
		// of the record, after the same redaction of secrets.
		// What is captured for diagnostics stays in the server's log.
		var toClient slog.Handler = callContext{client.WithAttrs(c.attrs), context.WithoutCancel(c)}
		if c.task != nil {
			toClient = untilTask{toClient, c.task}
		}
		clientHandler := redact.Handler(serverOnly{toClient})
		c.clientLog = slog.New(clientHandler)
		c.userLog = slog.New(redact.Handler(slog.NewMultiHandler(c.reqLog().Handler(), clientHandler)))
	})
}

// notifyClient sends a record to the client only, if it asked for log
// notifications.
func (c *Context) notifyClient(level slog.Level, msg string, attrs ...slog.Attr) {
	if !c.clientLogs {
		return
	}
	c.buildLogs()
	if c.clientLog != nil {
		c.clientLog.LogAttrs(context.WithoutCancel(c), level, msg, attrs...)
	}
}

// callContext sends a record to the client in the context of the call: the
// SDK routes a notification by the request in its context (over HTTP, on
// the request's own stream; without it, on a stream the client may never
// open), and under newer protocol versions reads the client's level from
// the request. A record logged without a context is sent in the call's.
type callContext struct {
	slog.Handler
	call context.Context
}

func (h callContext) Enabled(_ context.Context, l slog.Level) bool {
	return h.Handler.Enabled(h.call, l)
}

func (h callContext) Handle(_ context.Context, r slog.Record) error {
	return h.Handler.Handle(h.call, r)
}

func (h callContext) WithAttrs(as []slog.Attr) slog.Handler {
	return callContext{h.Handler.WithAttrs(as), h.call}
}

func (h callContext) WithGroup(name string) slog.Handler {
	return callContext{h.Handler.WithGroup(name), h.call}
}

// untilTask sends records to the client until the call becomes a task:
// log notifications are not sent on tasks (they still reach the server's
// log).
type untilTask struct {
	slog.Handler
	task *taskCall
}

func (h untilTask) Enabled(ctx context.Context, l slog.Level) bool {
	return !h.task.detached.Load() && h.Handler.Enabled(ctx, l)
}

func (h untilTask) WithAttrs(as []slog.Attr) slog.Handler {
	return untilTask{h.Handler.WithAttrs(as), h.task}
}

func (h untilTask) WithGroup(name string) slog.Handler {
	return untilTask{h.Handler.WithGroup(name), h.task}
}

// Logger returns the logger of the request ctx belongs to, as
// [Context.Logger] does, for services that hold only a context.Context; or
// slog.Default() outside a served call.
func Logger(ctx context.Context) *slog.Logger {
	if c, _ := ctx.Value(contextKey{}).(*Context); c != nil {
		return c.Logger()
	}
	return slog.Default()
}

// Session returns the client session the request came from.
func (c *Context) Session() *mcp.ServerSession { return c.session }

// URI returns the URI being read, for a resource handler; "" otherwise.
func (c *Context) URI() string { return c.uri }
