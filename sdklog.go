package mcpcore

import (
	"context"
	"log/slog"
)

// sdkLogger is the logger handed to the SDK: its records below warning
// (connecting, session connected, …, several per stdio session) go to
// debug, so that at the default level the server's log holds its banner
// and its failures; the SDK's warnings and errors keep their level.
func sdkLogger(l *slog.Logger) *slog.Logger { return slog.New(quieter{l.Handler()}) }

type quieter struct{ slog.Handler }

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
	return q.Handler.Handle(ctx, r)
}

func (q quieter) WithAttrs(as []slog.Attr) slog.Handler { return quieter{q.Handler.WithAttrs(as)} }

func (q quieter) WithGroup(name string) slog.Handler { return quieter{q.Handler.WithGroup(name)} }
