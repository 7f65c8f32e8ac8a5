package mcperr

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// The property: whatever secrets a failure carries, in the shapes they
// leak in, none reaches the wire (From's message and JSON, FromResponse's
// JSON) or a TryCatch log record. Seeded, so a failure repeats.

// propSecret returns a random secret: 12 to 40 bytes of letters, digits
// and -_. with a capital and a digit, like the keys and tokens of real APIs.
func propSecret(rng *rand.Rand) string {
	const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789-_."
	b := []byte{"ABCDEFGHJKLMNPQRSTUVWXYZ"[rng.IntN(24)], "23456789"[rng.IntN(8)]}
	for n := 10 + rng.IntN(29); len(b) < n; {
		b = append(b, alphabet[rng.IntN(len(alphabet))])
	}
	rng.Shuffle(len(b), func(i, j int) { b[i], b[j] = b[j], b[i] })
	return string(b)
}

// propLeaks are errors that carry the secrets s and u the ways Go code
// leaks them.
var propLeaks = []func(s, u string) error{
	func(s, _ string) error { return fmt.Errorf("connect to db: password=%s", s) },
	func(s, _ string) error { return fmt.Errorf("auth failed; api_key: %s; retry later", s) },
	func(s, _ string) error { return fmt.Errorf("login: apiKey:%s", s) },
	func(s, u string) error {
		return fmt.Errorf("upstream said: %s", `{"error":"denied","access_token":"`+s+`","refresh_token": "`+u+`"}`)
	},
	func(s, _ string) error { return fmt.Errorf("decoding %q", `{"user":{"password":"`+s+`"}}`) },
	func(s, u string) error {
		raw := (&url.URL{Scheme: "https", User: url.UserPassword("admin", s), Host: "api.example.com",
			Path: "/v1/items", RawQuery: "q=cats&api_key=" + u}).String()
		return &url.Error{Op: "Get", URL: raw, Err: errors.New("connection refused")}
	},
	func(s, u string) error {
		return &url.Error{Op: "Post", URL: "https://auth.example.com/token?client_id=app&client_secret=" + s + "#access_token=" + u, Err: io.ErrUnexpectedEOF}
	},
	func(s, _ string) error { return fmt.Errorf("header Authorization: Bearer %s rejected", s) },
	func(s, _ string) error { return fmt.Errorf("upstream refused bearer %s", s) },
	func(s, _ string) error {
		return fmt.Errorf("proxy sent Basic %s", base64.StdEncoding.EncodeToString([]byte("svc:"+s)))
	},
	func(s, u string) error { return fmt.Errorf("client_secret=%s token=%s", s, u) },
	func(s, u string) error {
		return fmt.Errorf("session cookie=%s, jwt: eyJhbGciOiJIUzI1NiJ9.%s.sig", s, u)
	},
	func(s, u string) error {
		return fmt.Errorf("dsn postgres://app:%s@db:5432/app?sslmode=require&password=%s failed", s, u)
	},
	func(s, _ string) error { return fmt.Errorf("x-api-token = %s", s) },
}

// propNoise are the messages of the wrappers around a leak.
var propNoise = []string{"load profile", "fetch articles", "status code 500", "timed out", "not found", "ECONNREFUSED", "invalid input", ""}

// propWrap wraps err in zero to four random layers, as services do.
func propWrap(rng *rand.Rand, err error) error {
	for range rng.IntN(5) {
		noise := propNoise[rng.IntN(len(propNoise))]
		switch rng.IntN(4) {
		case 0:
			err = fmt.Errorf("%s: %w", noise, err)
		case 1:
			err = errors.Join(errors.New(noise), err)
		case 2:
			err = fmt.Errorf("%w (%s)", err, noise)
		default:
			err = &fuzzTimeoutError{msg: noise + ": " + err.Error(), inner: err}
		}
	}
	return err
}

