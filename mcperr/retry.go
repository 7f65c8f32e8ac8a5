package mcperr

import (
	"context"
	"errors"
	"log/slog"
	"maps"
	"math"
	"math/rand/v2"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// The defaults of [RetryOptions].
const (
	// DefaultMaxRetries is how many times Retry retries: 4 attempts in all.
	DefaultMaxRetries = 3
	// DefaultBaseDelay is the wait before the first retry.
	DefaultBaseDelay = time.Second
	// DefaultMaxDelay caps a backoff delay and the Retry-After wait Retry
	// accepts.
	DefaultMaxDelay = 30 * time.Second
	// DefaultJitter spreads each delay over ±25 %.
	DefaultJitter = 0.25
)

// The values of [RetryOptions] fields that switch a feature off. A zero
// field means its default, so that RetryOptions{} is useful as it is;
// "none" therefore has a name of its own rather than being zero.
const (
	// NoRetries, as MaxRetries, makes a single attempt: no retry at all.
	NoRetries = -1
	// NoJitter, as Jitter, makes each backoff delay exact.
	NoJitter = -1.0
)

// RetryOptions tune [Retry]. The zero value retries a transient failure
// three times, waiting about 1s, 2s and 4s.
//
// As with [net.Dialer.KeepAlive], a zero field means its default and a
// negative one switches the feature off: MaxRetries: [NoRetries] makes a
// single attempt, Jitter: [NoJitter] makes the delays exact.
// MaxRetries: 0 is thus not "no retries" but the default, three.
type RetryOptions struct {
	// MaxRetries is how many times a failed attempt is retried, so at most
	// MaxRetries+1 attempts are made. Zero means [DefaultMaxRetries] (3,
	// not none); [NoRetries] (any negative value) means no retry at all.
	MaxRetries int

	// BaseDelay is the wait before the first retry; each later retry waits
	// twice as long as the one before, up to MaxDelay. Zero or negative
	// means [DefaultBaseDelay].
	BaseDelay time.Duration

	// MaxDelay caps the computed backoff (before jitter) and the wait a
	// Retry-After may ask for: a failure whose retryAfter asks for longer
	// is returned at once. Zero or negative means [DefaultMaxDelay].
	MaxDelay time.Duration

	// Jitter spreads each backoff delay d uniformly over [d−d·Jitter,
	// d+d·Jitter], so that clients that failed together do not retry
	// together. Zero means [DefaultJitter]; [NoJitter] (any negative value)
	// means no jitter; values above 1 count as 1. A Retry-After wait is never jittered.
	Jitter float64

	// Operation names the work in the debug records and in the data of the
	// error returned when the attempts run out.
	Operation string

	// Logger receives one debug record per retry; nil means the logger
	// of the request ctx belongs to (see WithRequestLogger), or else
	// slog.Default().
	Logger *slog.Logger

	// IsTransient decides whether a failure is worth another attempt; nil
	// means the package function [IsTransient]. A custom predicate replaces
	// it entirely, the retryable flag included; wrap IsTransient to extend
	// it instead.
	IsTransient func(error) bool

	// Test hooks; nil means the real thing.
	sleep  func(context.Context, time.Duration) error
	random func() float64
	now    func() time.Time
}

// IsTransient reports whether a failure may succeed if tried again: this is
// the predicate [Retry] uses by default.
//
// An [*Error] in err's chain whose data has a boolean "retryable" key decides
// by that flag, either way: the contract entry that raised it knows better
// than a code does, so retryable: false fails fast even for a
// ServiceUnavailable, and retryable: true retries even a Conflict. Otherwise
// the failure is transient when its code, as [CodeOf] gives it, is, see
// [Code.Transient]: ServiceUnavailable, Timeout or RateLimited. An error
// that classifies as InternalError is not retried: it is most likely a bug.
func IsTransient(err error) bool {
	if err == nil {
		return false
	}
	if e := errorIn(err); e != nil {
		if r, ok := e.data["retryable"].(bool); ok {
			return r
		}
	}
	return CodeOf(err).Transient()
}

// Retry calls fn until it succeeds, fails with an error that is not transient
// (see [RetryOptions.IsTransient]), or has been called MaxRetries+1 times,
// waiting between attempts; it returns fn's value on success.
//
// The wait before retry n (from 0) is min(BaseDelay·2ⁿ, MaxDelay), jittered,
// unless the failure's [*Error] has a "retryAfter" data key (as
// [FromResponse] sets from the Retry-After header): a number of seconds, a
// string of decimal digits, an HTTP date, or a [time.Duration]. Then Retry waits exactly that
// long, or, if that is longer than MaxDelay, gives up at once.
//
// What Retry returns on failure:
//
//   - an error that is not transient, or whose Retry-After is beyond
//     MaxDelay: fn's error, unchanged;
//   - when the attempts run out: an [*Error] with the code of fn's last
//     error, its message followed by " (failed after N attempts)", or by
//     " Failed after N attempts." when it ends a sentence ("Unavailable."
//     becomes "Unavailable. Failed after 3 attempts."), its data
//     plus "retryAttempts": N and, when Operation is set, "operation", and
//     fn's last error as its cause;
//   - when ctx is done before an attempt or during a wait: an [*Error] with
//     the code [CodeOf] gives ctx.Err() (RequestCancelled or Timeout), the
//     message "context canceled (retry stopped after N attempts)" or the
//     like, data "retryAttempts" and "operation", and a cause that joins
//     ctx.Err() and fn's last error, so that errors.Is finds both. Retry
//     does not call fn at all when ctx is done on entry, and returns at once
//     when ctx is done while it waits.
func Retry[T any](ctx context.Context, opts RetryOptions, fn func(context.Context) (T, error)) (T, error) {
	r := opts.withDefaults()
	if r.Logger == nil {
		r.Logger, _ = loggerFor(ctx)
	}
	var zero T
	var last error
	for attempt := 0; ; attempt++ {
		if ctx.Err() != nil {
			return zero, stoppedError(ctx, last, attempt, opts.Operation)
		}
		v, err := fn(ctx)
		if err == nil {
			return v, nil
		}
		last = err
		if !r.IsTransient(err) {
			return zero, err
		}
		wait, fromHeader := retryAfter(err, r.now)
		if fromHeader && wait > r.MaxDelay {
			if r.Logger.Enabled(ctx, slog.LevelDebug) {
				r.debug(ctx, "Retry-After of "+formatDelay(wait)+" exceeds the maximum delay of "+
					formatDelay(r.MaxDelay)+" for "+r.Operation+"; not retrying", err)
			}
			return zero, err
		}
		if attempt >= r.MaxRetries {
			return zero, exhaustedError(err, attempt+1, opts.Operation)
		}
		delay := wait
		if !fromHeader {
			delay = r.backoff(attempt)
		}
		if r.Logger.Enabled(ctx, slog.LevelDebug) {
			msg := "Retry " + strconv.Itoa(attempt+1) + "/" + strconv.Itoa(r.MaxRetries) +
				" for " + r.Operation + ": " + err.Error() + " — waiting " + formatDelay(delay)
			if fromHeader {
				msg += " (Retry-After)"
			}
			r.debug(ctx, msg, err,
				slog.Int("attempt", attempt+1),
				slog.Int("maxRetries", r.MaxRetries),
				slog.Duration("delay", delay),
				slog.Bool("retryAfter", fromHeader))
		}
		if r.sleep(ctx, delay) != nil {
			return zero, stoppedError(ctx, last, attempt+1, opts.Operation)
		}
	}
}

// withDefaults returns the options with every default filled in.
func (o RetryOptions) withDefaults() RetryOptions {
	switch {
	case o.MaxRetries == 0:
		o.MaxRetries = DefaultMaxRetries
	case o.MaxRetries < 0:
		o.MaxRetries = 0
	}
	if o.BaseDelay <= 0 {
		o.BaseDelay = DefaultBaseDelay
	}
	if o.MaxDelay <= 0 {
		o.MaxDelay = DefaultMaxDelay
	}
	switch {
	case o.Jitter == 0:
		o.Jitter = DefaultJitter
	case o.Jitter < 0 || math.IsNaN(o.Jitter):
		o.Jitter = 0
	case o.Jitter > 1:
		o.Jitter = 1
	}
	if o.Operation == "" {
		o.Operation = "operation"
	}
	if o.IsTransient == nil {
		o.IsTransient = IsTransient
	}
	if o.sleep == nil {
		o.sleep = sleep
	}
	if o.random == nil {
		o.random = rand.Float64
	}
	if o.now == nil {
		o.now = time.Now
	}
	return o
}

// backoff returns the jittered delay before retry n (from 0).
func (o *RetryOptions) backoff(n int) time.Duration {
	d := o.BaseDelay
	for i := 0; i < n && d < o.MaxDelay; i++ {
		if d > o.MaxDelay/2 {
			d = o.MaxDelay
			break
		}
		d *= 2
	}
	d = min(d, o.MaxDelay)
	if o.Jitter == 0 {
		return d
	}
	f := float64(d) * (1 - o.Jitter + o.random()*2*o.Jitter)
	if f >= math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(f)
}

// debug logs a debug record about err.
func (o *RetryOptions) debug(ctx context.Context, msg string, err error, attrs ...slog.Attr) {
	attrs = append([]slog.Attr{
		slog.String("operation", o.Operation),
		slog.Int("code", int(CodeOf(err))),
	}, attrs...)
	o.Logger.LogAttrs(ctx, slog.LevelDebug, msg, attrs...)
}

// sleep waits for d or until ctx is done, whichever comes first, and returns
// ctx.Err() in the latter case.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// parseRetryAfter reads a Retry-After header value: delta-seconds or an
// HTTP date (a date in the past is a wait of 0). A wait too long for a
// Duration comes back as the longest Duration.
func parseRetryAfter(s string, now time.Time) (time.Duration, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false
	}
	if strings.Trim(s, "0123456789") == "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil { // out of range: longer than any cap
			return math.MaxInt64, true
		}
		return seconds(float64(n)), true
	}
	t, err := http.ParseTime(s)
	if err != nil {
		return 0, false
	}
	return max(t.Sub(now), 0), true
}

