package mcphttp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/MicahParks/jwkset"
	"github.com/golang-jwt/jwt/v5"
	"golang.org/x/time/rate"

	"github.com/seed417024ea/mcpcore/internal/errchain"
)

// How an OAuth issuer's keys are fetched (MCP_AUTH_MODE=oauth). The JWKS
// is fetched in the background, never on a request's own context, so that
// neither a slow issuer nor a client that hangs up can keep a key from
// arriving, and the server starts serving before the issuer answers.
const (
	// jwksMaxBytes bounds the issuer's JWKS response: a larger one fails
	// the fetch, and the keys already held are kept.
	jwksMaxBytes = 1 << 20
	// jwksMaxKeys bounds the keys of a JWKS: a token without kid is
	// checked against each key fit for its algorithm, so a set of
	// thousands would make such tokens costly. A larger set fails the
	// fetch.
	jwksMaxKeys = 100
	// jwksFetchTimeout bounds one fetch of the JWKS.
	jwksFetchTimeout = 10 * time.Second
	// jwksRefreshInterval is how often the JWKS is fetched again while the
	// issuer answers.
	jwksRefreshInterval = time.Hour
	// jwksUnknownKeyInterval is the least time between two fetches caused
	// by tokens naming a key id the server does not hold (a rotation), so
	// that tokens with made-up key ids cannot turn the server against the
	// issuer: they cost it one fetch every 2 s at most. It is shorter than
	// jwksUnknownKeyWait, so that however many such tokens came first, a
	// token of a new key finds the next fetch within its wait: a flood of
	// made-up ids cannot hold a rotation back.
	jwksUnknownKeyInterval = 2 * time.Second
	// jwksUnknownKeyWait is how long a request with an unknown key id
	// waits for a fetch that began after it came; it is then refused if
	// the key is still unknown, and the fetch goes on for the next
	// request.
	jwksUnknownKeyWait = 5 * time.Second
	// jwksRetryMin and jwksRetryMax bound the backoff between fetches
	// after one failed (at start or later): the first retry waits
	// jwksRetryMin, each next one twice as long, up to jwksRetryMax.
	jwksRetryMin = time.Second
	jwksRetryMax = 5 * time.Minute
)

// The refusals of a token whose key the server cannot find. Their words
// go to the client (through refusalOf), so they name no part of a token.
var (
	errNoKeysYet  = errors.New("the server has not yet obtained the issuer's signing keys")
	errUnknownKey = errors.New("the token's key id is not among the issuer's published keys")
	errBadKeyID   = errors.New("the token's kid header is not a string")
	errKeyMisuse  = errors.New("the key the token names is not for verifying this algorithm")
)

// jwksOptions are the bounds of a jwksCache; zero fields take the
// defaults above (tests shorten them).
type jwksOptions struct {
	client          *http.Client
	maxBytes        int64
	fetchTimeout    time.Duration
	refreshInterval time.Duration
	unknownInterval time.Duration
	unknownWait     time.Duration
	retryMin        time.Duration
	retryMax        time.Duration
}

func (o jwksOptions) withDefaults() jwksOptions {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&o.fetchTimeout, jwksFetchTimeout)
	def(&o.refreshInterval, jwksRefreshInterval)
	def(&o.unknownInterval, jwksUnknownKeyInterval)
	def(&o.unknownWait, jwksUnknownKeyWait)
	def(&o.retryMin, jwksRetryMin)
	def(&o.retryMax, jwksRetryMax)
	if o.maxBytes <= 0 {
		o.maxBytes = jwksMaxBytes
	}
	if o.client == nil {
		// The fetch's own context bounds it; the client adds nothing but
		// connections of its own, closed when the fetches end (the
		// default transport's would outlive the server).
		o.client = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	}
	return o
}

// jwksCache holds the keys of an issuer's JWKS and fetches them again: at
// start and every refreshInterval in the background, after a failure
// with backoff, and when a token names a key id it does not hold. One
// fetch runs at a time, on the cache's own context and timeout; requests
// only wait for it. JWK parsing is jwkset's.
type jwksCache struct {
	url     string
	opts    jwksOptions
	ctx     context.Context // ends the background fetches
	log     *slog.Logger
	limiter *rate.Limiter // of the fetches that unknown key ids cause

	keys atomic.Pointer[keySet] // nil until a fetch succeeds

	mu      sync.Mutex
	flight  *flight // the fetch running or scheduled, if any
	failing bool    // the last fetch failed (and that was logged)
}

// keySet is one fetched JWKS, never changed once stored.
type keySet struct {
	byKID map[string]jwkset.JWK
	all   []jwkset.JWK
}

// flight is one fetch; done is closed when it has ended.
type flight struct {
	done    chan struct{}
	startAt time.Time // when the fetch starts (later than now if the limiter delays it)
}

