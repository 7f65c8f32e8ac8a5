//lint:file-ignore SA1019 log notifications, deprecated in a future protocol version, are one of the surfaces a known secret must not reach.

package mcpcore_test

// The secrets a server knows are masked wherever they appear: an upstream
// that quotes the server's API key in prose (issue 35), a note that holds
// it, a progress message and a log record that repeat it, on stdio and
// HTTP, in the log and in the spans.

import (
	"bytes"
	"context"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/internal/wiretest/notes"
	"github.com/seed417024ea/mcpcore/mcperr"
	"github.com/seed417024ea/mcpcore/mcphttp"
	"github.com/seed417024ea/mcpcore/mcpotel"
)

// notesKey is the notes app's API key the server holds. No pattern could
// tell the whole of it is a credential; one matches its end (api_key=…),
// and must not leave the rest in clear.
const notesKey = "Zq8x-notes/api_key=2931ab"

var (
	noteRefused = mcpcore.Failure{Reason: "refused", Code: mcperr.CodeInvalidParams,
		When: "The notes app refused to read the note", Recovery: "Read a note the server may read."}
	notesDown = mcpcore.Failure{Reason: "notes_down", Code: mcperr.CodeInternalError,
		When: "The notes app failed", Recovery: "Try again in a minute."}
)

type noteIn struct {
	Path string `json:"path" jsonschema:"the note's path in the vault"`
}

type noteOut struct {
	Text   string `json:"text" jsonschema:"the note"`
	Base64 string `json:"base64" jsonschema:"the note, base64-encoded"`
	Link   string `json:"link" jsonschema:"a link that carries the note"`
}

// readNoteTool is the note server's tool, as its authors wrote it: the
// service's error goes through FailFrom; the note, a progress message and
// a log record go out as the service gave them.
func readNoteTool(svc *notes.Client) mcpcore.Tool[noteIn, noteOut] {
	return mcpcore.Tool[noteIn, noteOut]{
		Name:        "read_note",
		Description: "Read a note of the vault.",
		Errors:      []mcpcore.Failure{noteRefused, notesDown},
		Handler: func(ctx *mcpcore.Context, in noteIn) (noteOut, error) {
			text, err := svc.Read(ctx, in.Path)
			if err != nil {
				return noteOut{}, ctx.FailFrom(err)
			}
			ctx.Progress(1, 1, "read "+text)
			ctx.Logger().Info("read a note", "note", text)
			return noteOut{Text: text, Base64: base64.StdEncoding.EncodeToString([]byte(text)),
				Link: "https://share.example/?note=" + url.QueryEscape(text)}, nil
		},
	}
}

// notesServer is the note server, its upstream on loopback, a JSON log and
// a span recorder. The service keeps its key secret itself.
func notesServer(t *testing.T) (*mcpcore.Server, *wiretest.LogBuffer, *tracetest.SpanRecorder) {
	t.Helper()
	up := notes.Upstream(notesKey)
	t.Cleanup(up.Close)
	svc, err := notes.New(up.URL, notesKey)
	if err != nil {
		t.Fatal(err)
	}
	spans := tracetest.NewSpanRecorder()
	srv, logs := newServer(t, &mcpcore.ServerOptions{Observer: otelObserver(t, mcpotel.Options{
		TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans)),
	})},
		readNoteTool(svc))
	return srv, logs, spans
}

// keyForms are the forms of notesKey that must appear nowhere: as it is,
// its head (what a pattern that matched its end would leave), URL-escaped,
// and the characters of its base64 encoding that it alone decides, at
// each offset it may start at in a longer text.
var keyForms = func() []string {
	forms := []string{notesKey, notesKey[:10], url.QueryEscape(notesKey)}
	for offset := range 3 {
		enc := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("\x00", offset) + notesKey))
		forms = append(forms, enc[(8*offset+5)/6:8*(offset+len(notesKey))/6])
	}
	return forms
}()

// noKey fails t for every form of notesKey in out, and reports how many
// markers out has.
func noKey(t *testing.T, where, out string) int {
	t.Helper()
	for _, f := range keyForms {
		if n := strings.Count(out, f); n > 0 {
			t.Errorf("%s holds the key (%q) %d times:\n%s", where, f, n, out)
		}
	}
	return strings.Count(out, "[REDACTED]")
}

