package mcpcore_test

// What replicas share: notifications through a bus, quotas through a
// limiter, and subscriptions of stateless servers on subscriptions/listen.

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/fleet"
	"github.com/seed417024ea/mcpcore/mcphttp"
	"github.com/seed417024ea/mcpcore/mcptest"
)

// hub is an in-memory bus between replicas, to test the server's side of
// the contract of fleet.Bus: an event reaches the other replicas, once.
type hub struct {
	mu        sync.Mutex
	listeners map[string][]func(fleet.Event)
	published []fleet.Event
}

type hubBus struct {
	h  *hub
	id string
}

func (h *hub) bus(id string) fleet.Bus { return hubBus{h, id} }

func (b hubBus) Publish(e fleet.Event) {
	b.h.mu.Lock()
	b.h.published = append(b.h.published, e)
	var to []func(fleet.Event)
	for id, ls := range b.h.listeners {
		if id != b.id { // echoes dropped, as a Bus must
			to = append(to, ls...)
		}
	}
	b.h.mu.Unlock()
	for _, deliver := range to {
		go deliver(e)
	}
}

func (b hubBus) Listen(deliver func(fleet.Event)) func() {
	b.h.mu.Lock()
	defer b.h.mu.Unlock()
	if b.h.listeners == nil {
		b.h.listeners = map[string][]func(fleet.Event){}
	}
	b.h.listeners[b.id] = append(b.h.listeners[b.id], deliver)
	return func() {
		b.h.mu.Lock()
		defer b.h.mu.Unlock()
		delete(b.h.listeners, b.id)
	}
}

const watchedURI = "fleet://watched"

var watched = mcpcore.Resource[struct{}, string]{
	Name: "watched", Description: "changes now and then", URITemplate: watchedURI, MIMEType: "text/plain",
	Subscribe: true,
	Handler:   func(*mcpcore.Context, struct{}) (string, error) { return "now", nil },
}

type touched struct {
	Touched string `json:"touched"`
}

var touch = mcpcore.Tool[struct{}, touched]{
	Name: "touch", Description: "changes the watched resource",
	Handler: func(ctx *mcpcore.Context, _ struct{}) (touched, error) {
		return touched{watchedURI}, ctx.NotifyResourceUpdated(watchedURI)
	},
}

