package mcperr

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"
)

// fakeClock records the waits of Retry instead of sleeping.
type fakeClock struct {
	waits []time.Duration
}

func (c *fakeClock) sleep(ctx context.Context, d time.Duration) error {
	c.waits = append(c.waits, d)
	return ctx.Err()
}

// script returns a fn for Retry that fails with errs in turn and then
// succeeds with "ok", and a pointer to its call count.
func script(errs ...error) (func(context.Context) (string, error), *int) {
	calls := 0
	return func(context.Context) (string, error) {
		calls++
		if calls <= len(errs) {
			return "", errs[calls-1]
		}
		return "ok", nil
	}, &calls
}

func TestRetryTransientThenSuccess(t *testing.T) {
	logger, records := captureLogger(t)
	clock := &fakeClock{}
	fn, calls := script(ServiceUnavailable("upstream unavailable"), Timeout("request timed out"))
	got, err := Retry(context.Background(), RetryOptions{
		MaxRetries: 2, BaseDelay: 10 * time.Millisecond, Jitter: NoJitter,
		Operation: "fetchStudy", Logger: logger, sleep: clock.sleep,
	}, fn)
	if got != "ok" || err != nil {
		t.Fatalf("Retry = %q, %v; want ok, nil", got, err)
	}
	if *calls != 3 {
		t.Errorf("calls = %d, want 3", *calls)
	}
	if want := []time.Duration{10 * time.Millisecond, 20 * time.Millisecond}; !reflect.DeepEqual(clock.waits, want) {
		t.Errorf("waits = %v, want %v", clock.waits, want)
	}
	recs := records()
	var msgs []string
	for _, r := range recs {
		if r["level"] != "DEBUG" {
			t.Errorf("level = %v, want DEBUG", r["level"])
		}
		msgs = append(msgs, r["msg"].(string))
	}
	want := []string{
		"Retry 1/2 for fetchStudy: upstream unavailable — waiting 10ms",
		"Retry 2/2 for fetchStudy: request timed out — waiting 20ms",
	}
	if !reflect.DeepEqual(msgs, want) {
		t.Errorf("log messages = %q\nwant %q", msgs, want)
	}
	if len(recs) == 2 && (recs[0]["attempt"] != float64(1) || recs[0]["operation"] != "fetchStudy" || recs[0]["retryAfter"] != false) {
		t.Errorf("record attrs = %v", recs[0])
	}
}

func TestRetryExhausted(t *testing.T) {
	clock := &fakeClock{}
	orig := ServiceUnavailable("service still unavailable", WithData(map[string]any{"upstream": "catalog"}))
	fn, calls := script(orig, orig, orig)
	_, err := Retry(context.Background(), RetryOptions{
		MaxRetries: 1, BaseDelay: time.Millisecond, Operation: "syncCatalog", sleep: clock.sleep,
	}, fn)
	if *calls != 2 {
		t.Errorf("calls = %d, want 2", *calls)
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %#v, want *Error", err)
	}
	if e == orig {
		t.Fatal("got the original error, want a new one")
	}
	if e.Code() != CodeServiceUnavailable {
		t.Errorf("code = %v", e.Code())
	}
	if want := "service still unavailable (failed after 2 attempts)"; e.Message() != want {
		t.Errorf("message = %q, want %q", e.Message(), want)
	}
	if want := map[string]any{"upstream": "catalog", "retryAttempts": 2, "operation": "syncCatalog"}; !reflect.DeepEqual(e.Data(), want) {
		t.Errorf("data = %v, want %v", e.Data(), want)
	}
	if e.Cause() != orig {
		t.Errorf("cause = %v, want the original", e.Cause())
	}
	if want := map[string]any{"upstream": "catalog"}; !reflect.DeepEqual(orig.Data(), want) {
		t.Errorf("original data modified: %v", orig.Data())
	}
	if len(clock.waits) != 1 {
		t.Errorf("waits = %v, want one", clock.waits)
	}
}