// newJWKSCache starts fetching the JWKS at url in the background and
// returns at once; ctx ends the fetches.
func newJWKSCache(ctx context.Context, url string, opts jwksOptions, logger *slog.Logger) *jwksCache {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	opts = opts.withDefaults()
	c := &jwksCache{url: url, opts: opts, ctx: ctx, log: logger,
		limiter: rate.NewLimiter(rate.Every(opts.unknownInterval), 1)}
	// The first fetch is started here, not in the loop, so that a request
	// coming at once joins it rather than spending the limiter's turn.
	c.mu.Lock()
	first := c.startLocked(0)
	c.mu.Unlock()
	go c.refreshLoop(first)
	return c
}

// refreshLoop fetches the JWKS now, then every refreshInterval while
// fetches succeed, and with a doubling backoff from retryMin to retryMax
// while they fail, so that an issuer down at start is retried within
// seconds rather than an hour later.
func (c *jwksCache) refreshLoop(f *flight) {
	// The keep-alive connection to the issuer goes with the loop.
	defer c.opts.client.CloseIdleConnections()
	retry := c.opts.retryMin
	for {
		select {
		case <-f.done:
		case <-c.ctx.Done():
			return
		}
		next := c.opts.refreshInterval
		if c.keys.Load() == nil || c.isFailing() {
			next, retry = retry, min(2*retry, c.opts.retryMax)
		} else {
			retry = c.opts.retryMin
		}
		t := time.NewTimer(next)
		select {
		case <-t.C:
		case <-c.ctx.Done():
			t.Stop()
			return
		}
		f = c.fetch()
	}
}

func (c *jwksCache) isFailing() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.failing
}

// fetch returns the fetch running or scheduled, or else starts one.
func (c *jwksCache) fetch() *flight {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.flight != nil {
		return c.flight
	}
	return c.startLocked(0)
}

// fetchUnknown is fetch for a token whose key id is unknown: a new fetch
// waits its turn of the limiter, so that however many such tokens come,
// the issuer is asked at most once per unknownInterval on their account.
func (c *jwksCache) fetchUnknown() *flight {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.flight != nil {
		return c.flight
	}
	return c.startLocked(c.limiter.Reserve().Delay())
}

func (c *jwksCache) startLocked(delay time.Duration) *flight {
	f := &flight{done: make(chan struct{}), startAt: time.Now().Add(delay)}
	c.flight = f
	go func() {
		defer close(f.done)
		err := c.ctx.Err()
		if delay > 0 && err == nil {
			t := time.NewTimer(delay)
			select {
			case <-t.C:
			case <-c.ctx.Done():
				t.Stop()
				err = c.ctx.Err()
			}
		}
		if err == nil {
			err = c.load()
		}
		c.mu.Lock()
		c.flight = nil
		wasFailing := c.failing
		c.failing = err != nil
		c.mu.Unlock()
		c.report(err, wasFailing)
	}()
	return f
}

// report logs a failed fetch once, when fetches start failing (later
// failures of the same run go to debug), and a success after failures.
func (c *jwksCache) report(err error, wasFailing bool) {
	held := 0
	if ks := c.keys.Load(); ks != nil {
		held = len(ks.all)
	}
	switch {
	case err != nil && c.ctx.Err() != nil:
		// The server is going away; nothing to report.
	case err != nil && !wasFailing:
		c.log.Warn("mcpcore: fetching the OAuth issuer's keys failed; retrying in the background; tokens signed with keys not yet fetched are refused",
			"jwks_uri", c.url, "error", err.Error(), "keys_held", held)
	case err != nil:
		c.log.Debug("mcpcore: fetching the OAuth issuer's keys failed again", "jwks_uri", c.url, "error", err.Error(), "keys_held", held)
	case wasFailing:
		c.log.Info("mcpcore: fetched the OAuth issuer's keys", "jwks_uri", c.url, "keys", held)
	}
}

// load fetches and parses the JWKS and, if it holds a usable key, makes
// it the cache's keys.
func (c *jwksCache) load() error {
	body, err := c.download()
	if err != nil {
		return err
	}
	ks, err := parseKeySet(body)
	if err != nil {
		return err
	}
	c.keys.Store(ks)
	return nil
}

// download fetches the JWKS, within fetchTimeout. A response over maxBytes
// is refused without being read whole.
func (c *jwksCache) download() ([]byte, error) {
	ctx, cancel := context.WithTimeout(c.ctx, c.opts.fetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.opts.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("the issuer answered HTTP %d", resp.StatusCode)
	}
	if resp.ContentLength > c.opts.maxBytes {
		return nil, fmt.Errorf("the JWKS is %d bytes, more than the %d accepted", resp.ContentLength, c.opts.maxBytes)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, c.opts.maxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading the JWKS: %w", err)
	}
	if int64(len(body)) > c.opts.maxBytes {
		return nil, fmt.Errorf("the JWKS is more than the %d bytes accepted", c.opts.maxBytes)
	}
	return body, nil
}

