package mcpcore

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/internal/errchain"
	"github.com/seed417024ea/mcpcore/internal/httpserve"
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
// answers. Inside a task (see [TaskSupport]) the questions make the task
// input_required, and the handler runs again once tasks/update has answered
// them all. Under older protocol versions the questions are sent to the
// client during the call and these methods simply wait for the answers.
//
// The answers of every round are kept (signed, in the call's requestState),
// so a handler that asks one question after another needs no bookkeeping:
// each run, the questions already answered return their answers at once,
// and the first one not yet answered ends the round. An answer is kept for
// its question: a question asked under the same key with other content is
// asked again. Keep the order of a handler's unnamed questions stable, or
// name them with [QuestionKey]. A handler should have no effect before its last
// question is answered, since it runs once per round.
var ErrInputRequired = errors.New("mcpcore: the client must answer the server's questions first")

// requestStateTTL is how long a call's rounds of questions may take: a
// requestState older than this is refused, so that an answer cannot be
// replayed for good.
const requestStateTTL = time.Hour

// mrtrVersion is the first protocol version in which a server asks for
// input in the result of the call (SEP-2322), not by a request of its own.
const mrtrVersion = "2026-07-28"

// autoKeyPrefix starts the keys of questions the handler did not name; a
// handler's own keys may not use it.
const autoKeyPrefix = "mcpcore/"

// An exchange is what a call sends to and receives from the client besides
// its arguments and result: progress, questions, and their answers.
type exchange struct {
	progressToken any
	// capsOf reads the client's capabilities, which the SDK re-encodes on
	// each read: only a call that asks the client pays for it.
	capsOf   func() *mcp.ClientCapabilities
	capsOnce sync.Once
	caps     *mcp.ClientCapabilities
	// mrtr: questions travel in the result (protocol 2026-07-28 and later).
	mrtr bool
	// fresh are the client's answers in this request; kept and asked are
	// the answers of earlier rounds and the questions of the last one, from
	// the verified requestState.
	fresh mcp.InputResponseMap
	kept  map[string]keptAnswer
	asked map[string]string
	// stateIn is the handler's state, as the last round left it.
	stateIn string

	mu       sync.Mutex
	closed   bool            // the call has ended
	keys     map[string]bool // keys asked in this run
	numbered int             // questions asked, for unnamed keys
	pending  mcp.InputRequestMap
	used     map[string]keptAnswer // answers this run used
	stateOut *string
	progress progress
}

// A keptAnswer is an answer carried from round to round, with the hash of
// the question it answers.
type keptAnswer struct {
	Question string          `json:"q"`
	Answer   json.RawMessage `json:"r"`
}

func newExchange(version string, token any, caps func() *mcp.ClientCapabilities, answers mcp.InputResponseMap) *exchange {
	return &exchange{progressToken: token, capsOf: caps, mrtr: version >= mrtrVersion, fresh: answers}
}

// clientCaps is the client's capabilities, read once; nil for an exchange
// without a client.
func (x *exchange) clientCaps() *mcp.ClientCapabilities {
	if x == nil {
		return nil
	}
	x.capsOnce.Do(func() {
		if x.capsOf != nil {
			x.caps = x.capsOf()
		}
	})
	return x.caps
}

// errCallEnded refuses a question asked after the call ended (by a
// goroutine the handler left behind).
var errCallEnded = mcperr.InternalError("A question was asked after its call had ended; ask questions in the handler, not in goroutines that outlive it.")

// begin registers the question key for this run: the one given, or the
// next unnamed one. Asking one key twice is the handler's bug.
func (x *exchange) begin(given, kind string) (string, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.closed {
		return "", errCallEnded
	}
	x.numbered++
	key := given
	switch {
	case given == "":
		key = fmt.Sprintf("%s%s-%d", autoKeyPrefix, kind, x.numbered)
	case strings.HasPrefix(given, autoKeyPrefix):
		return "", mcperr.InternalError(fmt.Sprintf("The question key %q starts with %q, which is kept for unnamed questions; choose another key.", given, autoKeyPrefix))
	}
	if x.keys[key] {
		return "", mcperr.InternalError(fmt.Sprintf("The question key %q was used twice in one run of the handler; give each question its own key.", key))
	}
	if x.keys == nil {
		x.keys = map[string]bool{}
	}
	x.keys[key] = true
	return key, nil
}