func TestRetryExhaustedSingleAttempt(t *testing.T) {
	clock := &fakeClock{}
	plain := errors.New("connection refused")
	fn, calls := script(plain)
	_, err := Retry(context.Background(), RetryOptions{
		MaxRetries:  NoRetries,
		IsTransient: func(error) bool { return true },
		sleep:       clock.sleep,
	}, fn)
	if *calls != 1 || len(clock.waits) != 0 {
		t.Errorf("calls = %d, waits = %v; want 1 call, no wait", *calls, clock.waits)
	}
	e := From(err)
	if want := "connection refused (failed after 1 attempt)"; e.Message() != want {
		t.Errorf("message = %q, want %q", e.Message(), want)
	}
	if want := map[string]any{"retryAttempts": 1}; !reflect.DeepEqual(e.Data(), want) {
		t.Errorf("data = %v, want %v (no operation when unset)", e.Data(), want)
	}
	if e.Code() != CodeOf(plain) || e.Cause() != plain {
		t.Errorf("code %v cause %v", e.Code(), e.Cause())
	}

	// The count reads as prose after any message: a sentence after one
	// that ends a sentence, a parenthesis otherwise, and a sentence alone
	// after an empty one.
	for msg, want := range map[string]string{
		"":                 "Failed after 1 attempt.",
		"Unavailable.":     "Unavailable. Failed after 1 attempt.",
		"Is it down?":      "Is it down? Failed after 1 attempt.",
		"Down!":            "Down! Failed after 1 attempt.",
		"upstream timeout": "upstream timeout (failed after 1 attempt)",
	} {
		fn, _ = script(New(CodeTimeout, msg))
		_, err = Retry(context.Background(), RetryOptions{MaxRetries: NoRetries, sleep: clock.sleep}, fn)
		if got := From(err).Message(); got != want {
			t.Errorf("message %q: after the attempts %q, want %q", msg, got, want)
		}
	}
}

func TestRetryFailFast(t *testing.T) {
	tests := []struct {
		name string
		err  error
	}{
		{"non-transient code", Forbidden("no access")},
		{"plain error", errors.New("nil pointer somewhere")},
		{"retryable false", ServiceUnavailable("down", WithData(map[string]any{"retryable": false}))},
		{"wrapped retryable false", fmt.Errorf("calling: %w", RateLimited("slow", WithData(map[string]any{"retryable": false})))},
		{"Retry-After beyond the cap", RateLimited("slow", WithData(map[string]any{"retryAfter": "3600"}))},
		{"Retry-After too big for a Duration", RateLimited("slow", WithData(map[string]any{"retryAfter": "99999999999999999999999"}))},
		{"numeric Retry-After beyond the cap", RateLimited("slow", WithData(map[string]any{"retryAfter": 31}))},
		{"cancelled", fmt.Errorf("query: %w", context.Canceled)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := &fakeClock{}
			fn, calls := script(tt.err, tt.err, tt.err)
			_, err := Retry(context.Background(), RetryOptions{MaxDelay: 30 * time.Second, sleep: clock.sleep}, fn)
			if *calls != 1 || len(clock.waits) != 0 {
				t.Errorf("calls = %d, waits = %v; want 1 call, no wait", *calls, clock.waits)
			}
			if err != tt.err {
				t.Errorf("err = %v, want the original error unchanged", err)
			}
		})
	}
}

func TestRetryRetryableTrue(t *testing.T) {
	clock := &fakeClock{}
	fn, calls := script(Conflict("version moved", WithData(map[string]any{"retryable": true})))
	got, err := Retry(context.Background(), RetryOptions{sleep: clock.sleep}, fn)
	if got != "ok" || err != nil || *calls != 2 {
		t.Errorf("Retry = %q, %v after %d calls; want ok after 2", got, err, *calls)
	}
}

