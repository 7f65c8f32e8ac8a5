package redis

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"strconv"
	"strings"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/seed417024ea/mcpcore/fleet/opener"
	"github.com/seed417024ea/mcpcore/internal/errchain"
)

// The bounds Open sets on the client it makes, where the URL sets none: a
// Redis that stalls (stopped, or a partition) then costs a call well under
// a second before the fleet counts and notifies locally.
const (
	dialTimeout = time.Second
	ioTimeout   = 500 * time.Millisecond
)

// Open is the [opener.Func] of Redis: set app.Options.OpenRedis to it,
// and the app opens MCP_REDIS_URL (redis:// or rediss://) as it starts
// and closes the connection as it stops. It makes a client for rawURL,
// with short timeouts where the URL sets none, and a [Fleet] that owns it.
// Redis being away is no error: the server starts, with a warning, and the
// Fleet keeps trying in the background. A URL that does not parse is an
// error that does not repeat its credentials.
func Open(rawURL string, o opener.Options) (*opener.Shared, error) {
	opt, err := goredis.ParseURL(rawURL)
	if err != nil {
		return nil, urlError(rawURL, err)
	}
	if opt.DialTimeout == 0 {
		opt.DialTimeout = dialTimeout
	}
	if opt.ReadTimeout == 0 {
		opt.ReadTimeout = ioTimeout
	}
	if opt.WriteTimeout == 0 {
		opt.WriteTimeout = ioTimeout
	}
	if opt.MaxRetries == 0 {
		// A retry would multiply the wait on a stalled Redis; the fleet
		// tries again by itself.
		opt.MaxRetries = -1
	}
	opt.ContextTimeoutEnabled = true
	if o.Logger != nil {
		// go-redis logs its own reconnection attempts to stderr by
		// default, past the server's logger and its redaction; its
		// logger is the process's, which a server that opens Redis
		// from MCP_REDIS_URL owns.
		goredis.SetLogger(clientLog{o.Logger})
	}
	client := goredis.NewClient(opt)
	f := New(client, &Options{Server: o.Server, Logger: o.Logger, MeterProvider: o.MeterProvider})
	f.owned = true
	where := describe(opt)
	ctx, cancel := context.WithTimeout(context.Background(), opt.DialTimeout)
	err = client.Ping(ctx).Err()
	cancel()
	if err != nil {
		f.log.Warn("Redis is unreachable at start: the server starts without it and keeps trying; until it answers, notifications reach this replica's subscribers only and rate limits count per replica",
			"redis", where, "error", err)
	}
	return &opener.Shared{
		Bus:      f.Bus(),
		Limiter:  f.Limiter(),
		Tasks:    f.Tasks(),
		Catalog:  f.Catalog(),
		Describe: "redis " + where + " (notifications, rate limits, tasks)",
		Close:    f.Close,
	}, nil
}

// describe names the server the client talks to, without credentials:
// "127.0.0.1:6379/0", with ", TLS" for rediss.
func describe(opt *goredis.Options) string {
	s := opt.Addr + "/" + strconv.Itoa(opt.DB)
	if opt.Network == "unix" {
		s = "unix:" + s
	}
	if opt.TLSConfig != nil {
		s += ", TLS"
	}
	return s
}

// urlError says why raw does not parse without repeating it: net/url's
// errors quote the whole URL, password included, so only their reason is
// kept, and anything of the user information left in it is masked.
func urlError(raw string, err error) error {
	msg := err.Error()
	if ue, ok := errchain.As[*url.Error](err); ok {
		msg = ue.Err.Error()
	}
	for _, secret := range userinfo(raw) {
		msg = strings.ReplaceAll(msg, secret, "xxxxx")
	}
	return fmt.Errorf("the Redis URL does not parse (want redis://[user:password@]host[:port][/db], or rediss://): %s", msg)
}

// userinfo is what of raw may be credentials, longest first: everything
// between "//" and the last "@", and its password part.
func userinfo(raw string) []string {
	_, rest, ok := strings.Cut(raw, "//")
	if !ok {
		rest = raw
	}
	at := strings.LastIndex(rest, "@")
	if at <= 0 {
		return nil
	}
	ui := rest[:at]
	out := []string{ui}
	if _, pw, ok := strings.Cut(ui, ":"); ok && pw != "" {
		out = append(out, pw)
	}
	return out
}

// clientLog passes go-redis's own messages, its reconnection attempts, to
// the server's logger at debug: the fleet logs each outage once itself.
type clientLog struct{ l *slog.Logger }

func (c clientLog) Printf(ctx context.Context, format string, v ...any) {
	c.l.DebugContext(ctx, "redis client: "+fmt.Sprintf(format, v...))
}
