package mcpcore

import (
	"context"
	"time"
)

// Drain makes the server stop admitting calls, as shutdown does first.
func Drain(s *Server) { s.inflight.drain(context.Background()) }

// SetBodyTimeout shortens the HTTP body read deadline, for the test of a
// body that trickles in.
func SetBodyTimeout(s *Server, d time.Duration) { s.bodyTimeout = d }

// The fixed policies the protocol tests measure against.
const (
	TestProgressBurst  = progressBurst
	TestMaxCompletions = maxCompletions
)
