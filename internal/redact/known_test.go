package redact

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The secrets of these tests: no other test of the package writes them.
const (
	knownKey    = "nk_live_4f9Qm2Zx8Lr1Tb7W"
	knownOdd    = `p<a"s>s\w&rd/é+ %x`
	knownSecond = "second-secret-7Hq2"
)

func init() {
	if err := Keep(knownKey, knownOdd, knownSecond); err != nil {
		panic(err)
	}
}

func TestKeepRefusesWhatCannotBeMasked(t *testing.T) {
	t.Parallel()
	err := Keep("short12", "", "REDACTED", "long-enough-secret-1")
	if err == nil {
		t.Fatal("Keep took a secret of 7 bytes, an empty one and a part of the marker")
	}
	msg := err.Error()
	for _, want := range []string{"value 1 of 4: a secret of 7 bytes is too short to mask: a secret needs at least 8",
		"value 2 of 4: an empty secret", "value 3 of 4: a secret that is part of the marker"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not say %q", msg, want)
		}
	}
	if strings.Contains(msg, "short12") {
		t.Errorf("error %q repeats the secret", msg)
	}
	// The good value of the call is kept all the same.
	if got := Mask("x long-enough-secret-1 y"); got != "x [REDACTED] y" {
		t.Errorf("Mask = %q: the valid value of a refused call was not kept", got)
	}
	if err := Keep("exactly8"); err != nil {
		t.Errorf("Keep(8 bytes) = %v", err)
	}
}

func TestMaskEveryForm(t *testing.T) {
	t.Parallel()
	quoted := func(v string) string { b, _ := json.Marshal(v); return string(b[1 : len(b)-1]) }
	for _, secret := range []string{knownKey, knownOdd} {
		texts := map[string]string{
			"as it is":          "the key `" + secret + "` is not allowed to read this file",
			"JSON":              `{"error":"` + quoted(secret) + `"}`,
			"JSON twice":        `{"text":"` + quoted(`{"error":"`+quoted(secret)+`"}`) + `"}`,
			"query":             "https://api.example.com/notes?k=" + url.QueryEscape(secret) + "&x=1",
			"path":              "https://hooks.example.com/" + url.PathEscape(secret) + "/notes",
			"userinfo":          (&url.URL{Scheme: "redis", User: url.UserPassword("u", secret), Host: "h"}).String(),
			"lower hex":         "k=" + regexp.MustCompile(`%[0-9A-F]{2}`).ReplaceAllStringFunc(url.QueryEscape(secret), strings.ToLower),
			"no space":          "key" + secret + "end",
			"twice in a row":    secret + secret,
			"at the very start": secret,
		}
		for prefix := range 6 {
			head := strings.Repeat("x", prefix)
			for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
				texts["base64 after "+head] = "data:" + enc.EncodeToString([]byte(head+secret+"tail"))
				texts["base64 alone"] = enc.EncodeToString([]byte(secret))
			}
		}
		for name, text := range texts {
			got := Mask(text)
			if !strings.Contains(got, Marker) {
				t.Errorf("%q, %s: %q kept the secret", secret, name, got)
				continue
			}
			for _, form := range forms(secret) {
				if strings.Contains(got, form) {
					t.Errorf("%q, %s: %q still holds %q", secret, name, got, form)
				}
			}
			// A secret JSON holds as it is is found in bytes as in text.
			if got := string(MaskBytes([]byte(text))); secret == knownKey && got != Mask(text) {
				t.Errorf("%s: MaskBytes = %q, Mask = %q", name, got, Mask(text))
			}
		}
	}
}

func TestMaskKeepsTheRest(t *testing.T) {
	for text, want := range map[string]string{
		"the key `" + knownKey + "` is not allowed":      "the key `[REDACTED]` is not allowed",
		knownKey + " and " + knownSecond:                 "[REDACTED] and [REDACTED]",
		"nk_live_4f9Qm2Zx8Lr1Tb7 (one byte short)":       "nk_live_4f9Qm2Zx8Lr1Tb7 (one byte short)",
		"second-secret-7Hq2nk_live_4f9Qm2Zx8Lr1Tb7W":     "[REDACTED][REDACTED]",
		"a clean text, with nothing of any secret in it": "a clean text, with nothing of any secret in it",
	} {
		if got := Mask(text); got != want {
			t.Errorf("Mask(%q) = %q, want %q", text, got, want)
		}
	}
	clean := strings.Repeat("an ordinary sentence with no secret. ", 30)
	if n := testing.AllocsPerRun(100, func() { sinkString = Mask(clean) }); n != 0 {
		t.Errorf("Mask of a clean text allocates %v times", n)
	}
	b := []byte(clean)
	if n := testing.AllocsPerRun(100, func() { _ = MaskBytes(b) }); n != 0 {
		t.Errorf("MaskBytes of a clean text allocates %v times", n)
	}
}