func TestRetryCustomPredicate(t *testing.T) {
	clock := &fakeClock{}
	errFlaky := errors.New("flaky")
	// Replaces the default entirely: the retryable flag no longer counts.
	fn, calls := script(
		ServiceUnavailable("down", WithData(map[string]any{"retryable": false})),
		errFlaky,
	)
	got, err := Retry(context.Background(), RetryOptions{
		IsTransient: func(err error) bool {
			return IsTransient(err) || errors.Is(err, errFlaky) || CodeOf(err) == CodeServiceUnavailable
		},
		sleep: clock.sleep,
	}, fn)
	if got != "ok" || err != nil || *calls != 3 {
		t.Errorf("Retry = %q, %v after %d calls; want ok after 3", got, err, *calls)
	}

	fn, calls = script(ServiceUnavailable("down"))
	_, err = Retry(context.Background(), RetryOptions{IsTransient: func(error) bool { return false }, sleep: clock.sleep}, fn)
	if *calls != 1 || CodeOf(err) != CodeServiceUnavailable {
		t.Errorf("calls = %d err = %v; want 1 call", *calls, err)
	}
}

func TestRetryAfterHonoured(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name       string
		retryAfter any
		want       time.Duration
		fromHeader bool
	}{
		{"digits", "5", 5 * time.Second, true},
		{"padded digits", " 7 ", 7 * time.Second, true},
		{"zero", "0", 0, true},
		{"int", 2, 2 * time.Second, true},
		{"int64", int64(3), 3 * time.Second, true},
		{"uint", uint(4), 4 * time.Second, true},
		{"float", 1.5, 1500 * time.Millisecond, true},
		{"json.Number", jsonNumber("2.5"), 2500 * time.Millisecond, true},
		{"Duration", 750 * time.Millisecond, 750 * time.Millisecond, true},
		{"HTTP date", now.Add(10 * time.Second).Format(http.TimeFormat), 10 * time.Second, true},
		{"HTTP date in the past", now.Add(-time.Hour).Format(http.TimeFormat), 0, true},
		{"unparseable", "soon", time.Second, false},
		{"negative", -3, time.Second, false},
		{"negative string", "-3", time.Second, false},
		{"empty", "", time.Second, false},
		{"bool", true, time.Second, false},
		{"NaN", math.NaN(), time.Second, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			logger, records := captureLogger(t)
			clock := &fakeClock{}
			fn, calls := script(RateLimited("slow down", WithData(map[string]any{"retryAfter": tt.retryAfter})))
			got, err := Retry(context.Background(), RetryOptions{
				Jitter: NoJitter, Operation: "op", Logger: logger,
				sleep: clock.sleep, now: func() time.Time { return now },
			}, fn)
			if got != "ok" || err != nil || *calls != 2 {
				t.Fatalf("Retry = %q, %v after %d calls", got, err, *calls)
			}
			if len(clock.waits) != 1 || clock.waits[0] != tt.want {
				t.Errorf("waits = %v, want [%v]", clock.waits, tt.want)
			}
			msg := oneRecord(t, records)["msg"].(string)
			if strings.HasSuffix(msg, " (Retry-After)") != tt.fromHeader {
				t.Errorf("msg = %q, want Retry-After suffix %v", msg, tt.fromHeader)
			}
		})
	}
}

// jsonNumber is a stand-in for json.Number (a string with Float64), as
// found in data decoded with UseNumber.
type jsonNumber string

func (n jsonNumber) Float64() (float64, error) {
	var f float64
	_, err := fmt.Sscan(string(n), &f)
	return f, err
}

func TestRetryLogRetryAfter(t *testing.T) {
	logger, records := captureLogger(t)
	clock := &fakeClock{}
	fn, _ := script(RateLimited("slow down", WithData(map[string]any{"retryAfter": "5"})))
	_, _ = Retry(context.Background(), RetryOptions{MaxRetries: 3, Operation: "search", Logger: logger, sleep: clock.sleep}, fn)
	if want := "Retry 1/3 for search: slow down — waiting 5s (Retry-After)"; oneRecord(t, records)["msg"] != want {
		t.Errorf("msg = %v, want %q", records()[0]["msg"], want)
	}
}

