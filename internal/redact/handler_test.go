package redact

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"testing/slogtest"
	"time"
)

// capture returns a logger that writes JSON records through Handler, and a
// function that decodes the records written so far.
func capture(t *testing.T) (*slog.Logger, *bytes.Buffer, func() []map[string]any) {
	t.Helper()
	var buf bytes.Buffer
	logger := slog.New(Handler(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	return logger, &buf, func() []map[string]any {
		t.Helper()
		var recs []map[string]any
		dec := json.NewDecoder(bytes.NewReader(buf.Bytes()))
		for dec.More() {
			var r map[string]any
			if err := dec.Decode(&r); err != nil {
				t.Fatalf("decoding log: %v\n%s", err, buf.String())
			}
			delete(r, "time")
			recs = append(recs, r)
		}
		return recs
	}
}

// secrets are planted in the records below; none may reach the output.
const (
	pw    = "hunter2-PW"
	key   = "K3Y-abc123"
	tok   = "T0K-xyz789"
	bear  = "Bearer b3arerT0ken"
	jwt   = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"
	inURL = "Q-url-s3cret"
)

type creds struct {
	User  string `json:"user"`
	Token string `json:"token"`
}

// secretValuer resolves to a struct that holds a secret.
type secretValuer struct{}

func (secretValuer) LogValue() slog.Value {
	return slog.AnyValue(map[string]any{"user": "ann", "password": pw})
}

// groupValuer resolves to a group that holds a secret.
type groupValuer struct{}

func (groupValuer) LogValue() slog.Value {
	return slog.GroupValue(slog.String("user", "ann"), slog.String("apiKey", key))
}

func TestHandlerRedacts(t *testing.T) {
	logger, buf, records := capture(t)
	ctx := context.Background()
	u, _ := url.Parse("https://ann:" + inURL + "@h/x?api_key=" + key + "&q=1")

	logger.Info("call", "password", pw, "apiKey", key, "authorization", bear, "user", "ann", "n", 3)
	logger.Info("groups",
		slog.Group("db", "user", "ann", slog.Group("conn", "token", tok, "host", "h")),
		slog.Group("session_token", "id", tok))
	logger.With("token", tok).WithGroup("req").With("cookie", tok, "path", "/x").Info("with", "ok", 1)
	logger.WithGroup("credential").Info("secret group", "user", pw)
	logger.Info("containers",
		"nested", map[string]any{"deeper": map[string]any{"secret": pw, "kept": "yes"}},
		"creds", creds{"ann", tok},
		"credsPtr", &creds{"ann", tok},
		"list", []map[string]string{{"client_secret": key}},
		"raw", json.RawMessage(`{"access_token":"`+tok+`"}`),
	)
	logger.Info("errors",
		"err", fmt.Errorf("login: %w", fmt.Errorf("db: password=%s", pw)),
		"urlErr", &url.Error{Op: "Get", URL: u.String(), Err: errors.New("refused")},
		"bearer", errors.New("upstream rejected "+bear),
	)
	logger.Info("strings",
		"detail", "retry with api_key="+key,
		"url", u,
		"bytes", []byte("token: "+tok),
		"jwt", jwt,
		"valuer", secretValuer{},
		"groupValuer", groupValuer{},
	)
	logger.Info("message with password=" + pw + " and " + bear)
	logger.LogAttrs(ctx, slog.LevelWarn, "attrs", slog.Any("apiKey", 42), slog.Any("err", error(nil)))

	out := buf.String()
	for _, s := range []string{pw, key, tok, "b3arerT0ken", jwt, inURL} {
		if strings.Contains(out, s) {
			t.Errorf("secret %q logged:\n%s", s, out)
		}
	}

	recs := records()
	if len(recs) != 9 {
		t.Fatalf("got %d records, want 9:\n%s", len(recs), out)
	}
	want := []map[string]any{
		{"level": "INFO", "msg": "call", "password": Marker, "apiKey": Marker, "authorization": Marker, "user": "ann", "n": 3.0},
		{"level": "INFO", "msg": "groups",
			"db":            map[string]any{"user": "ann", "conn": map[string]any{"token": Marker, "host": "h"}},
			"session_token": Marker},
		{"level": "INFO", "msg": "with", "token": Marker, "req": map[string]any{"cookie": Marker, "path": "/x", "ok": 1.0}},
		{"level": "INFO", "msg": "secret group", "credential": map[string]any{"user": Marker}},
		{"level": "INFO", "msg": "containers",
			"nested":   map[string]any{"deeper": map[string]any{"secret": Marker, "kept": "yes"}},
			"creds":    map[string]any{"user": "ann", "token": Marker},
			"credsPtr": map[string]any{"user": "ann", "token": Marker},
			"list":     []any{map[string]any{"client_secret": Marker}},
			"raw":      map[string]any{"access_token": Marker}},
		{"level": "INFO", "msg": "errors",
			"err":    "login: db: password=[REDACTED]",
			"urlErr": `Get "https://[REDACTED]@h/x?api_key=[REDACTED]&q=1": refused`,
			"bearer": "upstream rejected Bearer [REDACTED]"},
		{"level": "INFO", "msg": "strings",
			"detail":      "retry with api_key=[REDACTED]",
			"url":         "https://[REDACTED]@h/x?api_key=[REDACTED]&q=1",
			"bytes":       "token: [REDACTED]",
			"jwt":         Marker,
			"valuer":      map[string]any{"user": "ann", "password": Marker},
			"groupValuer": map[string]any{"user": "ann", "apiKey": Marker}},
		{"level": "INFO", "msg": "message with password=[REDACTED] and Bearer [REDACTED]"},
		{"level": "WARN", "msg": "attrs", "apiKey": Marker, "err": nil},
	}
	for i := range want {
		if !reflect.DeepEqual(recs[i], want[i]) {
			t.Errorf("record %d:\n got %v\nwant %v", i, recs[i], want[i])
		}
	}
}

func TestHandlerUnloggable(t *testing.T) {
	logger, buf, records := capture(t)
	var nilErr *url.Error // its Error method dereferences the nil pointer
	logger.Info("x", "ch", map[string]any{"c": make(chan int)}, "panics", panicky{}, "nilErr", nilErr, "fails", failing{})
	rec := records()[0]
	for _, k := range []string{"ch", "panics", "fails"} {
		if s, _ := rec[k].(string); !strings.HasPrefix(s, "[unloggable value: ") {
			t.Errorf("%s = %#v, want an [unloggable value: …] placeholder", k, rec[k])
		}
	}
	if rec["nilErr"] != "<nil>" {
		t.Errorf("nilErr = %#v, want <nil>", rec["nilErr"])
	}
	if strings.Contains(buf.String(), "hunter2") {
		t.Errorf("secret logged: %s", buf.String())
	}
}

// A clean record reaches the wrapped handler exactly as it would without
// the wrapper.
func TestHandlerLeavesCleanRecords(t *testing.T) {
	var bare, wrapped bytes.Buffer
	opts := &slog.HandlerOptions{Level: slog.LevelDebug, AddSource: true}
	loggers := []*slog.Logger{
		slog.New(slog.NewTextHandler(&bare, opts)),
		slog.New(Handler(slog.NewTextHandler(&wrapped, opts))),
	}
	for _, l := range loggers {
		l = l.With("service", "articles").WithGroup("call")
		l.Info("tool call done", "tool", "fetch", "duration", time.Second, "ok", true,
			slog.Group("args", "ids", 3, "url", "https://h/x?q=cats"), "n", 7)
	}
	strip := func(s string) string { // times differ
		var lines []string
		for _, l := range strings.Split(s, "\n") {
			if _, rest, ok := strings.Cut(l, " "); ok {
				lines = append(lines, rest)
			}
		}
		return strings.Join(lines, "\n")
	}
	if b, w := strip(bare.String()), strip(wrapped.String()); b != w {
		t.Errorf("wrapped output differs:\n bare    %s\n wrapped %s", b, w)
	}
}

func TestHandlerWrapsOnce(t *testing.T) {
	inner := slog.NewJSONHandler(&bytes.Buffer{}, nil)
	h := Handler(inner)
	if again := Handler(h); again != h {
		t.Error("Handler wrapped a redacting handler again")
	}
	derived := h.WithAttrs([]slog.Attr{slog.String("a", "b")}).WithGroup("g")
	if again := Handler(derived); again != derived {
		t.Error("Handler wrapped a derived redacting handler again")
	}
	if h.WithGroup("") != h || h.WithAttrs(nil) != h {
		t.Error("an empty group or no attrs made a new handler")
	}
	defer func() {
		if recover() == nil {
			t.Error("Handler(nil) did not panic")
		}
	}()
	Handler(nil)
}

func TestHandlerEnabled(t *testing.T) {
	h := Handler(slog.NewJSONHandler(&bytes.Buffer{}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	ctx := context.Background()
	if h.Enabled(ctx, slog.LevelInfo) || !h.Enabled(ctx, slog.LevelWarn) {
		t.Error("Enabled is not the wrapped handler's")
	}
	if n := testing.AllocsPerRun(100, func() { h.Enabled(ctx, slog.LevelInfo) }); n != 0 {
		t.Errorf("Enabled allocates %v times", n)
	}
}

// nopHandler handles records by doing nothing, so that allocation counts
// are those of the wrapper alone.
type nopHandler struct{}

func (nopHandler) Enabled(context.Context, slog.Level) bool  { return true }
func (nopHandler) Handle(context.Context, slog.Record) error { return nil }
func (h nopHandler) WithAttrs([]slog.Attr) slog.Handler      { return h }
func (h nopHandler) WithGroup(string) slog.Handler           { return h }

func TestHandlerCleanRecordAllocatesNothing(t *testing.T) {
	h := Handler(nopHandler{})
	ctx := context.Background()
	r := slog.NewRecord(time.Now(), slog.LevelInfo, "tool call done", 0)
	r.AddAttrs(slog.String("tool", "fetch_articles"), slog.Int("status", 200), slog.Duration("duration", time.Millisecond),
		slog.Group("req", slog.String("id", "R-1"), slog.String("url", "https://h/x?q=cats")), slog.Any("n", 3), slog.Bool("ok", true))
	if n := testing.AllocsPerRun(100, func() { _ = h.Handle(ctx, r) }); n != 0 {
		t.Errorf("Handle of a clean record allocates %v times, want 0", n)
	}

	// Through a real logger: the wrapper adds nothing to slog's own cost.
	if raceEnabled {
		t.Skip("slog's buffer pool makes allocation counts random under the race detector")
	}
	bare := slog.New(slog.NewJSONHandler(discard{}, nil))
	wrapped := slog.New(Handler(slog.NewJSONHandler(discard{}, nil)))
	logAll := func(l *slog.Logger) func() {
		return func() {
			l.LogAttrs(ctx, slog.LevelInfo, "tool call done", slog.String("tool", "fetch"), slog.Int("status", 200))
		}
	}
	if b, w := testing.AllocsPerRun(100, logAll(bare)), testing.AllocsPerRun(100, logAll(wrapped)); w != b {
		t.Errorf("a clean record allocates %v times through the wrapper, %v without", w, b)
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// The wrapper is a well-behaved slog.Handler.
func TestHandlerSlogtest(t *testing.T) {
	var buf bytes.Buffer
	slogtest.Run(t, func(*testing.T) slog.Handler {
		buf.Reset()
		return Handler(slog.NewJSONHandler(&buf, nil))
	}, func(t *testing.T) map[string]any {
		var m map[string]any
		if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		return m
	})
}
