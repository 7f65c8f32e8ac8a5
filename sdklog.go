package mcpcore

import (
	"context"
	"log/slog"
	"strings"

	"github.com/seed417024ea/mcpcore/internal/repeats"
)

// sdkLogger is the logger handed to the SDK, its server's and its HTTP
// handler's alike. Its records below warning (connecting, session
// connected, …, several per session) go to debug, so that at the default
// level the server's log holds its banner and its failures; the SDK's
// warnings and errors keep their level. A client can make the SDK warn or
// err at will, once per request (a duplicate notifications/initialized,
// a protocol version it refuses), so these pass through the server's
// collapser of repeats, and every record's texts, which may quote what a
// client sent, are bounded (repeats.Bounded): the log must not be the
// client's to fill.
func sdkLogger(l *slog.Logger, r *repeats.Collapser) *slog.Logger {
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
	out := slog.NewRecord(r.Time, quiet(r.Level), repeats.Bounded(r.Message), r.PC)
	attrs := make([]slog.Attr, 0, r.NumAttrs())
	r.Attrs(func(a slog.Attr) bool {
		attrs = append(attrs, repeats.BoundedAttr(a))
		return true
	})
	if out.Level >= slog.LevelWarn && !q.repeats.Admit(sdkKind(r.Message), out.Level, out.Message, attrs) {
		return nil
	}
	out.AddAttrs(attrs...)
	return q.Handler.Handle(ctx, out)
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
	bounded := make([]slog.Attr, len(as))
	for i, a := range as {
		bounded[i] = repeats.BoundedAttr(a)
	}
	return quieter{q.Handler.WithAttrs(bounded), q.repeats}
}

func (q quieter) WithGroup(name string) slog.Handler {
	return quieter{q.Handler.WithGroup(name), q.repeats}
}
