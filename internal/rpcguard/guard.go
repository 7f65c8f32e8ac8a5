package rpcguard

import (
	"bufio"
	"context"
	"errors"
	"io"
	"sync"

	"github.com/seed417024ea/mcpcore/internal/redact"
)

// DefaultMaxLineLength is the line limit when none is given: the SDK's own
// default frame limit.
const DefaultMaxLineLength = 16 << 20

// MaxDepth is the deepest nesting of arrays and objects a line may have:
// the SDK's decoder refuses deeper JSON, and its refusal ends the
// connection.
const MaxDepth = 1000

// A Guard checks one JSON-RPC stream for the SDK: [Guard.Transport] is the
// SDK's connection over it.
type Guard struct {
	in    *reader
	out   io.Writer
	outMu sync.Mutex // one line at a time on out, from the SDK or the guard
	cut   bool       // set by Cut, under outMu: nothing more is written
	st    *state
}

// New guards the stream read from r and written to w. maxLine bounds the
// bytes of one line (without its newline): 0 selects
// [DefaultMaxLineLength], a negative value removes the bound. Closing the
// guard's connection closes r and w when they are [io.Closer]s.
func New(r io.Reader, w io.Writer, maxLine int) *Guard {
	if maxLine == 0 {
		maxLine = DefaultMaxLineLength
	}
	g := &Guard{out: w, st: newState()}
	g.in = &reader{g: g, src: r, br: bufio.NewReaderSize(r, 64<<10), max: maxLine,
		dec: &decoded{batches: make(map[id]batchSlot)}}
	return g
}

// Wait blocks until every request read so far has its answer written, until
// the stream is closed, or until ctx ends.
func (g *Guard) Wait(ctx context.Context) { g.st.wait(ctx) }

// HoldEOF makes the end of the input (EOF, or an error reading it) wait
// until hold returns. The SDK ends a connection when its input ends, and
// writes nothing after: `printf '…' | server` would get nothing for its
// last calls. hold is the server's
// chance to let them finish and have their answers written (with
// [Guard.Wait]), within a bound of its own; it runs once, on the reading
// goroutine. nil, the default, passes the end on at once.
func (g *Guard) HoldEOF(hold func()) { g.in.holdEOF = hold }

// Cut ends the stream for good, for a server that gives up on a session
// whose SDK connection cannot close (a handler that ignores cancellation
// holds it open): [Guard.Wait] returns, every later write fails with
// [ErrCut] and writes nothing, so that an answer that comes after the
// server let go of the stream never reaches it, and both ends of the
// stream are closed, when they are [io.Closer]s, as the SDK would close
// them.
func (g *Guard) Cut() {
	g.outMu.Lock()
	g.cut = true
	g.outMu.Unlock()
	g.in.Close()
	g.closeOut()
}

// ErrCut is the error of a write after [Guard.Cut].
var ErrCut = errors.New("rpcguard: the stream was cut")

// write puts one or more whole lines of the guard's own answers on the
// stream, with the secrets the process keeps masked, as the SDK's are
// (see conn.Write).
func (g *Guard) write(p []byte) (int, error) {
	g.outMu.Lock()
	defer g.outMu.Unlock()
	if g.cut {
		return 0, ErrCut
	}
	return g.out.Write(redact.MaskBytes(p))
}

// send writes p, whole lines of the SDK's that answer the requests ids
// with the objects objs.
func (g *Guard) send(p []byte, ids []id, objs [][]byte) (int, error) {
	g.outMu.Lock()
	defer g.outMu.Unlock()
	if g.cut {
		return 0, ErrCut
	}
	g.st.answering(ids, objs)
	n, err := g.out.Write(p)
	// A request stops pending once its answer is out, not before: a
	// server closing the stream in between would cut the answer off.
	g.st.answered(ids)
	return n, err
}

// closeOut closes the stream's output, when it is an [io.Closer]: nothing
// more can be answered, so [Guard.Wait] waits no more.
func (g *Guard) closeOut() error {
	g.st.close()
	if c, ok := g.out.(io.Closer); ok {
		return c.Close()
	}
	return nil
}
