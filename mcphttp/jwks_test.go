package mcphttp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The tests of the OAuth key cache drive an issuer that is slow, hung,
// down or oversized, and wait for outcomes with generous bounds: nothing
// here asserts how long anything took.

// patience bounds every wait of these tests; reaching it fails the test.
const patience = 20 * time.Second

// eventually polls cond until it holds, or fails the test after patience.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(patience); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("still not %s after %v", what, patience)
		}
	}
}

// holds reports whether the cache holds a key with kid.
func (c *jwksCache) holds(kid string) bool {
	ks := c.keys.Load()
	if ks == nil {
		return false
	}
	_, ok := ks.byKID[kid]
	return ok
}

// records is a slog handler that keeps what is logged, for the tests.
type records struct {
	mu   sync.Mutex
	msgs []string
}

func (r *records) Enabled(context.Context, slog.Level) bool { return true }
func (r *records) WithAttrs([]slog.Attr) slog.Handler       { return r }
func (r *records) WithGroup(string) slog.Handler            { return r }
func (r *records) Handle(_ context.Context, rec slog.Record) error {
	line := rec.Level.String() + " " + rec.Message
	rec.Attrs(func(a slog.Attr) bool { line += " " + a.String(); return true })
	r.mu.Lock()
	defer r.mu.Unlock()
	r.msgs = append(r.msgs, line)
	return nil
}

// count is the number of records whose line holds each of parts.
func (r *records) count(parts ...string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, m := range r.msgs {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(m, p)
		}
		if all {
			n++
		}
	}
	return n
}

func oauthConfig(is *issuer) AuthConfig {
	return AuthConfig{Mode: AuthOAuth, Issuer: testIssuer, Audience: testResource, JWKSURI: is.srv.URL}
}

// TestSlowIssuerIsRefetched checks that a rotated key is fetched on demand
// from an issuer that answers in 0.4 s, which the 250 ms deadline of
// keyfunc's refresh never let finish.
func TestSlowIssuerIsRefetched(t *testing.T) {
	t.Parallel()
	is := newIssuer(t)
	is.set(func(is *issuer) { is.delay = 400 * time.Millisecond })
	h, a := surfaceWith(t, oauthConfig(is), jwksOptions{}, nil)
	if got := post(h, is.sign(goodClaims(nil))); got.status != 200 {
		t.Fatalf("first key: HTTP %d %s", got.status, got.body)
	}
	is.rotate("k2")
	if got := post(h, is.sign(goodClaims(nil))); got.status != 200 {
		t.Fatalf("the rotated key, from a slow issuer: HTTP %d %s", got.status, got.body)
	}
	if !a.keys.holds("k2") {
		t.Error("the cache does not hold the rotated key")
	}
}

// TestHungUpClientDoesNotCancelTheFetch checks that a client that sends a
// token with a new key id and hangs up does not end the fetch its token
// caused: the fetch goes on, and the next request with the new key passes
// without another fetch.
func TestHungUpClientDoesNotCancelTheFetch(t *testing.T) {
	t.Parallel()
	is := newIssuer(t)
	h, a := surfaceWith(t, oauthConfig(is), jwksOptions{}, nil)
	eventually(t, "holding the first key", func() bool { return a.keys.holds("k1") })
	is.rotate("k2")
	gate := make(chan struct{})
	is.set(func(is *issuer) { is.gate = gate })
	hits := issuerRead(is, func(is *issuer) int { return is.hits })
	token := is.sign(goodClaims(nil))

	ctx, hangUp := context.WithCancel(context.Background())
	answered := make(chan exchange)
	go func() { answered <- postCtx(ctx, h, token) }()
	eventually(t, "asking the issuer", func() bool { return issuerRead(is, func(is *issuer) int { return is.hits }) > hits })
	hangUp()
	if got := <-answered; got.status != 401 {
		t.Errorf("the request that hung up: HTTP %d %s", got.status, got.body)
	}
	close(gate) // the issuer answers the fetch the hung-up request caused
	if got := post(h, token); got.status != 200 {
		t.Fatalf("the next request with the new key: HTTP %d %s", got.status, got.body)
	}
	if n := issuerRead(is, func(is *issuer) int { return is.hits }) - hits; n != 1 {
		t.Errorf("%d fetches for the new key, want 1", n)
	}
}