func TestRetryFromResponseRetryAfter(t *testing.T) {
	hits := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits++
		if hits == 1 {
			w.Header().Set("Retry-After", "2")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		io.WriteString(w, "done")
	}))
	defer srv.Close()

	clock := &fakeClock{}
	got, err := Retry(context.Background(), RetryOptions{sleep: clock.sleep}, func(ctx context.Context) (string, error) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
		resp, err := srv.Client().Do(req)
		if err != nil {
			return "", err
		}
		if resp.StatusCode != http.StatusOK {
			return "", FromResponse(resp, WithService("upstream"))
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return string(b), err
	})
	if got != "done" || err != nil {
		t.Fatalf("Retry = %q, %v", got, err)
	}
	if want := []time.Duration{2 * time.Second}; !reflect.DeepEqual(clock.waits, want) {
		t.Errorf("waits = %v, want %v", clock.waits, want)
	}
}

func TestRetryContextCancelledDuringWait(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	orig := ServiceUnavailable("upstream unavailable", WithData(map[string]any{"upstream": "x"}))
	calls := 0
	start := time.Now()
	_, err := Retry(ctx, RetryOptions{BaseDelay: time.Hour, MaxDelay: time.Hour, Operation: "op"},
		func(context.Context) (int, error) {
			calls++
			time.AfterFunc(5*time.Millisecond, cancel)
			return 0, orig
		})
	if elapsed := time.Since(start); elapsed > 2*time.Second {
		t.Fatalf("Retry returned after %v; want promptly on cancellation", elapsed)
	}
	if calls != 1 {
		t.Errorf("calls = %d, want 1", calls)
	}
	e := From(err)
	if e.Code() != CodeRequestCancelled {
		t.Errorf("code = %v, want RequestCancelled", e.Code())
	}
	if want := "context canceled (retry stopped after 1 attempt)"; e.Message() != want {
		t.Errorf("message = %q, want %q", e.Message(), want)
	}
	if !errors.Is(err, context.Canceled) || !errors.Is(err, orig) {
		t.Errorf("errors.Is(err, context.Canceled) = %v, errors.Is(err, last) = %v; want both",
			errors.Is(err, context.Canceled), errors.Is(err, orig))
	}
	if want := map[string]any{"retryAttempts": 1, "operation": "op"}; !reflect.DeepEqual(e.Data(), want) {
		t.Errorf("data = %v, want %v", e.Data(), want)
	}
}

func TestRetryDeadlineDuringWait(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	calls := 0
	_, err := Retry(ctx, RetryOptions{BaseDelay: time.Hour, MaxDelay: time.Hour, MaxRetries: 2},
		func(context.Context) (int, error) { calls++; return 0, Timeout("slow") })
	if calls != 1 {
		t.Errorf("calls = %d, want 1", calls)
	}
	if CodeOf(err) != CodeTimeout || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v (%v), want a Timeout wrapping DeadlineExceeded", err, CodeOf(err))
	}
	if want := "context deadline exceeded (retry stopped after 1 attempt)"; From(err).Message() != want {
		t.Errorf("message = %q, want %q", From(err).Message(), want)
	}
}

func TestRetryContextDoneBeforeFirstAttempt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	calls := 0
	_, err := Retry(ctx, RetryOptions{}, func(context.Context) (int, error) { calls++; return 1, nil })
	if calls != 0 {
		t.Errorf("calls = %d, want 0", calls)
	}
	e := From(err)
	if e.Code() != CodeRequestCancelled || e.Message() != "context canceled" || !errors.Is(err, context.Canceled) || e.Data() != nil {
		t.Errorf("err = %v %q data %v", e.Code(), e.Message(), e.Data())
	}
}

