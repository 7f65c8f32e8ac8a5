package mcpcore

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// ErrInputRequired is in the chain of the error that [Elicit],
// [Context.Sample] and [Context.Roots] return when the client must answer
// first: the request speaks MCP 2026-07-28 or later, where a server asks the
// client for input by returning the questions as the call's result
// ("input_required"), and the client calls again with the answers. Return
// the error as it is (alone, or joined with those of other questions of the
// same round, as errors.Join does): the framework sends every question the
// handler asked, and the handler runs again, from the start, with the
// answers. Under older protocol versions the questions are sent to the
// client during the call and these methods simply wait for the answers.
//
// A handler that asks questions should therefore have no effect before the
// last one is answered, or keep what it did in [Context.SetRequestState].
var ErrInputRequired = errors.New("mcpcore: the client must answer the server's questions first")

// mrtrVersion is the first protocol version in which a server asks for
// input in the result of the call (SEP-2322), not by a request of its own.
const mrtrVersion = "2026-07-28"

// An exchange is what a call sends to and receives from the client besides
// its arguments and result: progress, questions, and their answers.
type exchange struct {
	progressToken any
	caps          *mcp.ClientCapabilities
	// mrtr: questions travel in the result (protocol 2026-07-28 and later).
	mrtr    bool
	answers mcp.InputResponseMap
	// stateIn is the verified requestState the client echoed.
	stateIn string

	mu       sync.Mutex
	asked    int                 // questions asked so far, for default keys
	pending  mcp.InputRequestMap // questions of this round awaiting answers
	stateOut string
	progress progress
}

func newExchange(version string, token any, caps *mcp.ClientCapabilities, answers mcp.InputResponseMap) *exchange {
	return &exchange{progressToken: token, caps: caps, mrtr: version >= mrtrVersion, answers: answers}
}

// key returns the key of a question: the one given, or one numbered by the
// order in which the handler asks.
func (x *exchange) key(given, prefix string) string {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.asked++
	if given != "" {
		return given
	}
	return fmt.Sprintf("%s-%d", prefix, x.asked)
}

// answer returns the client's answer to the question key, when it has the
// kind fits says; otherwise it records the question for the input_required
// result (a missing or malformed answer is asked again) and returns an
// error that wraps ErrInputRequired.
func (x *exchange) answer(key string, question mcp.InputRequest, fits func(mcp.InputResponse) bool) (mcp.InputResponse, error) {
	if a, ok := x.answers[key]; ok && a != nil && fits(a) {
		return a, nil
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.pending == nil {
		x.pending = mcp.InputRequestMap{}
	}
	x.pending[key] = question
	return nil, fmt.Errorf("question %q: %w", key, ErrInputRequired)
}

// inputRequired returns the questions to send when err says the client must
// answer first, or nil, and what this round hands the next. It is only asked
// of an error when the handler has asked something, and the error's own
// methods (which may panic) are called under a guard.
func (x *exchange) inputRequired(err error) (mcp.InputRequestMap, round) {
	if x == nil || err == nil {
		return nil, round{}
	}
	x.mu.Lock()
	pending := x.pending
	next := round{state: x.stateOut, progress: x.progress.last, progressed: x.progress.sent}
	x.mu.Unlock()
	if len(pending) == 0 {
		return nil, round{}
	}
	if is, bad := guard(func() (bool, error) { return errors.Is(err, ErrInputRequired), nil }); bad != nil || !is {
		return nil, round{}
	}
	return pending, next
}

// resume starts a round from what the previous one handed over.
func (x *exchange) resume(r round) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.stateIn = r.state
	x.progress.sent, x.progress.last = r.progressed, r.progress
}

// RequestState returns the state the handler saved with
// [Context.SetRequestState] in an earlier round of this call, as the client
// echoed it back; "" in the first round. The framework checks that the
// client did not alter it: an altered state is refused with InvalidParams
// before the handler runs.
func (c *Context) RequestState() string {
	if c.x == nil {
		return ""
	}
	return c.x.stateIn
}

// SetRequestState saves state for the next round of a call that asks the
// client for input (see [ErrInputRequired]): the client sends it back with
// its answers, and [Context.RequestState] returns it. It is how a handler
// of several rounds remembers what earlier rounds learned, since the next
// round may be served by another process. The state is signed, not
// encrypted: the client can read it, so keep secrets out of it.
func (c *Context) SetRequestState(state string) {
	if c.x == nil {
		return
	}
	c.x.mu.Lock()
	c.x.stateOut = state
	c.x.mu.Unlock()
}

// errBadState marks a requestState that fails verification.
var errBadState = errors.New("mcpcore: requestState failed verification")

// signState returns the wire form of a round's state: the handler's state,
// the last progress sent (so that the next round, which runs the handler
// again, never reports less), and an HMAC of both bound to the definition,
// so that a client can neither alter them nor replay them into another
// definition. Every input_required result carries one, even for an empty
// state: the next round then proves it answers a round this server issued.
func (s *Server) signState(kind, name string, r round) string {
	payload := r.state
	if r.progressed {
		payload = strconv.FormatFloat(r.progress, 'g', -1, 64) + "\x00" + payload
	} else {
		payload = "\x00" + payload
	}
	return base64.RawURLEncoding.EncodeToString([]byte(payload)) + "." + base64.RawURLEncoding.EncodeToString(s.stateMAC(kind, name, payload))
}

// A round is what one round of a call hands the next.
type round struct {
	state      string
	progress   float64
	progressed bool
}

// openState verifies a requestState from the client and returns the round
// it carries; the zero round for none.
func (s *Server) openState(kind, name, wire string) (round, error) {
	if wire == "" {
		return round{}, nil
	}
	encoded, sig, ok := strings.Cut(wire, ".")
	payload, err1 := base64.RawURLEncoding.DecodeString(encoded)
	mac, err2 := base64.RawURLEncoding.DecodeString(sig)
	if !ok || err1 != nil || err2 != nil || !hmac.Equal(mac, s.stateMAC(kind, name, string(payload))) {
		return round{}, errBadState
	}
	progress, state, ok := strings.Cut(string(payload), "\x00")
	if !ok {
		return round{}, errBadState
	}
	r := round{state: state}
	if progress != "" {
		p, err := strconv.ParseFloat(progress, 64)
		if err != nil {
			return round{}, errBadState
		}
		r.progress, r.progressed = p, true
	}
	return r, nil
}

func (s *Server) stateMAC(kind, name, state string) []byte {
	m := hmac.New(sha256.New, s.stateKey)
	m.Write([]byte(kind + "\x00" + name + "\x00" + state))
	return m.Sum(nil)
}

// badState is the protocol error for a requestState that fails
// verification.
func badState() *mcperr.Error {
	return mcperr.InvalidParams("Invalid requestState: it was not issued by this server for this request, or it was altered.",
		mcperr.WithCause(errBadState))
}