// retryAfter returns the wait asked for by the "retryAfter" data key of the
// *Error in err's chain, and whether there was a usable one. A wait too long
// for a Duration comes back as the longest Duration.
func retryAfter(err error, now func() time.Time) (time.Duration, bool) {
	e := errorIn(err)
	if e == nil {
		return 0, false
	}
	v, ok := e.data["retryAfter"]
	if !ok || v == nil {
		return 0, false
	}
	if s, ok := v.(string); ok {
		return parseRetryAfter(s, now())
	}
	if d, ok := v.(time.Duration); ok {
		return max(d, 0), true
	}
	if n, ok := v.(interface{ Float64() (float64, error) }); ok { // json.Number
		f, err := n.Float64()
		if err != nil || f < 0 || math.IsNaN(f) {
			return 0, false
		}
		return seconds(f), true
	}
	rv := reflect.ValueOf(v)
	var f float64
	switch {
	case rv.CanInt():
		f = float64(rv.Int())
	case rv.CanUint():
		f = float64(rv.Uint())
	case rv.CanFloat():
		f = rv.Float()
	default:
		return 0, false
	}
	if f < 0 || math.IsNaN(f) {
		return 0, false
	}
	return seconds(f), true
}

// seconds converts a non-negative number of seconds to a Duration,
// saturating at the longest Duration.
func seconds(s float64) time.Duration {
	ns := s * float64(time.Second)
	if ns >= math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(ns)
}

