package mcpcore

import (
	"context"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/internal/fanout"
	"github.com/seed417024ea/mcpcore/internal/repeats"
)

// MaxQueuedNotifications bounds the notifications waiting for one session
// (a resource's updates, a list's change): beyond it, the session's
// client is not reading them, and the next ones are dropped, counted and
// logged once, rather than held in memory.
const MaxQueuedNotifications = 256

// broadcasts are the notifications the SDK sends to every session that
// should hear of a change, in turn, from the goroutine that raised it: a
// tool's call, or the bus's delivery of another replica's event.
var broadcasts = map[string]bool{
	"notifications/resources/updated":      true,
	"notifications/resources/list_changed": true,
	"notifications/tools/list_changed":     true,
	"notifications/prompts/list_changed":   true,
}

// queueBroadcasts hands each broadcast notification to its session's own
// queue (see internal/fanout) and returns at once. Sent in turn, one
// session whose client does not read held every call that raised a
// change for as long as a write may block (about half a minute over HTTP,
// for ever over a pipe), and every session after it waited as long. A
// session's notifications keep their order; one that repeats an update of
// the same resource still waiting is not queued again.
func (s *Server) queueBroadcasts(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		ss, ok := req.GetSession().(*mcp.ServerSession)
		if !broadcasts[method] || !ok {
			return next(ctx, method, req)
		}
		key := method
		if p, ok := req.GetParams().(*mcp.ResourceUpdatedNotificationParams); ok {
			key += " " + p.URI
		}
		ctx = context.WithoutCancel(ctx)
		s.subscribers.Send(ss, key, func() {
			if _, err := next(ctx, method, req); err != nil {
				s.undelivered(ss, method, err)
			}
		})
		return nil, nil
	}
}

// undelivered logs a notification its session did not take (a session
// without a stream to carry it, one that ended), collapsed with its
// repeats: clients can cause one per change and session.
func (s *Server) undelivered(ss *mcp.ServerSession, method string, err error) {
	msg := "mcpcore: a notification could not be delivered to its session"
	why := []slog.Attr{slog.String("method", method), slog.String("error", repeats.Bounded(err.Error()))}
	if s.repeats.Admit("undelivered notification", slog.LevelWarn, msg, why) {
		s.logger.LogAttrs(context.Background(), slog.LevelWarn, msg, append(why, slog.String("sessionId", ss.ID()))...)
	}
}

// dropped logs, once per episode, the notifications a session's full queue
// dropped, collapsed with the episodes of other sessions.
func (s *Server) dropped(ss *mcp.ServerSession, n int) {
	msg := "mcpcore: notifications to a session were dropped: its client did not read them as fast as they came"
	why := []slog.Attr{slog.Int("queue", MaxQueuedNotifications)}
	if s.repeats.Admit("dropped notifications", slog.LevelWarn, msg, why) {
		s.logger.LogAttrs(context.Background(), slog.LevelWarn, msg, append(why, slog.Int("dropped", n), slog.String("sessionId", ss.ID()))...)
	}
}

// newSubscribers makes the queues of the sessions' notifications.
func (s *Server) newSubscribers() *fanout.Queues[*mcp.ServerSession] {
	return fanout.New(MaxQueuedNotifications, s.dropped)
}
