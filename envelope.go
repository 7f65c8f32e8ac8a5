package mcpcore

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/internal/errchain"
	"github.com/seed417024ea/mcpcore/internal/repeats"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// MaxURIBytes is the longest resource URI the server reads, subscribes to
// or notifies of; a longer one is refused with InvalidParams (-32602)
// before any template is matched against it, and an event from the bus
// ([ServerOptions.Bus]) that carries one is dropped.
const MaxURIBytes = 8 << 10

// receive is the receiving middleware through which every request and its
// answer pass, the SDK's own methods included.
//   - A call of an HTTP POST tells its endpoint it has reached the server,
//     so that an answer that stays quiet while the call runs is sent its
//     status line and keep-alive comments rather than nothing until the
//     result; a call served on a session that stateless calls share runs
//     with its POST's context values and writes its notifications to its
//     POST (see httpserve.Endpoints.Bind). Notifications have no answer
//     to keep alive, and requests over stdio no POST.
//   - Before the SDK sees a request, it refuses a URI that is too long or
//     holds a control character (the SDK's "resource not found" error
//     formats the URI with Go's %q, which is not JSON for a control
//     character: the answer could not be encoded, and the stdio server
//     ended).
//   - A tools/call that became a task is answered with its
//     CreateTaskResult, which its handler passed out in the placeholder
//     result (see becomeTask); a tasks/* method's handler finds the
//     request in its context.
//   - A session of MCP 2025-11-25 gets the experimental task utility
//     (see legacyTasks and legacyListing).
//   - After, it gives the SDK's answer for a definition it does not have
//     the reason and hint of one declared Disabled (see disabledAnswer),
//     makes every JSON-RPC error the SDK sends well formed (see
//     wireRPCError), notes the sessions whose client set a log level
//     (see noteLogLevel), and leaves out of a list what its caller does
//     not see (see listedTo).
func (s *Server) receive(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
		// The SDK does not recover a panic of its method handlers: one here
		// would end the session (over stdio, the process's only one).
		defer func() {
			if r := recover(); r != nil {
				res, err = nil, s.receivePanicked(ctx, method, &panicError{value: r, stack: debug.Stack()})
			}
		}()
		if extra := req.GetExtra(); extra != nil && extra.Header != nil && !strings.HasPrefix(method, "notifications/") {
			ctx = s.endpoints.Bind(ctx, extra.Header)
		}
		if err := checkURI(req); err != nil {
			return nil, err
		}
		if s.taskStore != nil && isTasksMethod(method) {
			// A custom method's handler gets no request: what it needs of
			// it goes in its context.
			ctx = context.WithValue(ctx, taskRequestKey{}, req)
		}
		res, err = s.legacyTasks(ctx, next, method, req)
		if err != nil {
			return nil, wireRPCError(method, s.disabledAnswer(ctx, req, err))
		}
		if r, ok := res.(*mcp.CallToolResult); ok && r.Meta != nil {
			if created, ok := r.Meta[taskSlotKey].(*createTaskResult); ok {
				return created, nil
			}
		}
		if method == "logging/setLevel" {
			s.noteLogLevel(req)
		}
		s.listedTo(ctx, req, res)
		return s.legacyListing(method, req, res), nil
	}
}

// receivePanicked logs a panic that escaped a method's handler once,
// collapsed, and answers the request with an InternalError that says
// nothing of the panic's value.
func (s *Server) receivePanicked(ctx context.Context, method string, p *panicError) error {
	msg := "mcpcore: a panic escaped the handling of a request; it was answered with an internal error"
	site := panicSite(p.stack)
	attrs := []slog.Attr{slog.String("method", repeats.Bounded(method)), slog.String("panicSite", site), slog.String("error", p.Error())}
	if s.repeats.Admit("receive panic "+repeats.Cut(method, 64)+" "+site, slog.LevelError, msg, attrs) {
		s.logger.LogAttrs(context.WithoutCancel(ctx), slog.LevelError, msg, attrs...)
	}
	return &jsonrpc.Error{Code: int64(mcperr.CodeInternalError),
		Message: "Internal error: the server failed while handling " + repeats.Cut(method, 64) + "; the failure is logged."}
}

// checkURI refuses the URI of a resources/read, subscribe or unsubscribe
// that no resource could have (see uriFault).
func checkURI(req mcp.Request) error {
	var uri string
	switch p := req.GetParams().(type) {
	case *mcp.ReadResourceParams:
		uri = p.URI
	case *mcp.SubscribeParams:
		uri = p.URI
	case *mcp.UnsubscribeParams:
		uri = p.URI
	default:
		return nil
	}
	return invalidURI(uri)
}

// invalidURI is the InvalidParams error of a URI that no resource could
// have (see uriFault), or nil.
func invalidURI(uri string) error {
	if why := uriFault(uri); why != "" {
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Invalid params: " + why + "."}
	}
	return nil
}

// uriFault says why no resource could have uri, whether a client sent it
// or the bus brought it, before any template is matched against it: it is
// over MaxURIBytes, or it holds a control character (U+0000–U+001F,
// U+007F–U+009F), which a URI carries percent-encoded. It is "" for any
// other URI.
func uriFault(uri string) string {
	if len(uri) > MaxURIBytes {
		return fmt.Sprintf("the URI is %d bytes long; this server reads URIs of at most %d bytes", len(uri), MaxURIBytes)
	}
	if i := strings.IndexFunc(uri, unicode.IsControl); i >= 0 {
		r, _ := utf8.DecodeRuneInString(uri[i:])
		return fmt.Sprintf("the URI holds the control character %U at byte %d; percent-encode it", r, i)
	}
	return ""
}

// wireRPCError is err as the client gets it: a *jsonrpc.Error with a real
// code, whose message and data are scrubbed as a failure's are (see
// newWireError), and whose data is JSON whoever built it.
//   - A *jsonrpc.Error in err's tree gives the code; its data goes when err
//     is that error itself, as the SDK sends it. Data that is not JSON is
//     dropped rather than sent as bytes the client cannot parse, or that
//     the SDK cannot encode at all.
//   - Any other error, which the SDK would send with code 0 (no JSON-RPC
//     code), is InternalError; but for a second initialize on a session,
//     which is the client's mistake: InvalidRequest.
func wireRPCError(method string, err error) error {
	w, ok := errchain.As[*jsonrpc.Error](err)
	if !ok || w == nil {
		if method == "initialize" {
			return &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest,
				Message: "Invalid request: this session is already initialized; initialize is sent once, at the start of a session."}
		}
		return &jsonrpc.Error{Code: int64(mcperr.CodeInternalError), Message: wireMessage(safeText(err))}
	}
	out := &jsonrpc.Error{Code: w.Code, Message: wireMessage(safeText(err))}
	if error(w) == err && len(w.Data) > 0 {
		out.Data = scrubJSON(w.Data)
	}
	return out
}

// safeText is err's text, or a generic one when its Error method panics.
func safeText(err error) (text string) {
	defer func() {
		if recover() != nil {
			text = mcperr.WithheldMessage
		}
	}()
	return err.Error()
}