func TestRetryContextDoneBetweenAttempts(t *testing.T) {
	// The clock hook returns nil, so Retry sees the cancellation at its
	// check before the next attempt.
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	_, err := Retry(ctx, RetryOptions{sleep: func(context.Context, time.Duration) error { return nil }},
		func(context.Context) (int, error) {
			calls++
			if calls == 2 {
				cancel()
			}
			return 0, Timeout("slow")
		})
	if calls != 2 {
		t.Errorf("calls = %d, want 2", calls)
	}
	if want := "context canceled (retry stopped after 2 attempts)"; From(err).Message() != want {
		t.Errorf("message = %q, want %q", From(err).Message(), want)
	}
}

func TestRetryDefaults(t *testing.T) {
	clock := &fakeClock{}
	fn, calls := script(Timeout("t"), Timeout("t"), Timeout("t"), Timeout("t"), Timeout("t"))
	_, err := Retry(context.Background(), RetryOptions{sleep: clock.sleep}, fn)
	if *calls != DefaultMaxRetries+1 {
		t.Errorf("calls = %d, want %d", *calls, DefaultMaxRetries+1)
	}
	if want := "t (failed after 4 attempts)"; From(err).Message() != want {
		t.Errorf("message = %q, want %q", From(err).Message(), want)
	}
	for i, w := range clock.waits {
		d := DefaultBaseDelay << i
		lo := time.Duration(float64(d) * (1 - DefaultJitter))
		hi := time.Duration(float64(d) * (1 + DefaultJitter))
		if w < lo || w > hi {
			t.Errorf("wait %d = %v, want within [%v, %v]", i, w, lo, hi)
		}
	}
	if len(clock.waits) != 3 {
		t.Errorf("waits = %v, want 3", clock.waits)
	}
}

func TestRetryBackoff(t *testing.T) {
	o := RetryOptions{BaseDelay: time.Second, MaxDelay: 30 * time.Second, Jitter: NoJitter}.withDefaults()
	want := []time.Duration{1, 2, 4, 8, 16, 30, 30, 30}
	for n, w := range want {
		if got := o.backoff(n); got != w*time.Second {
			t.Errorf("backoff(%d) = %v, want %v", n, got, w*time.Second)
		}
	}
	if got := o.backoff(1000); got != 30*time.Second {
		t.Errorf("backoff(1000) = %v, want the cap", got)
	}
	huge := RetryOptions{BaseDelay: time.Duration(math.MaxInt64 / 3), MaxDelay: time.Duration(math.MaxInt64), Jitter: NoJitter}.withDefaults()
	if got := huge.backoff(5); got != time.Duration(math.MaxInt64) {
		t.Errorf("backoff near overflow = %v", got)
	}
	if got := huge.backoff(0); got != time.Duration(math.MaxInt64/3) {
		t.Errorf("backoff(0) = %v", got)
	}
}

func TestRetryJitterBounds(t *testing.T) {
	tests := []struct {
		jitter    float64
		random    float64
		want      time.Duration
		effective float64
	}{
		{0, 0, 750 * time.Millisecond, DefaultJitter},
		{0, 0.5, time.Second, DefaultJitter},
		{0, 1, 1250 * time.Millisecond, DefaultJitter},
		{0.5, 0, 500 * time.Millisecond, 0.5},
		{0.5, 1, 1500 * time.Millisecond, 0.5},
		{-1, 0, time.Second, 0},
		{-1, 1, time.Second, 0},
		{7, 0, 0, 1},
		{7, 1, 2 * time.Second, 1},
		{math.NaN(), 1, time.Second, 0},
	}
	for _, tt := range tests {
		o := RetryOptions{BaseDelay: time.Second, Jitter: tt.jitter, random: func() float64 { return tt.random }}.withDefaults()
		if o.Jitter != tt.effective && !(math.IsNaN(o.Jitter) && math.IsNaN(tt.effective)) {
			t.Errorf("Jitter %v: effective %v, want %v", tt.jitter, o.Jitter, tt.effective)
		}
		if got := o.backoff(0); got != tt.want {
			t.Errorf("Jitter %v, random %v: backoff = %v, want %v", tt.jitter, tt.random, got, tt.want)
		}
	}

	// With the real source, every delay stays within the bounds.
	o := RetryOptions{BaseDelay: 100 * time.Millisecond, MaxDelay: time.Second}.withDefaults()
	for n := range 6 {
		d := min(100*time.Millisecond<<n, time.Second)
		lo, hi := time.Duration(float64(d)*0.75), time.Duration(float64(d)*1.25)
		for range 200 {
			if got := o.backoff(n); got < lo || got > hi {
				t.Fatalf("backoff(%d) = %v, want within [%v, %v]", n, got, lo, hi)
			}
		}
	}
}

