package mcphttp

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/seed417024ea/mcpcore/internal/httpserve"
)

// BenchmarkJWTEndpoint is one POST of a tools/call with a valid HS256
// token through the endpoint's whole chain, authentication included.
func BenchmarkJWTEndpoint(b *testing.B) {
	const body = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hello"}}}`
	sdk := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		io.WriteString(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n\n")
		http.NewResponseController(w).Flush()
	})
	a, err := newAuth(context.Background(), AuthConfig{Mode: AuthJWT, SecretKey: testSecret}, nil, jwksOptions{})
	if err != nil {
		b.Fatal(err)
	}
	h, err := httpserve.New(httpserve.Options{MCP: sdk, Path: "/mcp", Stateless: true, MaxBodyBytes: 1 << 20, BodyTimeout: time.Second,
		Authenticate: protectWith(a), Endpoints: &httpserve.Endpoints{}})
	if err != nil {
		b.Fatal(err)
	}
	token, err := jwt.NewWithClaims(jwt.SigningMethodHS256, goodClaims(nil)).SignedString([]byte(testSecret))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		r.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		r.Header.Set("Authorization", "Bearer "+token)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
	}
}
