package redis

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	goredis "github.com/redis/go-redis/v9"
	"go.opentelemetry.io/otel/metric"

	"github.com/seed417024ea/mcpcore/fleet"
)

// Options configure a [Fleet]. The zero value is usable.
type Options struct {
	// Server names the namespace of keys and channels, mcpcore:<Server>:.
	// The replicas of one server must agree on it; other servers on the
	// same Redis must not use it. Empty is "mcpcore".
	Server string
	// Logger receives the switches to and from Redis being unreachable;
	// nil is slog.Default().
	Logger *slog.Logger
	// MeterProvider receives the fleet's metrics; nil records none.
	MeterProvider metric.MeterProvider
	// MaxTaskBytes bounds one task's record in [Fleet.Tasks]; 0 is
	// DefaultMaxTaskBytes.
	MaxTaskBytes int64
}

// timing is how often and how long a Fleet waits on Redis; tests shorten it.
type timing struct {
	heartbeat   time.Duration // how often presence is renewed
	presenceTTL time.Duration // how long a replica counts without renewing
	publish     time.Duration // bound on one PUBLISH
	allow       time.Duration // bound on one rate-limit round trip
	retry       time.Duration // how often to try Redis again while it is away
	task        time.Duration // bound on one call of the task store and the catalog
	reread      time.Duration // how often the catalog is read again regardless
}

var defaultTiming = timing{
	heartbeat:   2 * time.Second,
	presenceTTL: 6 * time.Second,
	publish:     500 * time.Millisecond,
	allow:       200 * time.Millisecond,
	retry:       time.Second,
	task:        200 * time.Millisecond,
	reread:      5 * time.Second,
}

// queueSize bounds the events waiting to be published: Publish drops beyond
// it rather than hold up the call that raised the event.
const queueSize = 1024

// A Fleet is one replica's connection to the parts the fleet shares: its
// [fleet.Bus], its [fleet.Limiter], its [fleet.TaskStore] and its
// [fleet.Catalog], and its presence in the count of
// replicas that sets each one's share of a quota while Redis is away.
type Fleet struct {
	client goredis.UniversalClient
	owned  bool // open made client, so Close closes it
	ns     string
	id     string
	log    *slog.Logger
	meters *meters
	timing timing

	bus      *bus
	limiter  *limiter
	tasks    *taskStore
	catalog  *catalog
	replicas atomic.Int64 // last count seen, at least 1
	// joined is when this replica's heartbeat last found it missing from
	// the presence set (its start, or a Redis that came back empty), in
	// Unix milliseconds: see gone.
	joined atomic.Int64

	// mu orders the start of goroutines (subscriptions, the limiter's
	// probe) with Close, so that Close waits for every one it did not
	// prevent.
	mu        sync.Mutex
	subs      map[*subscription]struct{} // under mu
	done      chan struct{}
	wg        sync.WaitGroup
	closeOnce sync.Once
	closeErr  error
}

// New returns a Fleet on client and starts its background work: the
// publisher of the bus and the heartbeat of presence. It does not wait on
// Redis, which may be away. Close stops that work; it leaves client open,
// as it was given, for the caller to close after.
//
// Each call on Redis is bounded by a short context deadline (200 ms for a
// rate-limit decision); client honours it only with ContextTimeoutEnabled
// set in its options, as the client MCP_REDIS_URL opens has. Otherwise its
// ReadTimeout (3 s by default) bounds the first call that meets a stalled
// Redis, before the limiter counts locally.
func New(client goredis.UniversalClient, opts *Options) *Fleet {
	return newFleet(client, opts, defaultTiming)
}

func newFleet(client goredis.UniversalClient, opts *Options, t timing) *Fleet {
	if opts == nil {
		opts = &Options{}
	}
	server := opts.Server
	if server == "" {
		server = "mcpcore"
	}
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	f := &Fleet{
		client: client,
		ns:     "mcpcore:" + server + ":",
		id:     replicaID(),
		log:    log,
		timing: t,
		done:   make(chan struct{}),
		subs:   map[*subscription]struct{}{},
	}
	f.replicas.Store(1)
	f.meters = newMeters(opts.MeterProvider, f.replicaCount, log)
	f.bus = newBus(f)
	f.limiter = newLimiter(f)
	f.tasks = newTaskStore(f, opts.MaxTaskBytes)
	f.catalog = newCatalog(f)
	f.wg.Add(2)
	go f.bus.publishLoop()
	go f.heartbeatLoop()
	return f
}

// Bus returns the fleet's notifications bus, on channel
// mcpcore:<server>:events.
func (f *Fleet) Bus() fleet.Bus { return f.bus }

// Limiter returns the fleet's rate limiter, which counts in Redis and, while
// Redis is away, in this process at this replica's share of each quota.
func (f *Fleet) Limiter() fleet.Limiter { return f.limiter }

// Close stops the fleet's background work and its listeners, waits for
// them, and takes this replica out of the count of replicas. It closes the
// client only when the Fleet made it (from MCP_REDIS_URL); a client passed
// to [New] stays open. Events still queued are dropped. Close is safe to
// call more than once.
func (f *Fleet) Close() error {
	f.closeOnce.Do(func() {
		f.mu.Lock()
		close(f.done)
		f.mu.Unlock()
		f.stopSubscriptions()
		f.wg.Wait()
		f.leave()
		f.closeErr = f.meters.close()
		if f.owned {
			f.closeErr = errors.Join(f.closeErr, f.client.Close())
		}
	})
	return f.closeErr
}

// key names k in the server's namespace.
func (f *Fleet) key(k string) string { return f.ns + k }

// closed reports whether Close has begun.
func (f *Fleet) closed() bool {
	select {
	case <-f.done:
		return true
	default:
		return false
	}
}

// spawn runs fn in a goroutine Close waits for, unless Close has begun.
func (f *Fleet) spawn(fn func()) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed() {
		return false
	}
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		fn()
	}()
	return true
}

// replicaID names this replica in the fleet's channel and presence set:
// random, so that two processes never take each other's events for echoes.
func replicaID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
