// Package a holds handlers: each function exercises one source, or one
// shape that must add nothing.
package a

import (
	"b"
	"c"
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"sync"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

var noMatch = mcpcore.Failure{ // want noMatch:"^failure no_match:NotFound$"
	Reason:   "no_match",
	Code:     mcperr.CodeNotFound,
	When:     "No requested PMID returned data",
	Recovery: "Try pubmed_search_articles to discover valid PMIDs first.",
}

var client = &b.Client{}

// fetchArticles sees two calls down, into another package each time.
func fetchArticles(ctx *mcpcore.Context, id string) (string, error) { // want fetchArticles:"^codes NotFound via b.Client.Fetch, RateLimited via b.Client.Fetch from c.Get, ServiceUnavailable via b.Client.Fetch from c.Get; reasons no_match:NotFound via b.Client.Fetch, rate_limited:RateLimited via b.Client.Fetch from c.Get; fromResponse via b.Client.Fetch from c.Get$"
	s, err := client.Fetch(ctx, id)
	if err != nil {
		return "", err
	}
	return s, nil
}

func factory() error { // want factory:"^codes NotFound$"
	return mcperr.NotFound("gone")
}

func newConst() error { // want newConst:"^codes Conflict$"
	return mcperr.New(mcperr.CodeConflict, "taken")
}

// newVar's code is its parameter: a caller's constant is the code, and
// the code of the reason stamped with it.
func newVar(code mcperr.Code) error { // want newVar:"^paramCodes param 0, param 0 computed$"
	return mcperr.New(code, "?", mcperr.WithData(map[string]any{"reason": "computed"}))
}

const codeGone = mcperr.CodeNotFound

func newVarConst() error { // want newVarConst:"^codes NotFound via a.newVar; reasons computed:NotFound via a.newVar$"
	return newVar(mcperr.CodeNotFound)
}

func newVarNamed() error { // want newVarNamed:"^codes NotFound via a.newVar; reasons computed:NotFound via a.newVar$"
	return newVar(codeGone)
}

// newVarUnknown passes a code that is not a constant: the reason alone,
// its code unknown, as before.
func newVarUnknown(codes []mcperr.Code) error { // want newVarUnknown:"^reasons computed via a.newVar$"
	return newVar(codes[0])
}

// newVarPassOn passes its own parameter on: its callers bind it.
func newVarPassOn(code mcperr.Code) error { // want newVarPassOn:"^paramCodes param 0 via a.newVar, param 0 computed via a.newVar$"
	return newVar(code)
}

func newVarPassedOn() error { // want newVarPassedOn:"^codes Conflict via a.newVarPassOn from a.newVar; reasons computed:Conflict via a.newVarPassOn from a.newVar$"
	return newVarPassOn(mcperr.CodeConflict)
}

// upstreamErr takes both the code and the reason from its parameters.
func upstreamErr(code mcperr.Code, reason string) error { // want upstreamErr:"^paramReasons param 1:param 0; paramCodes param 0$"
	return mcperr.New(code, "upstream failed", mcperr.WithData(map[string]any{"reason": reason}))
}

func upstreamConst() error { // want upstreamConst:"^codes RateLimited via a.upstreamErr; reasons quota_hit:RateLimited via a.upstreamErr$"
	return upstreamErr(mcperr.CodeRateLimited, "quota_hit")
}

// upstreamCode passes its code parameter on with a constant reason, and
// upstreamReason its reason with a constant code.
func upstreamCode(code mcperr.Code) error { // want upstreamCode:"^paramCodes param 0 via a.upstreamErr, param 0 quota_hit via a.upstreamErr$"
	return upstreamErr(code, "quota_hit")
}

func upstreamReason(reason string) error { // want upstreamReason:"^codes Timeout via a.upstreamErr; paramReasons param 0:Timeout via a.upstreamErr$"
	return upstreamErr(mcperr.CodeTimeout, reason)
}

// codeClosure calls a closure kept in a variable with constant codes.
func codeClosure(slow bool) error { // want codeClosure:"^codes ServiceUnavailable, Timeout; reasons down:ServiceUnavailable, slow:Timeout$"
	fail := func(code mcperr.Code, reason string) error {
		return mcperr.New(code, "upstream failed", mcperr.WithData(map[string]any{"reason": reason}))
	}
	if slow {
		return fail(mcperr.CodeTimeout, "slow")
	}
	return fail(mcperr.CodeServiceUnavailable, "down")
}

func withData() error { // want withData:"^codes RateLimited; reasons quota:RateLimited$"
	return mcperr.RateLimited("quota", mcperr.WithData(map[string]any{"reason": "quota", "limit": 10}))
}

func failVar(ctx *mcpcore.Context) error { // want failVar:"^codes NotFound; reasons no_match:NotFound$"
	return ctx.Fail(noMatch, "", ctx.RecoveryFor(noMatch))
}

func failInline(ctx *mcpcore.Context) error { // want failInline:"^codes Conflict; reasons inline:Conflict$"
	return ctx.Fail(mcpcore.Failure{Reason: "inline", Code: mcperr.CodeConflict}, "")
}

func failLocal(ctx *mcpcore.Context) error { // want failLocal:"^codes Timeout; reasons local:Timeout$"
	f := mcpcore.Failure{Reason: "local", Code: mcperr.CodeTimeout}
	err := ctx.Fail(f, "")
	return err
}

// failLocalTwice's entry is assigned twice: which one fails is not known.
func failLocalTwice(ctx *mcpcore.Context, late bool) error {
	f := mcpcore.Failure{Reason: "early", Code: mcperr.CodeTimeout}
	if late {
		f = mcpcore.Failure{Reason: "late", Code: mcperr.CodeConflict}
	}
	return ctx.Fail(f, "")
}

func failImported(ctx *mcpcore.Context) error { // want failImported:"^codes RateLimited; reasons throttled:RateLimited$"
	return ctx.Fail(c.Throttled, "")
}

// recoveryFor attaches recoveries: the reasons count as raised.
func recoveryFor(ctx *mcpcore.Context, slow bool) error { // want recoveryFor:"^codes NotFound, Timeout; reasons no_match:NotFound, slow:Timeout$"
	if slow {
		entry := mcpcore.Failure{Reason: "slow", Code: mcperr.CodeTimeout, When: "Slow.", Recovery: "Call again in a minute."}
		opt := mcpcore.RecoveryFor(ctx, entry)
		return mcperr.Timeout("slow", opt)
	}
	return mcperr.NotFound("missing", ctx.RecoveryFor(noMatch))
}

func fromResponse(resp *http.Response) error { // want fromResponse:"^reasons upstream; fromResponse direct$"
	return mcperr.FromResponse(resp, mcperr.WithData(map[string]any{"reason": "upstream"}))
}

// loggedOnly builds errors it never returns.
func loggedOnly(ctx *mcpcore.Context) error {
	e := mcperr.NotFound("only logged")
	log.Print(e)
	log.Print(ctx.Fail(noMatch, ""))
	_ = mcperr.Timeout("dropped")
	return nil
}

type fetcher interface {
	Fetch(ctx context.Context, id string) (string, error)
}

// interfaceCall calls what it cannot see statically: its errors are
// opaque. funcValue calls method values kept in variables, followed to the
// methods they hold.
func interfaceCall(ctx context.Context, f fetcher) error { // want interfaceCall:"^opaque$"
	_, err := f.Fetch(ctx, "1")
	return err
}

func funcValue(ctx context.Context) error { // want funcValue:"^codes NotFound via b.Client.Fetch, RateLimited via b.Client.Fetch from c.Get, RateLimited via c.Get, ServiceUnavailable via b.Client.Fetch from c.Get, ServiceUnavailable via c.Get; reasons no_match:NotFound via b.Client.Fetch, rate_limited:RateLimited via b.Client.Fetch from c.Get, rate_limited:RateLimited via c.Get; fromResponse via b.Client.Fetch from c.Get, via c.Get$"
	fetch := client.Fetch
	_, err := fetch(ctx, "1")
	if err != nil {
		return err
	}
	get := c.Get
	_, err = get(ctx, "x")
	return err
}

// goAndDefer set the error from calls that run at another time.
func goAndDefer() (err error) {
	defer func() { err = mcperr.Timeout("late") }()
	go func() { err = mcperr.Conflict("racy") }()
	return
}

// closure sets the error through a closure that runs before the return.
func closure() (err error) { // want closure:"^codes Conflict$"
	var once sync.Once
	once.Do(func() { err = mcperr.Conflict("once") })
	return
}

func selfRecursion(n int) error { // want selfRecursion:"^codes NotFound$"
	if n == 0 {
		return mcperr.NotFound("bottom")
	}
	return selfRecursion(n - 1)
}

func ping(n int) error { // want ping:"^codes Conflict, Timeout via a.pong$"
	if n == 0 {
		return mcperr.Conflict("ping")
	}
	return pong(n - 1)
}

func pong(n int) error { // want pong:"^codes Conflict via a.ping, Timeout$"
	if n == 0 {
		return mcperr.Timeout("pong")
	}
	return ping(n - 1)
}

// chain calls a helper declared after it: dependency order, not file order.
func chain() error { // want chain:"^codes NotFound via a.helper from a.factory$"
	if err := helper(); err != nil {
		return fmt.Errorf("chain: %w", err)
	}
	return nil
}

func helper() error { // want helper:"^codes NotFound via a.factory$"
	x, err := factory(), error(nil)
	_ = err
	return x
}

func join() error { // want join:"^codes Conflict via a.newConst, NotFound via a.factory$"
	return errors.Join(factory(), newConst(), fmt.Errorf("%v", failVar(nil)))
}

func wrapped() error { // want wrapped:"^codes Conflict$"
	return b.Wrap("op", mcperr.Conflict("x"))
}

func cause(ctx context.Context) error { // want cause:"^codes InternalError via b.Cause$"
	_, err := client.Fetch(ctx, "1")
	return b.Cause(err)
}

func from(ctx *mcpcore.Context) error { // want from:"^codes NotFound; reasons no_match:NotFound$"
	err := ctx.Fail(noMatch, "")
	return mcperr.From(err)
}

func retry(ctx context.Context) (string, error) { // want retry:"^codes RateLimited via c.Get, ServiceUnavailable via c.Get; reasons rate_limited:RateLimited via c.Get; fromResponse via c.Get$"
	return mcperr.Retry(ctx, mcperr.RetryOptions{}, func(ctx context.Context) (string, error) {
		_, err := c.Get(ctx, "x")
		if err != nil {
			return "", err
		}
		return "", nil
	})
}

// retryNamed retries a function named statically.
func retryNamed(ctx context.Context) (*http.Response, error) { // want retryNamed:"^codes RateLimited via a.get from c.Get, ServiceUnavailable via a.get from c.Get; reasons rate_limited:RateLimited via a.get from c.Get; fromResponse via a.get from c.Get$"
	return mcperr.TryCatch(ctx, mcperr.TryCatchOptions{}, get)
}

func get(ctx context.Context) (*http.Response, error) { // want get:"^codes RateLimited via c.Get, ServiceUnavailable via c.Get; reasons rate_limited:RateLimited via c.Get; fromResponse via c.Get$"
	return c.Get(ctx, "x")
}

// retryMethod retries a closure that calls a method value kept in a
// variable: followed.
func retryMethod(ctx context.Context) (string, error) { // want retryMethod:"^codes NotFound via b.Client.Fetch, RateLimited via b.Client.Fetch from c.Get, ServiceUnavailable via b.Client.Fetch from c.Get; reasons no_match:NotFound via b.Client.Fetch, rate_limited:RateLimited via b.Client.Fetch from c.Get; fromResponse via b.Client.Fetch from c.Get$"
	return mcperr.Retry(ctx, mcperr.RetryOptions{}, func(ctx context.Context) (string, error) {
		f := client.Fetch
		return f(ctx, "1")
	})
}

// indexed wraps the second argument only.
func indexed() error { // want indexed:"^codes Timeout$"
	return fmt.Errorf("%[2]w after %[1]v", mcperr.Conflict("c"), mcperr.Timeout("t"))
}

// generic is instantiated at the call: the fact is on the generic function.
func generic[T any](v T) (T, error) { // want generic:"^codes Conflict$"
	return v, mcperr.Conflict("generic")
}

func useGeneric() error { // want useGeneric:"^codes Conflict via a.generic$"
	_, err := generic(1)
	return err
}

type store struct{}

func (s store) get() error { // want get:"^codes DatabaseError$"
	return mcperr.DatabaseError("db")
}

func method(s store) error { // want method:"^codes DatabaseError via a.store.get$"
	return s.get()
}

type cache[T any] struct{}

func (c *cache[T]) load() (T, error) { // want load:"^codes NotFound$"
	var zero T
	return zero, mcperr.NotFound("cold")
}

func useCache(c *cache[string]) error { // want useCache:"^codes NotFound via a.cache.load$"
	_, err := c.load()
	return err
}

// varCycle's variables wrap each other; sink's argument is read first, and
// b must still carry what a carries.
func varCycle(flip bool) error { // want varCycle:"^codes Conflict, Timeout$"
	a := error(mcperr.Conflict("a"))
	b := error(mcperr.Timeout("b"))
	if flip {
		a = fmt.Errorf("a: %w", b)
		b = fmt.Errorf("b: %w", a)
		return sink(a)
	}
	return b
}

func sink(error) error { return nil }

// queue runs jobs on a worker: what a job returns comes back through a
// channel, which the analysis cannot follow, and a caller's closure is
// taken to come back all the same.
type queue struct{ jobs chan func() error }

func (q *queue) do(ctx context.Context, job func() error) error {
	done := make(chan error, 1)
	q.jobs <- func() error { err := job(); done <- err; return err }
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

var q = &queue{}

// queued raises inside the closure it hands to its own queue.
func queued(ctx context.Context) error { // want queued:"^codes Forbidden$"
	return q.do(ctx, func() error {
		return mcperr.Forbidden("no access")
	})
}

var busy = mcpcore.Failure{Reason: "busy", Code: mcperr.CodeRateLimited, When: "Throttled.", Recovery: "Wait a minute, then call again."} // want busy:"^failure busy:RateLimited$"

var gone = mcpcore.Failure{Reason: "gone", Code: mcperr.CodeNotFound, When: "Gone.", Recovery: "Search for it again first."} // want gone:"^failure gone:NotFound$"

var gone2 = mcpcore.Failure{Reason: "gone_too", Code: mcperr.CodeNotFound, When: "Gone.", Recovery: "Search for it again first."} // want gone2:"^failure gone_too:NotFound$"

func upstream(id string) error { // want upstream:"^codes Forbidden, RateLimited$"
	if id == "" {
		return mcperr.RateLimited("slow down")
	}
	return mcperr.Forbidden("no")
}

// mapped maps RateLimited to busy; Forbidden goes out unchanged, and gone,
// whose code upstream never gives, is not raised.
func mapped(ctx *mcpcore.Context, id string) error { // want mapped:"^codes Forbidden via a.upstream, RateLimited; reasons busy:RateLimited$"
	return ctx.FailFrom(upstream(id), busy, gone)
}

// ambiguous gives two entries with one code: neither is chosen.
func ambiguous(ctx *mcpcore.Context) error { // want ambiguous:"^codes NotFound via a.notFound$"
	return ctx.FailFrom(notFound(), gone, gone2)
}

func notFound() error { return mcperr.NotFound("none") } // want notFound:"^codes NotFound$"

// unsure maps an error the analysis cannot list: every entry may be it.
func unsure(ctx *mcpcore.Context, f fetcher) error { // want unsure:"^codes NotFound, RateLimited; reasons busy:RateLimited, gone:NotFound; opaque$"
	_, err := f.Fetch(ctx, "1")
	return ctx.FailFrom(err, busy, gone)
}

var throttle = mcpcore.Failure{Reason: "throttle", Code: mcperr.CodeRateLimited, When: "Throttled upstream.", Recovery: "Wait for retryAfter, then call again."} // want throttle:"^failure throttle:RateLimited$"

func stamped() error { // want stamped:"^codes RateLimited; reasons throttle:RateLimited$"
	return mcperr.RateLimited("x", mcperr.WithData(map[string]any{"reason": "throttle"}))
}

// byReason gives two entries with one code: the reason stamped chooses.
func byReason(ctx *mcpcore.Context) error { // want byReason:"^codes RateLimited; reasons throttle:RateLimited$"
	return ctx.FailFrom(stamped(), busy, throttle)
}

// byUpstreamCode maps an error whose code is upstreamErr's argument: the
// one entry with that code replaces it, and the reason stamped with it.
func byUpstreamCode(ctx *mcpcore.Context) error { // want byUpstreamCode:"^codes NotFound; reasons gone:NotFound$"
	return ctx.FailFrom(upstreamErr(mcperr.CodeNotFound, "missing"), busy, gone)
}

// byUpstreamReason: the reason stamped beside the code chooses the entry.
func byUpstreamReason(ctx *mcpcore.Context) error { // want byUpstreamReason:"^codes RateLimited; reasons throttle:RateLimited$"
	return ctx.FailFrom(upstreamErr(mcperr.CodeRateLimited, "throttle"), busy, throttle)
}

// failFromCode passes its code parameter on under FailFrom: its callers
// bind the code; the entry given may be the one raised, and whether it
// replaces the reason is not known, so the reason is left out.
func failFromCode(ctx *mcpcore.Context, code mcperr.Code) error { // want failFromCode:"^codes RateLimited; reasons busy:RateLimited; paramCodes param 1 via a.upstreamErr$"
	return ctx.FailFrom(upstreamErr(code, "missing"), busy)
}

var byName = map[string]func(context.Context) error{}

// fromMap calls a function held in a map, which is not followed: opaque,
// and it says which value.
func fromMap(ctx context.Context, name string) error { // want fromMap:"^opaque; unfollowed byName\\[name\\]$"
	return byName[name](ctx)
}

// closures calls a closure kept in a variable, one a helper returns, and
// one handed on to a helper of its own; the reason helper stamps each
// constant passed to it.
func closures(ctx context.Context, path string) error { // want closures:"^codes Conflict, NotFound, Unauthorized; reasons gone:NotFound, locked:Conflict, no_key:Unauthorized; paramReasons param 1:Unauthorized$"
	data := func(reason string) map[string]any { return map[string]any{"reason": reason} }
	exec := func(ctx context.Context) error {
		return mcperr.NotFound("gone", mcperr.WithData(data("gone")))
	}
	if err := exec(ctx); err != nil {
		return err
	}
	if err := runIt(ctx, lockedFn()); err != nil {
		return err
	}
	if path == "" {
		return mcperr.Unauthorized("no key", mcperr.WithData(data("no_key")))
	}
	return mcperr.Unauthorized("no key", mcperr.WithData(data(path)))
}

func lockedFn() func(context.Context) error {
	return func(ctx context.Context) error {
		return mcperr.Conflict("locked", mcperr.WithData(map[string]any{"reason": "locked"}))
	}
}

func runIt(ctx context.Context, f func(context.Context) error) error { return f(ctx) }

// stampFrom passes its parameter on to closures: a caller's constant
// becomes the reason.
func stampFrom(ctx context.Context) error { // want stampFrom:"^codes Conflict via a.closures, NotFound via a.closures, Unauthorized via a.closures; reasons gone:NotFound via a.closures, locked:Conflict via a.closures, no_key:Unauthorized via a.closures, path_is_dir:Unauthorized via a.closures$"
	return closures(ctx, "path_is_dir")
}
