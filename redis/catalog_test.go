package redis

import (
	"context"
	"log/slog"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
)

type nothing struct{}

var switched = mcpcore.Tool[nothing, nothing]{Name: "switched", Description: "on and off",
	Handler: func(*mcpcore.Context, nothing) (nothing, error) { return nothing{}, nil }}

// catalogReplica is one server of the fleet on a Fleet of its own, with
// a session that counts the tools list_changed it hears.
type catalogReplica struct {
	srv   *mcpcore.Server
	heard atomic.Int64
}

func newCatalogReplica(t *testing.T, addr string, tm timing) *catalogReplica {
	t.Helper()
	f := newReplicaOf(t, addr, "weather", tm)
	srv, err := mcpcore.NewServer(mcpcore.Info{Name: "weather"}, &mcpcore.ServerOptions{
		Bus: f.Bus(), Catalog: f.Catalog(), Logger: slog.New(slog.DiscardHandler),
	}, switched)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Shutdown(context.Background()) })
	r := &catalogReplica{srv: srv}
	wiretest.ConnectWith(t, srv.MCPServer(), &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { r.heard.Add(1) },
	}, "2025-11-25")
	return r
}

func (r *catalogReplica) enabled() bool { return r.srv.Enabled(mcpcore.KindTool, "switched") }

// withReread is testTiming with the catalog read again every d.
func withReread(d time.Duration) timing {
	tm := testTiming
	tm.reread = d
	return tm
}

// A tool switched off on one replica is switched off on the other at
// once, through the channel (the re-read is an hour away): the state is
// in the hash, and each replica's session hears one list_changed.
func TestCatalogReachesEveryReplica(t *testing.T) {
	m := startRedis(t)
	a := newCatalogReplica(t, m.Addr(), withReread(time.Hour))
	b := newCatalogReplica(t, m.Addr(), withReread(time.Hour))
	// b's subscription must be made before a publishes: the hash alone
	// would otherwise reach b only with its first read.
	eventually(t, "both replicas subscribe", func() bool {
		return len(m.PubSubChannels("mcpcore:weather:catalog")) == 1 && m.PubSubNumSub("mcpcore:weather:catalog")["mcpcore:weather:catalog"] == 2
	})
	if err := a.srv.SetEnabled(context.Background(), mcpcore.KindTool, "switched", false); err != nil {
		t.Fatal(err)
	}
	if a.enabled() {
		t.Error("a serves the tool it switched off")
	}
	eventually(t, "b switch the tool off", func() bool { return !b.enabled() })
	if keys, _ := m.HKeys("mcpcore:weather:catalog"); !slices.Equal(keys, []string{"tool:switched"}) {
		t.Errorf("the catalog's hash holds %q; want the tool's key", keys)
	}
	eventually(t, "each session hear the change", func() bool { return a.heard.Load() == 1 && b.heard.Load() == 1 })
	if err := b.srv.SetEnabled(context.Background(), mcpcore.KindTool, "switched", true); err != nil {
		t.Fatal(err)
	}
	eventually(t, "a switch the tool on", func() bool { return a.enabled() })
	eventually(t, "each session hear the second change", func() bool { return a.heard.Load() == 2 && b.heard.Load() == 2 })
	if keys, _ := m.HKeys("mcpcore:weather:catalog"); len(keys) != 0 {
		t.Errorf("switched on, the key is still in the hash: %q", keys)
	}
}

// A change whose message no replica hears (written to the hash alone)
// reaches every replica with the next re-read.
func TestCatalogLostMessageOnlyDelays(t *testing.T) {
	m := startRedis(t)
	a := newCatalogReplica(t, m.Addr(), withReread(50*time.Millisecond))
	b := newCatalogReplica(t, m.Addr(), withReread(50*time.Millisecond))
	m.HSet("mcpcore:weather:catalog", "tool:switched", "off")
	eventually(t, "both replicas switch the tool off", func() bool { return !a.enabled() && !b.enabled() })
	eventually(t, "each session hear the change", func() bool { return a.heard.Load() == 1 && b.heard.Load() == 1 })
	m.HDel("mcpcore:weather:catalog", "tool:switched")
	eventually(t, "both replicas switch the tool on", func() bool { return a.enabled() && b.enabled() })
	eventually(t, "each session hear the second change", func() bool { return a.heard.Load() == 2 && b.heard.Load() == 2 })
}

// While Redis is away SetEnabled fails and changes nothing; when Redis
// returns, each replica reads the catalog as it subscribes again, without
// waiting for its re-read.
func TestCatalogAfterRedisReturns(t *testing.T) {
	m := startRedis(t)
	addr := m.Addr()
	a := newCatalogReplica(t, addr, withReread(time.Hour))
	eventually(t, "a subscribe", func() bool { return len(m.PubSubChannels("mcpcore:weather:catalog")) == 1 })
	m.Close()
	if err := a.srv.SetEnabled(context.Background(), mcpcore.KindTool, "switched", false); err == nil || !a.enabled() {
		t.Fatalf("SetEnabled with Redis away: error %v, enabled %v; want an error and no change", err, a.enabled())
	}
	// The Redis that comes back holds the tool switched off (another
	// replica's doing, or a persisted state).
	back := miniredis.NewMiniRedis()
	back.HSet("mcpcore:weather:catalog", "tool:switched", "off")
	eventually(t, "restart Redis on "+addr, func() bool { return back.StartAddr(addr) == nil })
	t.Cleanup(back.Close)
	eventually(t, "a switch the tool off", func() bool { return !a.enabled() })
}
