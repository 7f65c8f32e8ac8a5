package mcphttp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed417024ea/mcpcore/internal/httpserve"
	"github.com/seed417024ea/mcpcore/internal/repeats"
)

// lockedBuffer is a log the handlers of concurrent requests can share.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// refusalsLogged decodes the refusals logged so far.
func (b *lockedBuffer) refusalsLogged(t *testing.T) []map[string]any {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []map[string]any
	for line := range strings.Lines(b.buf.String()) {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("log line is not JSON: %q", line)
		}
		if _, ok := r["refusal"]; ok || strings.Contains(r["msg"].(string), "HTTP refusal") {
			out = append(out, r)
		}
	}
	return out
}

// TestRefusalsOfAKindKeepWhy: invalid_token refusals for different reasons
// each get their record, and the summary of each one's repeats says why;
// the remote address, which differs from one request to the next, tells
// none apart.
func TestRefusalsOfAKindKeepWhy(t *testing.T) {
	t.Parallel()
	logs := &lockedBuffer{}
	logger := slog.New(slog.NewJSONHandler(logs, nil))
	collapser := repeats.New(time.Hour, logger)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	cfg := AuthConfig{Mode: AuthJWT, SecretKey: testSecret, Audience: testResource, ResourceIdentifier: testResource}
	a, err := newAuth(ctx, cfg, logger, jwksOptions{})
	if err != nil {
		t.Fatal(err)
	}
	h, err := httpserve.New(httpserve.Options{MCP: echoToken, Path: "/mcp", Stateless: true, Authenticate: protectWith(a), MaxBodyBytes: 1 << 20, BodyTimeout: time.Second,
		Logger: logger, Repeats: collapser})
	if err != nil {
		t.Fatal(err)
	}
	noExpiry := hs256(t, goodClaims(map[string]any{"exp": nil}))
	expired := hs256(t, goodClaims(map[string]any{"exp": time.Now().Add(-time.Hour).Unix()}))
	for i, token := range []string{noExpiry, expired, noExpiry, expired, expired} {
		r := httptest.NewRequest("POST", "http://mcp.example.com/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":7,"method":"tools/list"}`))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Authorization", "Bearer "+token)
		r.RemoteAddr = fmt.Sprintf("192.0.2.%d:1234", i+1)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != http.StatusUnauthorized {
			t.Fatalf("HTTP %d %s, want 401", w.Code, w.Body)
		}
	}
	collapser.Flush()
	var got []string
	for _, r := range logs.refusalsLogged(t) {
		if r["refusal"] != "invalid_token" {
			continue
		}
		got = append(got, fmt.Sprintf("why=%v remote=%v repeated=%v", r["why"], r["remote"], r["repeated"]))
	}
	want := []string{
		"why=the token lacks the required claim exp remote=192.0.2.1:1234 repeated=<nil>",
		"why=the token has expired remote=192.0.2.2:1234 repeated=<nil>",
		"why=the token lacks the required claim exp remote=<nil> repeated=1",
		"why=the token has expired remote=<nil> repeated=2",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("invalid_token records:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