func TestIsTransient(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"ServiceUnavailable", ServiceUnavailable("x"), true},
		{"Timeout", Timeout("x"), true},
		{"RateLimited", RateLimited("x"), true},
		{"NotFound", NotFound("x"), false},
		{"InternalError", InternalError("x"), false},
		{"plain", errors.New("x"), false},
		{"deadline", context.DeadlineExceeded, true},
		{"canceled", context.Canceled, false},
		{"retryable false", Timeout("x", WithData(map[string]any{"retryable": false})), false},
		{"retryable true", Conflict("x", WithData(map[string]any{"retryable": true})), true},
		{"retryable not a bool", Conflict("x", WithData(map[string]any{"retryable": "yes"})), false},
		{"wrapped", fmt.Errorf("a: %w", RateLimited("x")), true},
		{"coder", quotaError{}, true},
	}
	for _, tt := range tests {
		if got := IsTransient(tt.err); got != tt.want {
			t.Errorf("%s: IsTransient = %v, want %v", tt.name, got, tt.want)
		}
	}
}

type quotaError struct{}

func (quotaError) Error() string   { return "quota" }
func (quotaError) ErrorCode() Code { return CodeRateLimited }

func TestSleep(t *testing.T) {
	if err := sleep(context.Background(), 0); err != nil {
		t.Errorf("sleep(0) = %v", err)
	}
	if err := sleep(context.Background(), time.Millisecond); err != nil {
		t.Errorf("sleep(1ms) = %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(5*time.Millisecond, cancel)
	start := time.Now()
	if err := sleep(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("sleep after cancel = %v", err)
	}
	if time.Since(start) > 2*time.Second {
		t.Error("sleep did not stop on cancellation")
	}
	if err := sleep(ctx, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("sleep(0) on a done context = %v", err)
	}
}

func TestFormatDelay(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0:                                     "0s",
		500 * time.Microsecond:                "500µs",
		10 * time.Millisecond:                 "10ms",
		1234567 * time.Microsecond:            "1.235s",
		5 * time.Second:                       "5s",
		90*time.Second + 400*time.Microsecond: "1m30s",
	} {
		if got := formatDelay(d); got != want {
			t.Errorf("formatDelay(%v) = %q, want %q", d, got, want)
		}
	}
}

// The zero value means the defaults; "none" has names of its own.
func TestRetryNamedNones(t *testing.T) {
	if o := (RetryOptions{}).withDefaults(); o.MaxRetries != DefaultMaxRetries || o.Jitter != DefaultJitter {
		t.Errorf("zero options: MaxRetries %d Jitter %v, want the defaults %d %v", o.MaxRetries, o.Jitter, DefaultMaxRetries, DefaultJitter)
	}
	if o := (RetryOptions{MaxRetries: NoRetries, Jitter: NoJitter}).withDefaults(); o.MaxRetries != 0 || o.Jitter != 0 {
		t.Errorf("NoRetries, NoJitter: MaxRetries %d Jitter %v, want 0 0", o.MaxRetries, o.Jitter)
	}
	fn, calls := script(ServiceUnavailable("down"), ServiceUnavailable("down"))
	clock := &fakeClock{}
	if _, err := Retry(context.Background(), RetryOptions{MaxRetries: NoRetries, sleep: clock.sleep}, fn); err == nil || *calls != 1 {
		t.Errorf("NoRetries: %d calls (err %v), want 1", *calls, err)
	}
}