// answerTo returns the client's answer to question, asked under key: given
// in this request, or kept from an earlier round for the same question.
// Otherwise it records the question for the input_required result and
// returns an error that wraps ErrInputRequired. An answer of the wrong kind
// counts as none, and the question is asked again.
func answerTo[T any](x *exchange, key string, question mcp.InputRequest) (*T, error) {
	q, err := json.Marshal(question)
	if err != nil {
		return nil, mcperr.InternalError("The question could not be encoded: "+err.Error(), mcperr.WithCause(err))
	}
	sum := sha256.Sum256(q)
	qhash := hex.EncodeToString(sum[:16])
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.closed {
		return nil, errCallEnded
	}
	if a, ok := any(x.fresh[key]).(*T); ok && a != nil {
		// An answer for another question than the one last asked under
		// this key (the handler asks in another order now) is no answer.
		if prev, asked := x.asked[key]; !asked || prev == qhash {
			if raw, err := json.Marshal(a); err == nil {
				x.keep(key, keptAnswer{qhash, raw})
				return a, nil
			}
		}
	}
	if k, ok := x.kept[key]; ok && k.Question == qhash {
		a := new(T)
		if err := json.Unmarshal(k.Answer, a); err == nil {
			x.keep(key, k)
			return a, nil
		}
	}
	if x.pending == nil {
		x.pending = mcp.InputRequestMap{}
	}
	x.pending[key] = question
	return nil, fmt.Errorf("question %q: %w", key, ErrInputRequired)
}

// askClient puts a question to the client, for [Elicit], [Context.Sample] and
// [Context.Roots]: it checks the capability, keys the question, and then
// either looks up the answer of the round (2026-07-28 and later) or sends
// the question during the call with direct, whose failure is the client's.
// what names the caller in messages, method the question's JSON-RPC method.
func askClient[T any](c *Context, capability Capability, given, what, method string, question mcp.InputRequest,
	direct func(*mcp.ServerSession) (*T, error)) (*T, error) {
	if err := c.RequireClient(capability); err != nil {
		return nil, err
	}
	key, err := c.x.begin(given, string(capability))
	if err != nil {
		return nil, err
	}
	if c.x.mrtr {
		return answerTo[T](c.x, key, question)
	}
	if c.session == nil {
		return nil, mcperr.ServiceUnavailable(what + ": there is no client session to ask.")
	}
	r, err := direct(c.session)
	if err != nil {
		return nil, clientFailure(c, method, err)
	}
	return r, nil
}

func (x *exchange) keep(key string, k keptAnswer) {
	if x.used == nil {
		x.used = map[string]keptAnswer{}
	}
	x.used[key] = k
}

// inputRequired returns the questions to send when err says the client must
// answer first, or nil, and what this round hands the next. It is only asked
// of an error when the handler has asked something, and the error's own
// methods (which may panic) are called under a guard.
func (x *exchange) inputRequired(err error) (mcp.InputRequestMap, *round) {
	if x == nil || err == nil {
		return nil, nil
	}
	x.mu.Lock()
	n := len(x.pending)
	x.mu.Unlock()
	if n == 0 {
		return nil, nil
	}
	if is, bad := guard(func() (bool, error) { return errchain.Is(err, ErrInputRequired), nil }); bad != nil || !is {
		return nil, nil
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	// A copy: the SDK encodes the questions while a goroutine the handler
	// left behind may still ask (and be refused, see close).
	questions := maps.Clone(x.pending)
	next := &round{State: x.stateIn, Final: x.progress.final, Answers: maps.Clone(x.kept), Asked: map[string]string{}}
	if x.stateOut != nil {
		next.State = *x.stateOut
	}
	if x.progress.sent {
		p := x.progress.last
		next.Progress = &p
	}
	if next.Answers == nil {
		next.Answers = map[string]keptAnswer{}
	}
	maps.Copy(next.Answers, x.used)
	for key, q := range questions {
		if b, err := json.Marshal(q); err == nil {
			sum := sha256.Sum256(b)
			next.Asked[key] = hex.EncodeToString(sum[:16])
		}
	}
	return questions, next
}

// close ends the exchange with its call: a goroutine the handler left
// behind can no longer ask or report progress.
func (x *exchange) close() {
	if x == nil {
		return
	}
	x.mu.Lock()
	x.closed = true
	x.mu.Unlock()
}

// resume starts a run from what the previous round handed over.
func (x *exchange) resume(r *round) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.stateIn, x.kept, x.asked = r.State, r.Answers, r.Asked
	if r.Progress != nil {
		x.progress.sent, x.progress.last = true, *r.Progress
	}
	x.progress.final = r.Final
}

// rerun starts another run of a task's handler, with the answers the
// client gave in tasks/update and what the previous round handed over: as
// a new request of multi-round input would, in the same exchange.
func (x *exchange) rerun(r *round, answers mcp.InputResponseMap) {
	x.mu.Lock()
	x.keys, x.numbered, x.pending, x.used, x.fresh = nil, 0, nil, nil, answers
	x.mu.Unlock()
	x.resume(r)
}

// RequestState returns the state the handler saved with
// [Context.SetRequestState] in an earlier round of this call, as the client
// echoed it back; "" in the first round. The framework checks that the
// client did not alter it: an altered state is refused with InvalidParams
// before the handler runs.
func (c *Context) RequestState() string {
	if c == nil || c.x == nil {
		return ""
	}
	c.x.mu.Lock()
	defer c.x.mu.Unlock()
	return c.x.stateIn
}

