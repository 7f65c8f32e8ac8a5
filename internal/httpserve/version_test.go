package httpserve

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestIsVersion(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]bool{
		"2025-11-25": true, "2099-99-99": true,
		"2025-11-2": false, "2025-11-255": false, "2025/11/25": false, "２０２５-11-25": false,
		"latest": false, "2025-11-2x": false, "99999999999": false,
	} {
		if got := isVersion(v); got != want {
			t.Errorf("isVersion(%q) = %v, want %v", v, got, want)
		}
	}
}

func TestClip(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"short", `"short"`},
		{strings.Repeat("a", 40), `"` + strings.Repeat("a", 32) + `"…`},
		// Cut inside a character: the character goes.
		{strings.Repeat("a", 31) + "é" + "tail", `"` + strings.Repeat("a", 31) + `"…`},
		{`quote " and \ and ` + "\x00", `"quote \" and \\ and \u0000"`},
	} {
		if got := clip(tc.in, 32); got != tc.want {
			t.Errorf("clip(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// TestMalformedVersionsAreRefused: a header that is no version is
// answered here, quoted short, and never reaches the SDK; a well-formed
// one, supported or not, and none at all, go on.
func TestMalformedVersionsAreRefused(t *testing.T) {
	t.Parallel()
	reached := 0
	sdk := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { reached++ })
	h, err := New(Options{MCP: sdk, Path: "/mcp", Stateless: true, MaxBodyBytes: 1 << 10, BodyTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		versions []string
		status   int
	}{
		{nil, http.StatusOK},
		{[]string{""}, http.StatusOK},
		{[]string{"2025-11-25"}, http.StatusOK},
		{[]string{"2099-01-01"}, http.StatusOK},
		{[]string{strings.Repeat("9", 60<<10)}, http.StatusBadRequest},
		{[]string{"2025-11-25 "}, http.StatusBadRequest},
		{[]string{"2025-11-25", "2025-06-18"}, http.StatusBadRequest},
	} {
		reached = 0
		r := httptest.NewRequest("POST", "/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":"a","method":"ping"}`))
		r.Header["Mcp-Protocol-Version"] = tc.versions
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != tc.status || (reached == 1) != (tc.status == http.StatusOK) {
			t.Errorf("%.40q: HTTP %d, reached the SDK %d times", tc.versions, w.Code, reached)
		}
		if tc.status == http.StatusOK {
			continue
		}
		body := w.Body.String()
		if len(body) > 512 || !strings.HasPrefix(body, `{"jsonrpc":"2.0","id":"a","error":{"code":-32022,"message":"Unsupported protocol version `) ||
			!strings.Contains(body, "supported versions: 2026-07-28,") {
			t.Errorf("%.40q: %s", tc.versions, body)
		}
	}
}
