package mcpcore

import (
	"context"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The client's log notifications cost a handler of their own per call
// (the SDK's LoggingHandler, its JSON encoder, a redactor); most clients
// never ask for them. The server notes the sessions whose client set a
// level (logging/setLevel), and a request that carries its own level
// (2026-07-28), and builds that handler for those calls only. The SDK
// still decides, record by record, what reaches the client.

// noteLogLevel notes the session of a logging/setLevel its client set,
// until it ends.
func (s *Server) noteLogLevel(req mcp.Request) {
	if ss, ok := req.GetSession().(*mcp.ServerSession); ok {
		if _, loaded := s.logLevels.LoadOrStore(ss, struct{}{}); !loaded {
			go func() {
				ss.Wait()
				s.logLevels.Delete(ss)
			}()
		}
	}
}

// wantsLogs reports whether a call of session ss, with params._meta meta,
// may send log notifications to its client.
func (s *Server) wantsLogs(ss *mcp.ServerSession, meta map[string]any) bool {
	if ss == nil {
		return false
	}
	//lint:ignore SA1019 log notifications stay in the protocol through its deprecation window, and clients use them.
	if _, ok := meta[mcp.MetaKeyLogLevel]; ok {
		return true
	}
	_, ok := s.logLevels.Load(ss)
	return ok
}

// serverOnlyKeys are the attributes that stay in the server's log when a
// record is mirrored to the client: what is captured for diagnostics, such
// as the input of an operation and the stack that [mcperr.TryCatch] log.
// The client learns of a failure what its result says.
var serverOnlyKeys = map[string]bool{"input": true, "stack": true}

// serverOnly drops the serverOnlyKeys attributes of the records it passes
// on to the client.
type serverOnly struct{ slog.Handler }

func (h serverOnly) Handle(ctx context.Context, r slog.Record) error {
	kept := slog.NewRecord(r.Time, r.Level, r.Message, r.PC)
	r.Attrs(func(a slog.Attr) bool {
		if !serverOnlyKeys[a.Key] {
			kept.AddAttrs(a)
		}
		return true
	})
	return h.Handler.Handle(ctx, kept)
}

func (h serverOnly) WithAttrs(as []slog.Attr) slog.Handler {
	kept := make([]slog.Attr, 0, len(as))
	for _, a := range as {
		if !serverOnlyKeys[a.Key] {
			kept = append(kept, a)
		}
	}
	return serverOnly{h.Handler.WithAttrs(kept)}
}

func (h serverOnly) WithGroup(name string) slog.Handler {
	return serverOnly{h.Handler.WithGroup(name)}
}