// formatDelay renders a delay for a log message, to the millisecond.
func formatDelay(d time.Duration) string {
	if d >= time.Millisecond {
		d = d.Round(time.Millisecond)
	}
	return d.String()
}

// attempts renders "N attempt" or "N attempts".
func attempts(n int) string {
	if n == 1 {
		return "1 attempt"
	}
	return strconv.Itoa(n) + " attempts"
}

// exhaustedError is what Retry returns when the attempts run out.
func exhaustedError(last error, n int, op string) *Error {
	e := From(last)
	msg := withAttempts(e.Message(), n)
	data := make(map[string]any, len(e.Data())+2)
	maps.Copy(data, e.Data())
	data["retryAttempts"] = n
	if op != "" {
		data["operation"] = op
	}
	return New(e.Code(), msg, WithData(data), WithCause(last))
}

// withAttempts adds to msg, a message meant for the client, how many
// attempts failed, so that it still reads as prose: a message that ends a
// sentence ("Unavailable.") gets a sentence of its own ("Unavailable.
// Failed after 3 attempts."), one that does not ("connection refused") a
// parenthesis ("connection refused (failed after 3 attempts)"), and an
// empty one just the sentence.
func withAttempts(msg string, n int) string {
	switch {
	case msg == "":
		return "Failed after " + attempts(n) + "."
	case strings.HasSuffix(msg, ".") || strings.HasSuffix(msg, "!") || strings.HasSuffix(msg, "?"):
		return msg + " Failed after " + attempts(n) + "."
	}
	return msg + " (failed after " + attempts(n) + ")"
}

// stoppedError is what Retry returns when ctx is done after n attempts, the
// last of which failed with last (nil when n is 0).
func stoppedError(ctx context.Context, last error, n int, op string) *Error {
	cerr := ctx.Err()
	if n == 0 || last == nil {
		return New(CodeOf(cerr), cerr.Error(), WithCause(cerr))
	}
	data := map[string]any{"retryAttempts": n}
	if op != "" {
		data["operation"] = op
	}
	return New(CodeOf(cerr), cerr.Error()+" (retry stopped after "+attempts(n)+")",
		WithData(data), WithCause(errors.Join(cerr, last)))
}