// SetRequestState saves state for the next rounds of a call that asks the
// client for input (see [ErrInputRequired]); it stays until set again. The
// client sends it back with its answers, and [Context.RequestState] returns
// it. Answers are kept without it; use it for what the handler learns
// otherwise, since the next round may be served by another process. The
// state is signed, not encrypted: the client can read it, so keep secrets
// out of it.
func (c *Context) SetRequestState(state string) {
	if c == nil || c.x == nil {
		return
	}
	c.x.mu.Lock()
	c.x.stateOut = &state
	c.x.mu.Unlock()
}

// A round is what one round of a call hands the next, in its requestState.
type round struct {
	State    string                `json:"s,omitempty"`
	Progress *float64              `json:"p,omitempty"`
	Final    bool                  `json:"f,omitempty"`
	Answers  map[string]keptAnswer `json:"a,omitempty"`
	Asked    map[string]string     `json:"k,omitempty"`
	Issued   int64                 `json:"t"`
}

// errBadState marks a requestState that fails verification.
var errBadState = errors.New("mcpcore: requestState failed verification")

// signState returns the wire form of a round: its JSON and an HMAC of it
// bound to the call (the definition and its arguments or URI), so that a
// client can neither alter it nor replay it into another definition or a
// call with other arguments. Every input_required result carries one.
func (s *Server) signState(binding string, r *round) string {
	r.Issued = time.Now().Unix()
	payload, err := json.Marshal(r)
	if err != nil {
		payload = []byte(`{"t":0}`) // unreachable: a round is plain data
	}
	k := s.stateKeys.signing()
	return k.id + "." + base64.RawURLEncoding.EncodeToString(payload) + "." + base64.RawURLEncoding.EncodeToString(k.mac(binding, payload))
}

// openState verifies a requestState from the client and returns the round
// it carries, or nil for none.
func (s *Server) openState(binding, wire string) (*round, error) {
	if wire == "" {
		return nil, nil
	}
	// <key id>.<payload>.<signature>: the id names the key that signed.
	id, rest, ok1 := strings.Cut(wire, ".")
	encoded, sig, ok2 := strings.Cut(rest, ".")
	k, known := s.stateKeys.byID(id)
	if !ok1 || !ok2 || !known {
		return nil, errBadState
	}
	payload, err1 := base64.RawURLEncoding.DecodeString(encoded)
	mac, err2 := base64.RawURLEncoding.DecodeString(sig)
	if err1 != nil || err2 != nil || !hmac.Equal(mac, k.mac(binding, payload)) {
		return nil, errBadState
	}
	var r round
	if err := json.Unmarshal(payload, &r); err != nil {
		return nil, errBadState
	}
	if age := time.Since(time.Unix(r.Issued, 0)); age > requestStateTTL || age < -time.Minute {
		return nil, errBadState
	}
	return &r, nil
}

// binding identifies a call for its requestState: the kind, the key under
// which the definition is registered, the caller, and a hash of the input
// in canonical JSON (object keys sorted), so that a client's re-encoding of
// the same arguments still matches.
//
// The caller is the authenticated principal, when there is one: its
// issuer and subject (TokenInfo.UserID). A state carries the answers and
// the handler's data of one user's call, and the specification requires
// it to stay that user's: replayed by another subject, with the same tool
// and arguments, it is refused like an altered one. Without
// authentication the caller is nobody in particular, and the state is
// bound to the rest alone.
func binding(kind, key string, who *auth.TokenInfo, input any) string {
	if raw, ok := input.(json.RawMessage); ok {
		var v any
		if json.Unmarshal(raw, &v) == nil {
			input = v
		} else {
			input = string(raw)
		}
	}
	b, _ := json.Marshal(input)
	sum := sha256.Sum256(b)
	return kind + "\x00" + key + "\x00" + caller(who) + "\x00" + hex.EncodeToString(sum[:])
}

// caller names the authenticated principal of a token, its issuer and
// subject (TokenInfo.UserID), lengths first, so that no issuer and
// subject pair can be another's with the separator moved; "" without
// authentication.
func caller(who *auth.TokenInfo) string {
	if who == nil {
		return ""
	}
	iss, _ := who.Extra[httpserve.ExtraIssuer].(string)
	return fmt.Sprintf("%d:%s:%d:%s", len(iss), iss, len(who.UserID), who.UserID)
}

// principalOf is the principal a task is bound to: a hash of the caller,
// so that the store holds no subject; "" without authentication, when
// the task's id alone grants access to it.
func principalOf(who *auth.TokenInfo) string {
	c := caller(who)
	if c == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(c))
	return hex.EncodeToString(sum[:])
}

// requestPrincipal is the principal of the caller of req, a request that
// may carry a token (see principalOf).
func requestPrincipal(req mcp.Request) string {
	if extra := req.GetExtra(); extra != nil {
		return principalOf(extra.TokenInfo)
	}
	return ""
}

// badState is the protocol error for a requestState that fails
// verification.
func badState() *mcperr.Error {
	return mcperr.InvalidParams("Invalid requestState: it was not issued by this server for this request, it was altered, or it expired.",
		mcperr.WithCause(errBadState))
}
