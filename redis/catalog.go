package redis

import (
	"context"
	"sync"
	"time"

	"github.com/seed417024ea/mcpcore/fleet"
)

// catalog is the Fleet's [fleet.Catalog]: the keys switched off are the
// fields of one hash, mcpcore:<server>:catalog, which outlives the
// replicas; a change is announced on the channel of the same name, its
// message the id of the replica that made it (so that it drops its own
// echo). The message carries no state: a replica that hears one reads the
// hash, so a forged message costs a read.
type catalog struct {
	f        *Fleet
	key      string
	channel  string
	disabled string // the value of a field: any would do
}

func newCatalog(f *Fleet) *catalog {
	return &catalog{f: f, key: f.key("catalog"), channel: f.key("catalog"), disabled: "off"}
}

// Catalog returns the fleet's catalog of definitions switched off, which
// Server.SetEnabled of package mcpcore keeps.
func (f *Fleet) Catalog() fleet.Catalog { return f.catalog }

// Set records whether key is enabled and tells the other replicas, in one
// round trip, bounded as a task store call is.
func (c *catalog) Set(ctx context.Context, key string, enabled bool) error {
	ctx, cancel := context.WithTimeout(ctx, c.f.timing.task)
	defer cancel()
	pipe := c.f.client.TxPipeline()
	if enabled {
		pipe.HDel(ctx, c.key, key)
	} else {
		pipe.HSet(ctx, c.key, key, c.disabled)
	}
	pipe.Publish(ctx, c.channel, c.f.id)
	_, err := pipe.Exec(ctx)
	return err
}

// Disabled reads the keys switched off.
func (c *catalog) Disabled(ctx context.Context) (map[string]bool, error) {
	ctx, cancel := context.WithTimeout(ctx, c.f.timing.task)
	defer cancel()
	fields, err := c.f.client.HKeys(ctx, c.key).Result()
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(fields))
	for _, k := range fields {
		out[k] = true
	}
	return out, nil
}

// maxCatalogMessage bounds a message that can be a replica's id; anything
// longer on the channel was not published by a Fleet, and is dropped.
const maxCatalogMessage = 64

// Watch calls changed, from one goroutine: when another replica announces
// a change; each time the subscription is made, so as it starts and when
// Redis returns after being away; and every reread interval (5 s)
// regardless, so that a lost message only delays. Calls that come while
// changed runs are collapsed into one. stop returns once changed is no
// longer called; Close stops every Watch.
func (c *catalog) Watch(changed func()) (stop func()) {
	wake := make(chan struct{}, 1)
	poke := func() {
		select {
		case wake <- struct{}{}:
		default:
		}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	if !c.f.spawn(func() {
		defer close(finished)
		every := c.f.timing.reread
		if every <= 0 {
			every = defaultTiming.reread
		}
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-c.f.done:
				return
			case <-wake:
			case <-tick.C:
			}
			changed()
		}
	}) {
		close(finished)
	}
	unsubscribe := c.f.subscribeWith(c.channel, "the other replicas' changes to the catalog", func(payload string) {
		if len(payload) <= maxCatalogMessage && payload != c.f.id {
			poke()
		}
	}, poke)
	var once sync.Once
	return func() {
		once.Do(func() {
			unsubscribe()
			close(done)
		})
		<-finished
	}
}