// TestOneFetchAtATime checks that many requests with the same unknown key
// id cause one fetch, and made-up key ids at most one per interval.
func TestOneFetchAtATime(t *testing.T) {
	t.Parallel()
	is := newIssuer(t)
	h, a := surfaceWith(t, oauthConfig(is), jwksOptions{unknownWait: 50 * time.Millisecond, unknownInterval: time.Hour}, nil)
	eventually(t, "holding the first key", func() bool { return a.keys.holds("k1") })
	is.rotate("k2")
	gate := make(chan struct{})
	is.set(func(is *issuer) { is.gate = gate })
	hits := issuerRead(is, func(is *issuer) int { return is.hits })
	token := is.sign(goodClaims(nil))
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() { post(h, token) })
	}
	wg.Wait() // each waited 50 ms, and was refused
	close(gate)
	eventually(t, "holding the new key", func() bool { return a.keys.holds("k2") })
	if got := post(h, token); got.status != 200 {
		t.Errorf("the new key: HTTP %d %s", got.status, got.body)
	}
	// Made-up key ids (the issuer signs with k2 under each, and would
	// publish it if asked): the interval's one fetch was spent on k2.
	for i := range 20 {
		is.set(func(is *issuer) {
			is.keys[fmt.Sprintf("made-up-%d", i)], is.kid = is.keys["k2"], fmt.Sprintf("made-up-%d", i)
		})
		if got := post(h, is.sign(goodClaims(nil))); got.status != 401 {
			t.Errorf("made-up kid %d: HTTP %d", i, got.status)
		}
	}
	if n := issuerRead(is, func(is *issuer) int { return is.hits }) - hits; n != 1 {
		t.Errorf("the issuer was asked %d times for 20 concurrent and 20 made-up key ids, want 1", n)
	}
}

// TestIssuerDownAtStart checks that an issuer down at start is retried
// in the background, soon rather than at the hourly refresh, that tokens
// are refused meanwhile with a reason that says so, and that the failure
// is logged once however many retries fail.
func TestIssuerDownAtStart(t *testing.T) {
	t.Parallel()
	is := newIssuer(t)
	is.set(func(is *issuer) { is.status = 503 })
	log := &records{}
	h, a := surfaceWith(t, oauthConfig(is), jwksOptions{retryMin: time.Millisecond, retryMax: 5 * time.Millisecond, unknownWait: time.Millisecond},
		slog.New(log))
	eventually(t, "retrying", func() bool { return issuerRead(is, func(is *issuer) int { return is.hits }) >= 5 })
	got := post(h, is.sign(goodClaims(nil)))
	if got.status != 401 || !strings.Contains(got.body, "not yet obtained the issuer's signing keys") {
		t.Errorf("a token while the issuer is down: HTTP %d %s", got.status, got.body)
	}
	is.set(func(is *issuer) { is.status = 0 })
	eventually(t, "holding the key", func() bool { return a.keys.holds("k1") })
	if got := post(h, is.sign(goodClaims(nil))); got.status != 200 {
		t.Errorf("once the issuer is up: HTTP %d %s", got.status, got.body)
	}
	eventually(t, "logging the recovery", func() bool { return log.count("INFO", "fetched the OAuth issuer's keys") == 1 })
	if n := log.count("WARN", "fetching the OAuth issuer's keys failed", "HTTP 503"); n != 1 {
		t.Errorf("%d warnings for the failed fetches, want 1:\n%s", n, strings.Join(log.msgs, "\n"))
	}
}

// TestNewAuthDoesNotWaitForTheIssuer checks that NewAuth returns while an
// issuer that never answers still holds its first fetch, and that tokens
// are refused meanwhile, saying why.
func TestNewAuthDoesNotWaitForTheIssuer(t *testing.T) {
	t.Parallel()
	is := newIssuer(t)
	gate := make(chan struct{})
	t.Cleanup(func() { close(gate) })
	is.set(func(is *issuer) { is.gate = gate })
	h, _ := surfaceWith(t, oauthConfig(is), jwksOptions{unknownWait: time.Millisecond}, nil)
	// NewAuth has returned; the fetch it started is still at the issuer.
	eventually(t, "asking the issuer", func() bool { return issuerRead(is, func(is *issuer) int { return is.inFlight }) == 1 })
	got := post(h, is.sign(goodClaims(nil)))
	if got.status != 401 || !strings.Contains(got.body, "not yet obtained the issuer's signing keys") {
		t.Errorf("a token before the keys: HTTP %d %s", got.status, got.body)
	}
	if n := issuerRead(is, func(is *issuer) int { return is.inFlight }); n != 1 {
		t.Errorf("%d fetches at the issuer, want the first one still waiting", n)
	}
}

