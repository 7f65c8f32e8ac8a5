package mcpcore

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/seed417024ea/mcpcore/fleet"
)

// catalogReadTimeout bounds one read of the fleet's catalog.
const catalogReadTimeout = 2 * time.Second

// switches are the server's definitions as the fleet has switched them on
// or off (see [Server.SetEnabled]). A definition switched off is taken out
// of the SDK's sets, so that the SDK lists it nowhere and answers a call
// of it as of one it never had; switched on, it is put back. Each such
// change makes the SDK tell every session, and every subscriptions/listen
// stream that asked, that the list changed: once, whoever made the
// change, since each replica changes its own sets once.
type switches struct {
	store fleet.Catalog
	// defs are the definitions by key; the register functions fill it,
	// and it does not change after NewServer.
	defs map[string]*switchable
	// mu orders the changes to the SDK's sets and to each on.
	mu sync.Mutex
	// own counts this replica's Sets, so that a read of the catalog that
	// began before one is not applied over it.
	own uint64
	// disabledResources are the resources declared Disabled, in the
	// order given, for the answer to a read of one (see disabledAnswer).
	disabledResources []*switchable
}

// A switchable is one definition, with how to put it in the SDK's sets
// and take it out.
type switchable struct {
	info        DefinitionInfo
	add, remove func()
	// why is the definition's Disabled: one declared so is never in the
	// SDK's sets, whatever the fleet's catalog says.
	why *Disabled
	// matches reports whether a resource's template matches a URI; nil
	// for a tool or a prompt.
	matches func(uri string) bool
	on      bool // under switches.mu
}

// offer puts a definition in the SDK's sets, as its register function
// does, unless it is declared Disabled (why), and keeps how to take it out
// and put it back.
func (s *Server) offer(info *DefinitionInfo, why *Disabled, add, remove func()) *switchable {
	if s.switches.defs == nil {
		s.switches.defs = map[string]*switchable{}
	}
	d := &switchable{info: *info, add: add, remove: remove, why: why, on: why == nil}
	s.switches.defs[info.key()] = d
	if d.on {
		add()
	}
	return d
}

// turn switches d on or off in the SDK's sets, if it is not already;
// under switches.mu. A definition declared Disabled stays off.
func (d *switchable) turn(on bool) {
	on = on && d.why == nil
	if d.on == on {
		return
	}
	d.on = on
	if on {
		d.add()
	} else {
		d.remove()
	}
}

// SetEnabled switches a definition on or off for every replica of the
// server: a tool or a prompt by its name, a resource by its URITemplate
// (its URI when it has no variables). One declared [Disabled] cannot be
// switched on. A definition switched off is listed
// nowhere (tools/list, prompts/list, resources/list, and the templates),
// and a call, get or read of it is answered as one of a definition the
// server does not have; a call already running goes on. Each replica
// whose lists change tells each of its sessions, and each
// subscriptions/listen stream that asked, once (list_changed). Switching
// on what is on, or off what is off, changes nothing and tells no one.
//
// The state is kept in the fleet's [fleet.Catalog] (ServerOptions.Catalog:
// Redis with MCP_REDIS_URL, where it outlives the replicas; else this
// process only). The other replicas hear of the change at once, and read
// the catalog again every few seconds and when Redis returns, so that a
// lost message only delays them. SetEnabled fails, changing nothing, when
// the server has no such definition or the catalog could not record the
// change (Redis away). Definitions themselves are the ones given to
// [NewServer]: SetEnabled changes whether each is served, never what it
// is.
func (s *Server) SetEnabled(ctx context.Context, kind DefinitionKind, name string, on bool) error {
	key := definitionKey(kind, name)
	d := s.switches.defs[key]
	if d == nil {
		return fmt.Errorf("mcpcore: SetEnabled: this server defines no %s %q", kind, name)
	}
	if on && d.why != nil {
		return fmt.Errorf("mcpcore: SetEnabled: %s %q is declared Disabled (%s): build it without Disabled to serve it", kind, name, d.why.Reason)
	}
	if err := s.switches.store.Set(ctx, key, on); err != nil {
		return fmt.Errorf("mcpcore: SetEnabled(%s %q): the fleet's catalog did not record the change: %w", kind, name, err)
	}
	s.switches.mu.Lock()
	defer s.switches.mu.Unlock()
	s.switches.own++
	d.turn(on)
	return nil
}

// Enabled reports whether this replica serves a definition (see
// [Server.SetEnabled]); false for one the server does not define.
func (s *Server) Enabled(kind DefinitionKind, name string) bool {
	_, on := s.switchOf(kind, name)
	return on
}

// switchOf is the switch of a definition and whether it is on now; nil
// and false for one the server does not define.
func (s *Server) switchOf(kind DefinitionKind, name string) (*switchable, bool) {
	d := s.switches.defs[definitionKey(kind, name)]
	if d == nil {
		return nil, false
	}
	s.switches.mu.Lock()
	defer s.switches.mu.Unlock()
	return d, d.on
}

// watchCatalog starts following the fleet's catalog, until the server
// shuts down.
func (s *Server) watchCatalog() {
	stop := s.switches.store.Watch(s.rereadCatalog)
	context.AfterFunc(s.background, func() { stop() })
}

// rereadCatalog reads the fleet's catalog and brings this replica's sets in
// step with it. A read that fails leaves them as they are, logged
// (collapsed); the catalog's next call tries again.
func (s *Server) rereadCatalog() {
	sw := &s.switches
	sw.mu.Lock()
	own := sw.own
	sw.mu.Unlock()
	ctx, cancel := context.WithTimeout(s.background, catalogReadTimeout)
	disabled, err := sw.store.Disabled(ctx)
	cancel()
	if err != nil {
		if s.background.Err() != nil {
			return
		}
		msg := "mcpcore: could not read the fleet's catalog; this replica serves the definitions it served until it can"
		attrs := []slog.Attr{slog.String("error", err.Error())}
		if s.repeats.Admit("catalog read", slog.LevelWarn, msg, attrs) {
			s.logger.LogAttrs(context.Background(), slog.LevelWarn, msg, attrs...)
		}
		return
	}
	sw.mu.Lock()
	defer sw.mu.Unlock()
	if sw.own != own {
		// A Set of this replica's came in between: this read may predate
		// it, and the catalog's next call reads again.
		return
	}
	for key, d := range sw.defs {
		d.turn(!disabled[key])
	}
}
