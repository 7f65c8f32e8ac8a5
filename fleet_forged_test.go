package mcpcore_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/fleet"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
)

// forgery is a bus on which a test forges events: whatever can write to
// the fleet's channel (a Redis shared with others, a replica gone wrong)
// can put any event on it. Listen keeps the server's delivery, which the
// test calls as a bus would, on its own goroutine.
type forgery struct {
	mu      sync.Mutex
	deliver func(fleet.Event)
}

func (f *forgery) Publish(fleet.Event) {}

func (f *forgery) Listen(deliver func(fleet.Event)) func() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.deliver = deliver
	return func() {}
}

func (f *forgery) forge(e fleet.Event) {
	f.mu.Lock()
	deliver := f.deliver
	f.mu.Unlock()
	deliver(e)
}

var subscribableItems = mcpcore.Resource[struct {
	ID string `json:"id"`
}, string]{
	Name: "items", URITemplate: "fleet://items/{id}", MIMEType: "text/plain", Subscribe: true,
	Handler: func(_ *mcpcore.Context, p struct {
		ID string `json:"id"`
	}) (string, error) {
		return p.ID, nil
	},
}

// TestForgedBusEventsAreDroppedBeforeMatching forges resources/updated
// events on the bus whose URIs no client could subscribe to: 4 MB long,
// or with a control character. Each is dropped before any template is
// matched against it, at the cost of an event of another scheme of the
// same length (matching the 4 MB URI against the template took 6.5 s),
// no subscriber hears of it, and the log holds one record of each kind
// however many come, none with the URI. A valid event still goes through.
func TestForgedBusEventsAreDroppedBeforeMatching(t *testing.T) {
	bus := &forgery{}
	srv, logs := newServer(t, &mcpcore.ServerOptions{Bus: bus, RepeatWindow: time.Hour}, subscribableItems)
	heard := make(chan string, 16)
	cs := wiretest.ConnectWith(t, srv.MCPServer(), &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) { heard <- r.Params.URI },
	}, "2025-06-18")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "fleet://items/a"}); err != nil {
		t.Fatal(err)
	}

	const size = 4 << 20
	long := fleet.Event{Method: fleet.ResourceUpdated, URI: "fleet://items/" + strings.Repeat("a", size-len("fleet://items/"))}
	other := fleet.Event{Method: fleet.ResourceUpdated, URI: "other://items/" + strings.Repeat("a", size-len("other://items/"))}
	// The least of 20 deliveries, or of those that fit in a second.
	fastest := func(e fleet.Event) time.Duration {
		best, spent := time.Duration(1<<63-1), time.Duration(0)
		for i := 0; i < 20 && spent < time.Second; i++ {
			start := time.Now()
			bus.forge(e)
			took := time.Since(start)
			best, spent = min(best, took), spent+took
		}
		return best
	}
	bus.forge(other) // warm up
	plain, forged := fastest(other), fastest(long)
	if ratio := float64(forged) / float64(plain); ratio > 10 {
		t.Errorf("a forged event with a %d-byte URI of the template took %v, one of another scheme %v: %.0f times as long, want at most 10",
			size, forged, plain, ratio)
	} else {
		t.Logf("a forged event with a %d-byte URI of the template: %v; of another scheme: %v; ratio %.2f", size, forged, plain, ratio)
	}
	// No replica publishes such an event: a handler that tries is told why.
	if err := srv.NotifyResourceUpdated(ctx, long.URI); err == nil || !strings.Contains(err.Error(), "the URI is 4194304 bytes long") {
		t.Errorf("NotifyResourceUpdated with a 4 MB URI: %v, want it refused", err)
	}
	bus.forge(fleet.Event{Method: fleet.ResourceUpdated, URI: "fleet://items/a\x00"})
	bus.forge(fleet.Event{Method: fleet.ResourceUpdated, URI: "fleet://items/a"})
	select {
	case uri := <-heard:
		if uri != "fleet://items/a" {
			t.Errorf("the subscriber heard of %.60q…, want only fleet://items/a", uri)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the valid event never reached the subscriber")
	}
	select {
	case uri := <-heard:
		t.Errorf("the subscriber also heard of %.60q…", uri)
	case <-time.After(100 * time.Millisecond):
	}

	var drops []map[string]any
	for _, r := range logs.Records(t) {
		if msg, _ := r["msg"].(string); strings.HasPrefix(msg, "mcpcore: dropped an event from the bus") {
			drops = append(drops, r)
		}
	}
	// The long events, all of one length, collapsed into one record, and
	// the one with a control character.
	if len(drops) != 2 || drops[0]["level"] != "WARN" ||
		drops[0]["why"] != "the URI is 4194304 bytes long; this server reads URIs of at most 8192 bytes" ||
		drops[1]["why"] != "the URI holds the control character U+0000 at byte 15; percent-encode it" {
		t.Errorf("drop records %v, want two warnings, why the URI is too long and why it holds a control character", drops)
	}
	if strings.Contains(logs.String(), "aaaaaaaaaaaaaaaa") {
		t.Error("the log holds the forged URI")
	}
}
