package rpcguard_test

import (
	"testing"
)

const initialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"

// handshake initializes c at version and returns the initialize answer.
func handshake(t *testing.T, c *conn, version string) string {
	t.Helper()
	c.send(initialize(version))
	got := c.next(t)
	c.send(initialized)
	return got
}

// TestBatchAsTheBareSDK runs one batch session against the bare SDK and
// against the SDK behind the guard: before 2025-06-18 both answer alike.
func TestBatchAsTheBareSDK(t *testing.T) {
	t.Parallel()
	const batch = `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":"two","method":"tools/list"},{"jsonrpc":"2.0","id":3,"method":"nope"}]` + "\n"
	run := func(raw bool) []string {
		c := startConn(t, 0, nil, raw)
		out := []string{handshake(t, c, "2025-03-26")}
		c.send(batch)
		out = append(out, c.next(t))
		c.send(ping)
		return append(out, c.next(t))
	}
	bare, guarded := run(true), run(false)
	for n := range bare {
		if bare[n] != guarded[n] {
			t.Errorf("line %d\nbare    %s\nguarded %s", n, bare[n], guarded[n])
		}
	}
}

// TestBatchRefusedFrom20250618 checks that a batch under 2025-06-18, which
// the bare SDK answers by ending the connection, is refused request by
// request while the connection goes on.
func TestBatchRefusedFrom20250618(t *testing.T) {
	t.Parallel()
	const batch = `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","id":2,"method":"ping"}]` + "\n"
	refusal := "JSON-RPC batching is not supported in protocol version 2025-06-18 and later"

	bare := startConn(t, 0, nil, true)
	handshake(t, bare, "2025-06-18")
	bare.send(batch)
	select {
	case l, ok := <-bare.lines:
		if ok {
			t.Fatalf("bare SDK answered %s", l)
		}
	case <-bare.ended:
	}

	c := startConn(t, 0, nil, false)
	handshake(t, c, "2025-06-18")
	c.send(batch)
	if got, want := c.next(t), "["+invalid("1", refusal)+","+invalid("2", refusal)+"]"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	c.send(ping)
	if got := c.next(t); got != pong {
		t.Errorf("after it: %s", got)
	}
}

// TestBatchElements checks the mixed batches: invalid elements answered by
// the guard in one array, valid requests by the SDK in another, and
// notifications passed on alone (in a batch the SDK would wait for their
// answer, which never comes).
func TestBatchElements(t *testing.T) {
	t.Parallel()
	c := startConn(t, 0, nil, false)
	handshake(t, c, "2025-03-26")

	c.send(`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","method":"notifications/y"}]` + "\n")
	if got, want := c.next(t), `[{"jsonrpc":"2.0","id":1,"result":{}}]`; got != want {
		t.Errorf("with notifications: got %s, want %s", got, want)
	}

	c.send(`[{"jsonrpc":"2.0","id":2,"method":"ping"},5,{"jsonrpc":"1.0","id":3,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]` + "\n")
	if got, want := c.next(t), "["+invalid("null", "a batch element must be an object")+","+invalid("3", version)+","+invalid("null", `the "id" is in use by a pending request`)+"]"; got != want {
		t.Errorf("errors: got  %s\nwant %s", got, want)
	}
	if got, want := c.next(t), `[{"jsonrpc":"2.0","id":2,"result":{}}]`; got != want {
		t.Errorf("results: got %s, want %s", got, want)
	}

	// An invalid element never takes the id of a valid one.
	c.send(`[{"jsonrpc":"2.0","id":4,"method":"ping"},{"jsonrpc":"1.0","id":4,"method":"ping"}]` + "\n")
	if got, want := c.next(t), "["+invalid("null", version)+"]"; got != want {
		t.Errorf("errors: got  %s\nwant %s", got, want)
	}
	if got, want := c.next(t), `[{"jsonrpc":"2.0","id":4,"result":{}}]`; got != want {
		t.Errorf("results: got %s, want %s", got, want)
	}

	// Notifications only: nothing to answer.
	c.send(`[{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","method":"notifications/y"}]` + "\n")
	c.send(ping)
	if got := c.next(t); got != pong {
		t.Errorf("after notifications: %s", got)
	}
}
