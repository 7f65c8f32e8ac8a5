package httpserve

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// fakeSession is a session of fakeSDK.
type fakeSession struct {
	user   string
	once   sync.Once
	closed chan struct{}
}

func (s *fakeSession) Close() error { s.once.Do(func() { close(s.closed) }); return nil }
func (s *fakeSession) Wait() error  { <-s.closed; return nil }

// fakeSDK opens a session on initialize, refuses another user's request
// of a session with 403 as the SDK does, and holds a GET open.
type fakeSDK struct {
	mu       sync.Mutex
	sessions map[string]*fakeSession
}

func (f *fakeSDK) lookup(id string) Session {
	f.mu.Lock()
	defer f.mu.Unlock()
	if s, ok := f.sessions[id]; ok {
		return s
	}
	return nil
}

func (f *fakeSDK) open(id string) bool {
	s, _ := f.lookup(id).(*fakeSession)
	if s == nil {
		return false
	}
	select {
	case <-s.closed:
		return false
	default:
		return true
	}
}

func (f *fakeSDK) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	user := ""
	if info := auth.TokenInfoFromContext(r.Context()); info != nil {
		user = info.UserID
	}
	id := r.Header.Get("Mcp-Session-Id")
	if id == "" {
		f.mu.Lock()
		id = fmt.Sprintf("s%d", len(f.sessions)+1)
		f.sessions[id] = &fakeSession{user: user, closed: make(chan struct{})}
		f.mu.Unlock()
		w.Header().Set("Mcp-Session-Id", id)
		w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
		return
	}
	s, _ := f.lookup(id).(*fakeSession)
	switch {
	case s == nil:
		http.Error(w, "session not found", http.StatusNotFound)
	case s.user != user:
		http.Error(w, "session user mismatch", http.StatusForbidden)
	case r.Method == http.MethodGet:
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-s.closed:
		}
	default:
		w.WriteHeader(http.StatusAccepted)
	}
}

// TestAnotherSubjectDoesNotHoldASession: requests that name a session of
// another subject, which the SDK refuses, do not count as its activity, so
// they cannot keep someone else's session from idling out.
func TestAnotherSubjectDoesNotHoldASession(t *testing.T) {
	t.Parallel()
	sdk := &fakeSDK{sessions: map[string]*fakeSession{}}
	h, err := New(Options{MCP: sdk, Path: "/mcp", MaxBodyBytes: 1 << 10, BodyTimeout: time.Second,
		Session: sdk.lookup, SessionTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	// The token is the subject.
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		return &auth.TokenInfo{UserID: token, Expiration: time.Now().Add(time.Hour)}, nil
	}
	srv := httptest.NewServer(auth.RequireBearerToken(verify, nil)(h))
	defer srv.Close()
	send := func(method, token, sid, body string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+"/mcp", strings.NewReader(body))
		if body == "" {
			req.Body = http.NoBody
		}
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		if sid != "" {
			req.Header.Set("Mcp-Session-Id", sid)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	sid := send("POST", "alice", "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`).Header.Get("Mcp-Session-Id")
	if !sdk.open(sid) {
		t.Fatalf("no session opened: %q", sid)
	}
	deadline := time.Now().Add(10 * time.Second)
	for sdk.open(sid) {
		if time.Now().After(deadline) {
			t.Fatal("another subject's requests kept the session alive")
		}
		if resp := send("POST", "bob", sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); resp.StatusCode != http.StatusForbidden {
			t.Fatalf("bob's request of alice's session: HTTP %d", resp.StatusCode)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