// A change raised on one replica reaches the subscribers of every replica,
// each once: the replica's own first, then the others' through the bus.
func TestNotificationsReachEveryReplicaOnce(t *testing.T) {
	t.Parallel()
	h := &hub{}
	var clients []*mcptest.Client
	for _, id := range []string{"r1", "r2", "r3"} {
		c := mcptest.StartWith(t, mcpcore.Info{Name: "fleet"}, &mcptest.Options{Server: &mcpcore.ServerOptions{Bus: h.bus(id)}}, watched, touch)
		if err := c.Subscribe(watchedURI); err != nil {
			t.Fatal(err)
		}
		clients = append(clients, c)
	}
	if res := clients[2].CallTool("touch", nil); res.IsError {
		t.Fatalf("touch failed: %+v", res)
	}
	for i, c := range clients {
		c.WaitFor("the update on replica "+string(rune('1'+i)), func() bool { return len(c.ResourceUpdates()) > 0 })
	}
	time.Sleep(100 * time.Millisecond) // room for a duplicate to show
	for i, c := range clients {
		if got := c.ResourceUpdates(); !slices.Equal(got, []string{watchedURI}) {
			t.Errorf("replica %d's subscriber heard %v, want the one update", i+1, got)
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if want := []fleet.Event{{Method: fleet.ResourceUpdated, URI: watchedURI}}; !slices.Equal(h.published, want) {
		t.Errorf("published %v, want %v: an event delivered from the bus is never published again", h.published, want)
	}
}

// A stateless server takes subscriptions on a subscriptions/listen stream
// (2026-07-28), and refuses resources/subscribe, which has no session to
// live in.
func TestStatelessServersTakeSubscriptionsOnListen(t *testing.T) {
	t.Parallel()
	srv, err := mcpcore.NewServer(mcpcore.Info{Name: "stateless"}, &mcpcore.ServerOptions{Config: mcpcore.Config{Stateless: true}}, watched, touch)
	if err != nil {
		t.Fatal(err)
	}
	url := serveHTTP(t, srv)
	updates := make(chan string, 4)
	client := mcp.NewClient(&mcp.Implementation{Name: "t"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) { updates <- r.Params.URI },
	})
	ctx := context.Background()
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: "2026-07-28"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: watchedURI}); err != nil {
		t.Fatalf("subscribing on a stateless server: %v", err)
	}
	// The listen stream holds the subscription once acknowledged; until
	// then a change may be missed, so raise it until one is heard.
	deadline := time.After(10 * time.Second)
	for heard := false; !heard; {
		if err := srv.NotifyResourceUpdated(ctx, watchedURI); err != nil {
			t.Fatal(err)
		}
		select {
		case uri := <-updates:
			if uri != watchedURI {
				t.Fatalf("heard %q", uri)
			}
			heard = true
		case <-time.After(100 * time.Millisecond):
		case <-deadline:
			t.Fatal("no update heard on the subscriptions/listen stream")
		}
	}

	// An older client's resources/subscribe is refused, with what to do.
	old, err := mcp.NewClient(&mcp.Implementation{Name: "t"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	err = old.Subscribe(ctx, &mcp.SubscribeParams{URI: watchedURI})
	if err == nil || !strings.Contains(err.Error(), "subscriptions/listen") {
		t.Fatalf("resources/subscribe on a stateless server: %v, want a refusal naming subscriptions/listen", err)
	}
}

func limitedTool(name string, l mcpcore.RateLimit) mcpcore.Tool[none, touched] {
	return mcpcore.Tool[none, touched]{
		Name: name, Description: "limited", RateLimit: l,
		Handler: func(*mcpcore.Context, none) (touched, error) { return touched{name}, nil },
	}
}

// A definition's quota refuses the calls beyond it with RateLimited, saying
// when to retry; the server's quota applies to the definitions without one.
func TestRateLimits(t *testing.T) {
	t.Parallel()
	c := mcptest.StartWith(t, mcpcore.Info{Name: "quota"}, &mcptest.Options{Server: &mcpcore.ServerOptions{
		Config: mcpcore.Config{RateLimit: mcpcore.RateLimit{Calls: 2, Per: time.Hour}},
	}}, limitedTool("own", mcpcore.RateLimit{Calls: 3, Per: time.Hour}), limitedTool("server", mcpcore.RateLimit{}))
	count := func(tool string) (ok int, last *mcp.CallToolResult) {
		for range 5 {
			res := c.CallTool(tool, nil)
			if !res.IsError {
				ok++
			} else {
				last = res
			}
		}
		return ok, last
	}
	if ok, last := count("own"); ok != 3 {
		t.Errorf("a quota of 3 admitted %d of 5", ok)
	} else {
		got, _ := json.Marshal(last.StructuredContent)
		want := `{"error":{"code":-32003,"data":{"limit":3,"period":"1h0m0s","retryAfter":1200,"retryable":true},` +
			`"message":"Rate limit exceeded: tool \"own\" takes 3 calls per 1h0m0s from each caller. Retry in 1200 s."}}`
		if string(got) != want {
			t.Errorf("refused beyond the quota:\n got %s\nwant %s", got, want)
		}
	}
	if ok, _ := count("server"); ok != 2 {
		t.Errorf("the server's quota of 2 admitted %d of 5", ok)
	}
}

// Each caller, named by the token's subject, has a quota of its own.
func TestRateLimitsArePerCaller(t *testing.T) {
	t.Parallel()
	opts := withAuth(t, &mcpcore.ServerOptions{}, mcphttp.AuthConfig{Mode: mcphttp.AuthJWT, SecretKey: testSecret})
	srv, err := mcpcore.NewServer(mcpcore.Info{Name: "quota"}, opts, limitedTool("once", mcpcore.RateLimit{Calls: 1, Per: time.Hour}))
	if err != nil {
		t.Fatal(err)
	}
	url := serveHTTP(t, srv)
	call := func(sub string) bool {
		tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"sub": sub, "exp": time.Now().Add(time.Hour).Unix()}).SignedString([]byte(testSecret))
		if err != nil {
			t.Fatal(err)
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "t"}, nil).Connect(context.Background(),
			&mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{tok}}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "once"})
		if err != nil {
			t.Fatal(err)
		}
		return !res.IsError
	}
	if !call("alice") || call("alice") {
		t.Error("alice's quota of one call an hour: want the first admitted, the second refused")
	}
	if !call("bob") {
		t.Error("bob's call was refused: alice's calls count against her quota only")
	}
}

// A RateLimit a server cannot count by stops NewServer, naming it.
func TestBadRateLimit(t *testing.T) {
	t.Parallel()
	for _, l := range []mcpcore.RateLimit{{Calls: 0, Per: time.Second}, {Calls: 5}} {
		if _, err := mcpcore.NewServer(mcpcore.Info{Name: "x"}, nil, limitedTool("t", l)); err == nil || !strings.Contains(err.Error(), "RateLimit") {
			t.Errorf("RateLimit %+v: NewServer error = %v, want one naming it", l, err)
		}
	}
}