// spansText is every span's name, status, attributes and events.
func spansText(spans *tracetest.SpanRecorder) string {
	var b strings.Builder
	for _, s := range spans.Ended() {
		b.WriteString(s.Name() + " " + s.Status().Description)
		for _, a := range s.Attributes() {
			b.WriteString(" " + string(a.Key) + "=" + a.Value.String())
		}
		for _, e := range s.Events() {
			for _, a := range e.Attributes {
				b.WriteString(" " + string(a.Key) + "=" + a.Value.String())
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

const refusedText = "the key `[REDACTED]` is not allowed to read this file"

func TestKnownSecretsStdio(t *testing.T) {
	srv, logs, spans := notesServer(t)
	s := openStream(t, srv.Serve)
	s.handshake(t, "2025-06-18")
	// The level is set before the calls are sent: requests run
	// concurrently, and a call that ran first would send no log
	// notification.
	s.send(`{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"debug"}}` + "\n")
	var wire []string
	read := func(answers int) {
		for answered := 0; answered < answers; {
			l := s.next(t)
			wire = append(wire, l)
			if strings.HasPrefix(l, `{"jsonrpc":"2.0","id":`) {
				answered++
			}
		}
	}
	read(1)
	s.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_note","arguments":{"path":"private.md"}}}` + "\n")
	s.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read_note","arguments":{"path":"config.md"},"_meta":{"progressToken":"p"}}}` + "\n")
	read(2)
	out := strings.Join(wire, "\n")
	// The error result's two surfaces and its log notification; the
	// result's text, structured content, base64 and link; the progress
	// message and the log notification of the success.
	if n := noKey(t, "the stream", out); n < 9 {
		t.Errorf("the stream has %d markers, want 9 or more:\n%s", n, out)
	}
	if !strings.Contains(out, "Error: "+refusedText) || !strings.Contains(out, `"progressToken":"p"`) || !strings.Contains(out, `"logger"`) {
		t.Errorf("the stream lacks the failure, the progress or the log notification:\n%s", out)
	}
	if noKey(t, "the log", logs.String()) < 2 || !strings.Contains(logs.String(), "Error in tool:read_note: "+refusedText) {
		t.Errorf("the log:\n%s", logs.String())
	}
	text := spansText(spans)
	if noKey(t, "the spans", text) < 2 || !strings.Contains(text, "exception.message="+refusedText) {
		t.Errorf("the spans:\n%s", text)
	}
}

// recorder keeps every byte of every HTTP answer a client reads.
type recorder struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err == nil {
		resp.Body = struct {
			io.Reader
			io.Closer
		}{io.TeeReader(resp.Body, r), resp.Body}
	}
	return resp, err
}

func (r *recorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.buf.Write(p)
}

func (r *recorder) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.buf.String()
}

func TestKnownSecretsHTTP(t *testing.T) {
	srv, logs, _ := notesServer(t)
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	rec := &recorder{}
	var heard sync.WaitGroup
	heard.Add(2) // the progress, the log notification of the success
	var once [2]sync.Once
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) { once[0].Do(heard.Done) },
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			if r.Params.Level == "info" {
				once[1].Do(heard.Done)
			}
		},
	}).Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: hs.URL + "/mcp", HTTPClient: &http.Client{Transport: rec}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if err := cs.SetLoggingLevel(t.Context(), &mcp.SetLoggingLevelParams{Level: "debug"}); err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "read_note", Arguments: map[string]any{"path": "private.md"}})
	if err != nil || !res.IsError {
		t.Fatalf("read_note(private.md) = %v, %v", res, err)
	}
	params := &mcp.CallToolParams{Name: "read_note", Arguments: map[string]any{"path": "config.md"}}
	params.SetProgressToken("p")
	if res, err := cs.CallTool(t.Context(), params); err != nil || res.IsError {
		t.Fatalf("read_note(config.md) = %v, %v", res, err)
	}
	done := make(chan struct{})
	go func() { heard.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("no progress or log notification")
	}
	out := rec.String()
	if n := noKey(t, "the HTTP answers", out); n < 9 || !strings.Contains(out, refusedText) {
		t.Errorf("the HTTP answers have %d markers, want 9 or more:\n%s", n, out)
	}
	noKey(t, "the log", logs.String())
}

// TestKnownSecretsOfTheConfiguration: what the server reads from its
// configuration is masked without a word from the program, and a value
// too short to mask stops NewServer with a reason.
func TestKnownSecretsOfTheConfiguration(t *testing.T) {
	const stateKey = "state-key-of-the-fleet-0123456789abcdef"
	const jwtKey = "jwt-key-of-the-fleet-0123456789abcdef"
	cfg := mcpcore.Config{StateKeys: []string{stateKey}}
	echo := mcpcore.Tool[noteIn, noteOut]{Name: "echo", Description: "Send the path back.",
		Handler: func(_ *mcpcore.Context, in noteIn) (noteOut, error) { return noteOut{Text: in.Path}, nil }}
	// mcphttp.NewAuth keeps the key of mode jwt, as NewServer keeps the
	// state keys.
	opts := withAuth(t, &mcpcore.ServerOptions{Config: cfg, Secrets: []string{"go-declared-secret-1"}},
		mcphttp.AuthConfig{Mode: mcphttp.AuthJWT, SecretKey: jwtKey})
	srv, _ := newServer(t, opts, echo)
	s := openStream(t, srv.Serve)
	s.handshake(t, "2025-06-18")
	s.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"path":"` +
		stateKey + " " + jwtKey + " go-declared-secret-1" + `"}}}` + "\n")
	if l := s.next(t); strings.Contains(l, stateKey) || strings.Contains(l, jwtKey) || strings.Contains(l, "go-declared") ||
		strings.Count(l, "[REDACTED] [REDACTED] [REDACTED]") != 2 {
		t.Errorf("the answer is %s", l)
	}

	_, err := mcpcore.NewServer(mcpcore.Info{Name: "s"}, &mcpcore.ServerOptions{Secrets: []string{"long-enough-1", "pin1234"}}, echo)
	if e, ok := err.(*mcperr.Error); !ok || e.Code() != mcperr.CodeConfigurationError ||
		!strings.Contains(err.Error(), "ServerOptions.Secrets: value 2 of 2: a secret of 7 bytes is too short to mask") || strings.Contains(err.Error(), "pin1234") {
		t.Errorf("NewServer with a secret of 7 bytes: %v", err)
	}
}
