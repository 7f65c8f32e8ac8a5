package rpcguard

import (
	"context"
	"encoding/json"
	"sync"
)

// batchVersion is the first protocol version in which the SDK refuses
// batches (by ending the connection).
const batchVersion = "2025-06-18"

// state is what the guard knows of the conversation, shared by the reading
// side (requests) and the writing side (answers).
type state struct {
	mu sync.Mutex
	// calls holds the requests read and passed on whose answer the SDK has
	// not begun to write, cancelled or not: their ids are in use.
	// The SDK frees an id before it writes the answer, since the client
	// may reuse it as soon as it reads the answer.
	calls map[id]struct{}
	// pending holds the same requests until their answer is written: a
	// server must not close the stream before.
	pending map[id]struct{}
	// batched holds the ids of the requests passed on in batches whose
	// answer array has not been written. The SDK keeps them until it
	// writes that array, and ends the connection on a batch that uses one
	// again.
	batched map[id]struct{}
	// inits holds the pending initialize requests; version is the protocol
	// version the last successful one answered.
	inits   map[id]struct{}
	version string
	// initSeen is set once an initialize request was passed on: calls
	// that need a session are refused before (see needsSession).
	initSeen bool
	closed   bool
	changed  chan struct{} // closed and replaced whenever pending shrinks or closed is set
}

func newState() *state {
	return &state{
		calls:   make(map[id]struct{}),
		pending: make(map[id]struct{}),
		batched: make(map[id]struct{}),
		inits:   make(map[id]struct{}),
		changed: make(chan struct{}),
	}
}

// inUse reports whether a new request may not take i: the SDK would
// answer it as a duplicate under id null, or file its answer with an
// earlier batch.
func (s *state) inUse(i id) bool {
	_, c := s.calls[i]
	_, b := s.batched[i]
	return c || b
}

// batchRefusal returns why batches are refused now, or "".
func (s *state) batchRefusal() string {
	switch {
	case s.version >= batchVersion:
		return "JSON-RPC batching is not supported in protocol version " + batchVersion + " and later"
	case len(s.inits) > 0:
		// The SDK learns the negotiated version when it handles initialize,
		// before its answer shows it here.
		return "a batch must wait for the answer to initialize"
	}
	return ""
}

// admit records a valid message passed on to the SDK.
func (s *state) admit(m *message, inBatch bool) {
	if m.isCall() {
		s.calls[m.id] = struct{}{}
		s.pending[m.id] = struct{}{}
		if inBatch {
			s.batched[m.id] = struct{}{}
		}
		if m.method == "initialize" {
			s.inits[m.id] = struct{}{}
			s.initSeen = true
		}
	}
	// A notifications/cancelled frees nothing: the SDK still writes an
	// answer to the cancelled request (its client drops it), and keeps the
	// id until then, so the id stays in use until that answer is written.
}

// answering records the answers the SDK is about to write. The SDK has
// set the negotiated version before it answers initialize, and freed the
// ids it answers, so the guard does too, before a client that reads the
// answer can act on it.
func (s *state) answering(ids []id, objs [][]byte) {
	if len(ids) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for n, i := range ids {
		if _, ok := s.inits[i]; ok {
			delete(s.inits, i)
			var r struct {
				Result *struct {
					ProtocolVersion string `json:"protocolVersion"`
				} `json:"result"`
			}
			if json.Unmarshal(objs[n], &r) == nil && r.Result != nil && r.Result.ProtocolVersion != "" {
				s.version = r.Result.ProtocolVersion
			}
		}
		delete(s.calls, i)
		delete(s.batched, i)
	}
}

// answered records the answers the SDK has written.
func (s *state) answered(ids []id) {
	if len(ids) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, i := range ids {
		s.done(i)
	}
}

// done removes i from the pending requests.
func (s *state) done(i id) {
	if _, ok := s.pending[i]; !ok {
		return
	}
	delete(s.pending, i)
	s.signal()
}

func (s *state) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.closed = true
		s.signal()
	}
}

func (s *state) signal() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// wait blocks until no request is pending, the connection is closed (no
// answer can be written any more) or ctx ends.
func (s *state) wait(ctx context.Context) {
	for {
		s.mu.Lock()
		n, closed, changed := len(s.pending), s.closed, s.changed
		s.mu.Unlock()
		if n == 0 || closed {
			return
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return
		}
	}
}
