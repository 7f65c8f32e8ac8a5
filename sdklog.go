package mcpcore

import (
	"context"
	"log/slog"
	"strings"

	"github.com/seed417024ea/mcpcore/internal/repeats"
)

// sdkLogger is the logger handed to the SDK: its records below warning
// (connecting, session connected, …, several per stdio session) go to
// debug, so that at the default level the server's log holds its banner
// and its failures; the SDK's warnings and errors keep their level.
func sdkLogger(l *slog.Logger) *slog.Logger { return slog.New(quieter{l.Handler(), nil}) }

// sdkHTTPLogger is sdkLogger for the SDK's HTTP handler, whose warnings
// also pass through the server's collapser of repeats: a client can make
// it warn once per request (a protocol version it refuses), and the log
// must not be the client's to fill.
func sdkHTTPLogger(l *slog.Logger, r *repeats.Collapser) *slog.Logger {
	return slog.New(quieter{l.Handler(), r})
}

type quieter struct {
	slog.Handler
	repeats *repeats.Collapser // nil: nothing collapsed
}

func quiet(l slog.Level) slog.Level {
	if l < slog.LevelWarn {
		return slog.LevelDebug
	}
	return l
}

func (q quieter) Enabled(ctx context.Context, l slog.Level) bool {
	return q.Handler.Enabled(ctx, quiet(l))
}

func (q quieter) Handle(ctx context.Context, r slog.Record) error {
	r.Level = quiet(r.Level)
	if q.repeats != nil && r.Level >= slog.LevelWarn && !q.repeats.Admit(sdkKind(r.Message), r.Level, r.Message, nil) {
		return nil
	}
	return q.Handler.Handle(ctx, r)
}

// sdkKind is the kind of an SDK record for the collapser: its message up
// to the first quoted value (which the SDK fills with what the client
// sent), at most 64 bytes of it.
func sdkKind(msg string) string {
	if i := strings.IndexByte(msg, '"'); i >= 0 {
		msg = msg[:i]
	}
	if len(msg) > 64 {
		msg = msg[:64]
	}
	return "sdk\x00" + msg
}

func (q quieter) WithAttrs(as []slog.Attr) slog.Handler {
	return quieter{q.Handler.WithAttrs(as), q.repeats}
}

func (q quieter) WithGroup(name string) slog.Handler {
	return quieter{q.Handler.WithGroup(name), q.repeats}
}