// TestOversizedJWKS checks that a JWKS over the size bound fails its fetch
// after reading little more than the bound, and that the keys held before
// are kept. It is not parallel, so that the allocations it counts are its
// own.
func TestOversizedJWKS(t *testing.T) {
	is := newIssuer(t)
	log := &records{}
	h, a := surfaceWith(t, oauthConfig(is), jwksOptions{unknownWait: patience}, slog.New(log))
	eventually(t, "holding the first key", func() bool { return a.keys.holds("k1") })
	old := is.sign(goodClaims(nil))
	// The issuer rotates to k2, in a JWKS of 300 MB.
	is.rotate("k2")
	is.set(func(is *issuer) { is.pad = 300 << 20 })
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if got := post(h, is.sign(goodClaims(nil))); got.status != 401 {
		t.Errorf("a key published in an oversized JWKS: HTTP %d %s", got.status, got.body)
	}
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 64<<20 {
		t.Errorf("fetching the oversized JWKS allocated %d MB", n>>20)
	}
	eventually(t, "logging the refusal", func() bool {
		return log.count("WARN", "fetching the OAuth issuer's keys failed", fmt.Sprintf("more than the %d bytes accepted", jwksMaxBytes)) == 1
	})
	if !a.keys.holds("k1") || a.keys.holds("k2") {
		t.Error("the oversized JWKS changed the keys held")
	}
	if got := post(h, old); got.status != 200 {
		t.Errorf("a token of the key held before: HTTP %d %s", got.status, got.body)
	}
}

// TestJWKSOverDeclaredLength checks that a JWKS whose Content-Length is
// over the bound is refused before its body is read.
func TestJWKSOverDeclaredLength(t *testing.T) {
	t.Parallel()
	is := newIssuer(t)
	log := &records{}
	_, a := surfaceWith(t, oauthConfig(is), jwksOptions{maxBytes: 100, retryMin: time.Hour}, slog.New(log))
	eventually(t, "logging the refusal", func() bool {
		return log.count("WARN", "fetching the OAuth issuer's keys failed", "bytes, more than the 100 accepted") == 1
	})
	if a.keys.holds("k1") {
		t.Error("the cache holds a key of a JWKS over the bound")
	}
}

// TestJWKSTooManyKeys checks that a JWKS of more keys than the bound fails
// its fetch: a token without kid is checked against each key.
func TestJWKSTooManyKeys(t *testing.T) {
	t.Parallel()
	is := newIssuer(t)
	is.set(func(is *issuer) {
		for i := range jwksMaxKeys {
			is.keys[fmt.Sprintf("k%d", i+2)] = is.keys["k1"]
		}
	})
	log := &records{}
	_, a := surfaceWith(t, oauthConfig(is), jwksOptions{retryMin: time.Hour}, slog.New(log))
	eventually(t, "logging the refusal", func() bool {
		return log.count("WARN", "fetching the OAuth issuer's keys failed", fmt.Sprintf("holds %d keys, more than the %d accepted", jwksMaxKeys+1, jwksMaxKeys)) == 1
	})
	if a.keys.holds("k1") {
		t.Error("the cache holds a key of a JWKS over the bound")
	}
}

// withKeyID is token with its header's kid replaced: what a client that
// makes up key ids sends (the signature does not matter, as the key is
// looked up first).
func withKeyID(token, kid string) string {
	header, _ := json.Marshal(map[string]string{"alg": "RS256", "typ": "JWT", "kid": kid})
	_, rest, _ := strings.Cut(token, ".")
	return base64.RawURLEncoding.EncodeToString(header) + "." + rest
}

// TestRotationIsSeenUnderAFloodOfUnknownKeyIDs checks that tokens naming
// made-up key ids, sent without pause, cannot hold back a real rotation:
// with the default intervals, each time the issuer rotates, just after the
// flood has caused a fetch, the first token of the new key is accepted.
// The made-up ids are all refused.
func TestRotationIsSeenUnderAFloodOfUnknownKeyIDs(t *testing.T) {
	t.Parallel()
	is := newIssuer(t)
	h, a := surfaceWith(t, oauthConfig(is), jwksOptions{}, nil)
	eventually(t, "holding the first key", func() bool { return a.keys.holds("k1") })
	ctx, stop := context.WithCancel(context.Background())
	var flood sync.WaitGroup
	var accepted, sent atomic.Int64
	for g := range 4 {
		flood.Go(func() {
			for i := 0; ctx.Err() == nil; i++ {
				sent.Add(1)
				if postCtx(ctx, h, withKeyID(is.sign(goodClaims(nil)), fmt.Sprintf("made-up-%d-%d", g, i))).status != 401 {
					accepted.Add(1)
				}
			}
		})
	}
	t.Cleanup(func() { stop(); flood.Wait() })
	for _, kid := range []string{"k2", "k3"} {
		// The flood has just spent the turn of the fetches it may cause.
		hits := issuerRead(is, func(is *issuer) int { return is.hits })
		eventually(t, "asking the issuer for the flood", func() bool { return issuerRead(is, func(is *issuer) int { return is.hits }) > hits })
		is.rotate(kid)
		start := time.Now()
		if got := post(h, is.sign(goodClaims(nil))); got.status != 200 {
			t.Fatalf("the first token of the rotated key %s, under the flood: HTTP %d %s", kid, got.status, got.body)
		}
		t.Logf("the first token of %s was accepted in %v", kid, time.Since(start).Round(time.Millisecond))
	}
	if n := accepted.Load(); n > 0 {
		t.Errorf("%d of %d tokens with made-up key ids were accepted", n, sent.Load())
	}
}
