package fleet

import (
	"context"
	"maps"
	"sync"
)

// A Catalog keeps which of a server's definitions the fleet has switched
// off, so that every replica lists and serves the same ones. The
// definitions themselves are the program's, given to every replica alike;
// only whether each is enabled changes at run time. A key names one
// definition as the server registers it: "tool:<name>", "prompt:<name>",
// "resource:<URI template>". A key never Set is enabled.
type Catalog interface {
	// Set records, for the whole fleet, whether the definition key is
	// enabled. When it returns without error, Disabled on any replica
	// reflects it, and the other replicas' Watch will call them.
	Set(ctx context.Context, key string, enabled bool) error
	// Disabled reads the keys switched off.
	Disabled(ctx context.Context) (map[string]bool, error)
	// Watch calls changed, from one goroutine, whenever the fleet's state
	// may differ from what this replica last read: as it starts, when
	// another replica Set a key, when the store is reachable again after
	// being away, and now and then regardless, so that a message lost
	// only delays. The server then reads Disabled. Calls that pile up
	// while one runs are collapsed into one. stop returns once changed is
	// no longer called.
	Watch(changed func()) (stop func())
}

// LocalCatalog is the [Catalog] of one process: the default, for stdio and
// a server without a fleet. Its state lives in a map under a mutex; its
// Watch never calls (there is no other replica to hear of). Its zero value
// is ready to use.
type LocalCatalog struct {
	mu       sync.Mutex
	disabled map[string]bool
}

// Set records whether key is enabled.
func (c *LocalCatalog) Set(_ context.Context, key string, enabled bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if enabled {
		delete(c.disabled, key)
		return nil
	}
	if c.disabled == nil {
		c.disabled = map[string]bool{}
	}
	c.disabled[key] = true
	return nil
}

// Disabled returns a copy of the keys switched off.
func (c *LocalCatalog) Disabled(context.Context) (map[string]bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := maps.Clone(c.disabled)
	if out == nil {
		out = map[string]bool{}
	}
	return out, nil
}

// Watch never calls changed: the one process sets its own state.
func (c *LocalCatalog) Watch(func()) (stop func()) { return func() {} }