// parseKeySet parses a JWKS of at most jwksMaxKeys keys. Keys that jwkset
// cannot parse, or that are not public signature keys, are left out; a
// set left with none is an error.
func parseKeySet(body []byte) (*keySet, error) {
	var set jwkset.JWKSMarshal
	if err := json.Unmarshal(body, &set); err != nil {
		return nil, fmt.Errorf("the JWKS is not a JSON key set: %w", err)
	}
	if len(set.Keys) > jwksMaxKeys {
		return nil, fmt.Errorf("the JWKS holds %d keys, more than the %d accepted", len(set.Keys), jwksMaxKeys)
	}
	ks := &keySet{byKID: map[string]jwkset.JWK{}}
	for _, m := range set.Keys {
		// Private: false makes jwkset keep only public key material, and
		// refuse symmetric keys.
		k, err := jwkset.NewJWKFromMarshal(m, jwkset.JWKMarshalOptions{}, jwkset.JWKValidateOptions{})
		if err != nil || (m.USE != "" && m.USE != jwkset.UseSig) {
			continue
		}
		ks.all = append(ks.all, k)
		if m.KID != "" {
			if _, dup := ks.byKID[m.KID]; !dup {
				ks.byKID[m.KID] = k
			}
		}
	}
	if len(ks.all) == 0 {
		return nil, fmt.Errorf("the JWKS holds none of the %d keys as a usable public signature key", len(set.Keys))
	}
	return ks, nil
}

// keyfunc finds the key that verifies a token: by its kid, or else any
// key fit for its algorithm. An unknown kid, or no keys yet, causes a
// fetch (see fetchUnknown) that the request waits for (see awaitKey).
func (c *jwksCache) keyfunc(ctx context.Context) jwt.Keyfunc {
	return func(t *jwt.Token) (any, error) {
		alg, _ := t.Header["alg"].(string)
		var kid string
		if v, ok := t.Header["kid"]; ok {
			if kid, ok = v.(string); !ok {
				return nil, errBadKeyID
			}
		}
		key, err := c.keys.Load().find(alg, kid)
		if !keyMissing(err) {
			return key, err
		}
		return c.awaitKey(ctx, alg, kid, err)
	}
}

// awaitKey waits for the fetch that may bring the key a token needs, whose
// search in the keys held failed with err, at most unknownWait or until
// ctx, the request's context, ends (not at all when the limiter holds the
// fetch back longer); the fetch itself does not depend on ctx and goes on
// after the request has been refused. A fetch that began before the
// request came may predate its key; the request then waits for the next
// one, within the same bound.
func (c *jwksCache) awaitKey(ctx context.Context, alg, kid string, err error) (any, error) {
	came := time.Now()
	until := came.Add(c.opts.unknownWait)
	wait := time.NewTimer(c.opts.unknownWait)
	defer wait.Stop()
	for {
		f := c.fetchUnknown()
		if !f.startAt.Before(until) {
			// The limiter holds the fetch back longer than a request
			// waits: refuse now; the fetch will still come.
			return nil, err
		}
		select {
		case <-f.done:
		case <-wait.C:
			return c.keys.Load().find(alg, kid)
		case <-ctx.Done():
			return c.keys.Load().find(alg, kid)
		}
		var key any
		key, err = c.keys.Load().find(alg, kid)
		if !keyMissing(err) || !f.startAt.Before(came) {
			return key, err
		}
		// The fetch began before the token came: the next one, which
		// begins after, is the token's answer. It is a new flight (a
		// flight leaves c.flight before it ends), so this loops once.
	}
}

// keyMissing reports whether err is a search's for a key that a fetch may
// bring: there are no keys yet, or none with the token's kid.
func keyMissing(err error) bool {
	return errchain.Is(err, errUnknownKey) || errchain.Is(err, errNoKeysYet)
}

// find returns the key for a token of algorithm alg naming key id kid (""
// for none): the key with that id, or else the set of every key fit for
// alg. ks is nil when no fetch has succeeded yet.
func (ks *keySet) find(alg, kid string) (any, error) {
	if ks == nil {
		return nil, errNoKeysYet
	}
	if kid == "" {
		var set jwt.VerificationKeySet
		for _, k := range ks.all {
			if fitFor(k, alg) {
				set.Keys = append(set.Keys, k.Key())
			}
		}
		if len(set.Keys) == 0 {
			return nil, errKeyMisuse
		}
		return set, nil
	}
	k, ok := ks.byKID[kid]
	if !ok {
		return nil, errUnknownKey
	}
	if !fitFor(k, alg) {
		return nil, errKeyMisuse
	}
	return k.Key(), nil
}

// fitFor reports whether k may verify a token of algorithm alg: it names
// that algorithm, or none.
func fitFor(k jwkset.JWK, alg string) bool {
	a := k.Marshal().ALG.String()
	return a == "" || a == alg
}