// propBodies are upstream bodies that carry the secrets; pad lets a secret
// fall across the excerpt's limit.
var propBodies = []func(s, u, pad string) string{
	func(s, u, pad string) string {
		return `{"error":"invalid_grant","pad":"` + pad + `","access_token":"` + s + `","refresh_token":"` + u + `"}`
	},
	func(s, u, pad string) string {
		return `{"data":{"items":[{"id":1,"note":"` + pad + `","credentials":{"password":"` + s + `"}}]},"detail":"retry with api_key=` + u + `"}`
	},
	func(s, u, pad string) string {
		return pad + " invalid token presented: Bearer " + s + " (api_key=" + u + ")"
	},
	func(s, u, pad string) string {
		return "error=invalid_client&x=" + pad + "&client_secret=" + s + "&token=" + u
	},
	func(s, u, pad string) string { return pad + ` token eyJhbGciOiJIUzI1NiJ9.` + s + `.` + u },
	func(s, u, pad string) string {
		return `{"error":"x","pad":"` + pad + `","access_token":"` + s + strings.Repeat(u, 40) + `"}`
	},
}

// leaks reports where in out a secret, or any 8-byte part of one, appears.
func leaks(out string, secrets ...string) string {
	for _, s := range secrets {
		for i := 0; i+8 <= len(s); i++ {
			if j := strings.Index(out, s[i:i+8]); j >= 0 {
				return fmt.Sprintf("%q (part of %q) at %d", s[i:i+8], s, j)
			}
		}
	}
	return ""
}

func TestPropertyNoSecretEscapes(t *testing.T) {
	checkNoSecretEscapes(t, 417024, 3000)
}

// checkNoSecretEscapes runs the property on n random cases from seed.
func checkNoSecretEscapes(t *testing.T, seed uint64, n int) {
	rng := rand.New(rand.NewPCG(seed, 6))
	ctx := context.Background()
	var logs bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))

	for i := range n {
		s, u := propSecret(rng), propSecret(rng)
		leak := rng.IntN(len(propLeaks))
		err := propWrap(rng, propLeaks[leak](s, u))
		report := func(where, out string) {
			if l := leaks(out, s, u); l != "" {
				t.Fatalf("seed %d case %d, leak shape %d: %s reached %s\nerror: %v\nout:   %s", seed, i, leak, l, where, err, out)
			}
		}

		// The wire, through From.
		e := From(err)
		report("From's message", e.Message())
		wire, _ := json.Marshal(e)
		report("From's JSON", string(wire))
		data, _ := json.Marshal(e.Data())
		report("From's data", string(data))

		// The log and the wire, through TryCatch.
		logs.Reset()
		_, caught := TryCatch(ctx, TryCatchOptions{
			Operation: "Upstream.Call",
			Logger:    logger,
			Attrs:     []slog.Attr{slog.String("authorization", "Bearer "+s), slog.String("requestId", "R-1")},
			Input:     map[string]any{"query": "cats", "apiKey": u, "nested": map[string]any{"password": s, "note": "token=" + u}},
			Code:      Code(rng.IntN(2)) * CodeServiceUnavailable, // half the time, classify
		}, func(context.Context) (int, error) { return 0, err })
		report("TryCatch's record", logs.String())
		caughtWire, _ := json.Marshal(caught)
		report("TryCatch's error", string(caughtWire))

		// The wire, through FromResponse.
		pad := strings.Repeat("p", rng.IntN(700))
		body := propBodies[rng.IntN(len(propBodies))](s, u, pad)
		resp := &http.Response{
			StatusCode: []int{400, 401, 403, 429, 500, 503}[rng.IntN(6)],
			Body:       io.NopCloser(strings.NewReader(body)),
			Request: &http.Request{URL: &url.URL{Scheme: "https", User: url.UserPassword("svc", s), Host: "api.example.com",
				Path: "/v1/token", RawQuery: "q=1&api_key=" + u + "&access_token=" + s, Fragment: "id_token=" + u}},
		}
		fr := FromResponse(resp, WithBodyLimit(16+rng.IntN(900)))
		frWire, _ := json.Marshal(fr)
		report("FromResponse's JSON", string(frWire))
	}
}