// TestMaskBytesKeepsJSON masks JSON strings made of a secret's pieces,
// escapes and characters JSON escapes, next to each other in every order:
// the text stays valid JSON, and no secret is left in what it decodes to.
func TestMaskBytesKeepsJSON(t *testing.T) {
	t.Parallel()
	pieces := []string{knownKey, knownKey[1:], knownKey[:len(knownKey)-1], knownOdd, knownOdd[1:], knownOdd[:len(knownOdd)-1],
		"\n", "\t", "\\", "\"", "\u00e9", "é", "<", "&", "\u2028", "x", " ", "n", "u00e9", "\\u", "\x01"}
	// A secret with a quote in it, as it is, spans the structure of this
	// text, which holds no secret: masking it would break the text.
	if err := Keep(`abcd1234","b`); err != nil {
		t.Fatal(err)
	}
	if got := string(MaskBytes([]byte(`{"a":"abcd1234","b":2}`))); got != `{"a":"abcd1234","b":2}` {
		t.Errorf("MaskBytes masked across the structure: %s", got)
	}
	rng := rand.New(rand.NewPCG(1, 35))
	for range 20000 {
		var b strings.Builder
		for range 1 + rng.IntN(6) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		for _, html := range []bool{true, false} {
			var enc bytes.Buffer
			e := json.NewEncoder(&enc)
			e.SetEscapeHTML(html)
			_ = e.Encode(map[string]string{"text": b.String()})
			out := MaskBytes(enc.Bytes())
			var got map[string]string
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("%q masked is not JSON: %s (%v)", enc.String(), out, err)
			}
			if strings.Contains(got["text"], knownKey) || strings.Contains(got["text"], knownOdd) {
				t.Fatalf("%q masked still holds a secret: %q", enc.String(), got["text"])
			}
		}
	}
}

// TestMaskIsLinear holds the text that makes the matcher work hardest
// (every block the start of a form, each compared nearly to its end)
// against a plain text of the same size.
func TestMaskIsLinear(t *testing.T) {
	t.Parallel()
	const long = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA!"
	if err := Keep(long); err != nil {
		t.Fatal(err)
	}
	hard := strings.Repeat("A", 1<<20)
	plain := strings.Repeat("the quick brown fox jumps over ", (1<<20)/31)
	measure := func(s string) time.Duration {
		best := time.Duration(1 << 62)
		for range 5 {
			start := time.Now()
			sinkString = Mask(s)
			best = min(best, time.Since(start))
		}
		return best
	}
	if r := float64(measure(hard)) / float64(measure(plain)); r > 400 {
		// The bound is generous (65 measured): hard compares 129 bytes
		// four times a block, plain nothing; work quadratic in the text
		// would be ~100,000 times.
		t.Errorf("masking the hard text costs %.0f times the plain one", r)
	}
}

// BenchmarkMask is the cost of masking a clean text, and one that holds a
// secret, of 1 KB.
func BenchmarkMask(b *testing.B) {
	clean := strings.Repeat("the upstream returned an unexpected answer, status 502; retrying later. ", 14)
	dirty := clean[:500] + knownKey + clean[500:]
	for _, bm := range []struct{ name, text string }{{"Clean", clean}, {"Secret", dirty}} {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bm.text)))
			for b.Loop() {
				sinkString = Mask(bm.text)
			}
		})
	}
}

// noteError is a service's error whose text quotes an upstream's message.
type noteError struct{ upstream string }

func (e *noteError) Error() string { return "notes: " + e.upstream }

// TestHandlerMasksKnownSecrets plants a kept secret in every place a
// record has: none may reach the output, in any of its forms.
func TestHandlerMasksKnownSecrets(t *testing.T) {
	t.Parallel()
	logger, buf, _ := capture(t)
	quote := "the key `" + knownKey + "` is not allowed to read this file"
	logger.Info(quote)
	logger.Info("attrs", "upstream", quote, "err", &noteError{quote}, "raw", []byte(quote),
		knownKey, "as a key", slog.Group("g", "deep", quote))
	logger.With("early", quote).WithGroup("group-"+knownKey).Info("with", "n", 1)
	logger.Info("containers",
		"map", map[string]any{knownKey: 1, "note": quote, "odd": knownOdd},
		"struct", struct {
			Note  string `json:"note"`
			Bytes []byte `json:"bytes"`
		}{quote, []byte("prefix " + knownKey)},
		"slice", []string{"a", quote})
	logger.Info("odd", "text", knownOdd, "err", errors.New("bad "+knownOdd))
	out := buf.String()
	for _, secret := range []string{knownKey, knownOdd} {
		for _, f := range forms(secret) {
			if strings.Contains(out, f) {
				t.Errorf("the log holds %q (a form of %q):\n%s", f, secret, out)
			}
		}
	}
	if n := strings.Count(out, Marker); n < 14 {
		t.Errorf("%d markers, want one a secret planted:\n%s", n, out)
	}
	if !strings.Contains(out, "the key `[REDACTED]` is not allowed to read this file") {
		t.Errorf("the prose around the secret was not kept:\n%s", out)
	}
}

// knownShaped is kept by the init of this file's tests: a secret with a
// credential's shape inside it (api_key=…), which the text scrubber
// replaces on its own; the part before it must not be left behind.
const knownShaped = "Zq8x/api_key=29310abc"

func init() {
	if err := Keep(knownShaped); err != nil {
		panic(err)
	}
}

// TestScrubbingMasksKnownSecretsFirst: every function that scrubs text by
// its shape masks the secrets kept first, so that a pattern that matches
// inside a secret does not cut it in two and leave the rest in clear.
func TestScrubbingMasksKnownSecretsFirst(t *testing.T) {
	t.Parallel()
	text := "the key `" + knownShaped + "` is not allowed"
	tree := func() map[string]any { return map[string]any{"message": text, "errors": []any{text}} }
	value, _, _ := Value(tree())
	encoded, _, _ := Encoded([]byte(`{"message":"` + text + `"}`))
	viaJSON, _ := JSON(struct{ Message string }{text})
	for name, got := range map[string]any{
		"String": String(text), "Tree": Tree(tree()), "Copy": Copy(tree()), "JSON": viaJSON,
		"Value": string(value), "Encoded": string(encoded),
	} {
		s := fmt.Sprint(got)
		if strings.Contains(s, "Zq8x") || !strings.Contains(s, "the key `"+Marker+"` is not allowed") {
			t.Errorf("%s: %s", name, s)
		}
	}
}
