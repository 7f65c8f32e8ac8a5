package redact

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
)

// The secrets a process knows it holds (its configuration's keys, the
// tokens a service read), masked by [Mask] and [MaskBytes] wherever they
// appear. No pattern can tell that an upstream's "the key abc… is not
// allowed" quotes the server's own key; the server can, once told.

// MinSecretBytes is the fewest bytes of a secret [Keep] accepts. A shorter
// value turns up by chance in ordinary text (a word, a number, an id), which
// masking it would alter, and is too weak to be a credential anyway.
const MinSecretBytes = 8

var (
	// known matches the secrets kept so far; nil while there are none, so
	// that masking costs a load and a comparison.
	known atomic.Pointer[matcher]
	// keeping serialises the rebuilds of known.
	keeping sync.Mutex
)

// CheckSecret returns why v cannot be kept as a secret, or nil: it is
// empty, shorter than [MinSecretBytes], or part of [Marker] (masking would
// then mask its own marker). The error never holds v.
func CheckSecret(v string) error {
	switch {
	case v == "":
		return errors.New("an empty secret: there is nothing to mask")
	case len(v) < MinSecretBytes:
		return fmt.Errorf("a secret of %d bytes is too short to mask: a secret needs at least %d, as a shorter value turns up by chance in ordinary text, which masking it would alter",
			len(v), MinSecretBytes)
	case strings.Contains(Marker, v):
		return fmt.Errorf("a secret that is part of the marker %s cannot be masked", Marker)
	}
	return nil
}

// Keep adds values to the secrets of the process: from then on [Mask] and
// [MaskBytes] replace each, in every form it travels in, by [Marker]. A
// value that [CheckSecret] refuses is not kept, and the error says why,
// naming it by its place among values, never by its text; the others are
// kept all the same. Secrets are kept for the life of the process.
func Keep(values ...string) error {
	var errs []error
	var add []string
	for i, v := range values {
		if err := CheckSecret(v); err != nil {
			if len(values) > 1 {
				err = fmt.Errorf("value %d of %d: %w", i+1, len(values), err)
			}
			errs = append(errs, err)
			continue
		}
		add = append(add, v)
	}
	if len(add) > 0 {
		keeping.Lock()
		defer keeping.Unlock()
		var old []string
		if m := known.Load(); m != nil {
			old = m.secrets
		}
		if m := newMatcher(old, add); m != nil {
			known.Store(m)
		}
	}
	return errors.Join(errs...)
}

// Forget drops every secret kept. It is for tests and benchmarks, which
// measure with secrets and without: a server never forgets one.
func Forget() {
	keeping.Lock()
	defer keeping.Unlock()
	known.Store(nil)
}

// Masking reports whether any secret is kept.
func Masking() bool { return known.Load() != nil }

// Mask returns s with every secret kept (see [Keep]) replaced by [Marker],
// whatever surrounds it, in each form a secret travels in:
//
//   - as it is;
//   - JSON-escaped as encoding/json writes it, with and without the
//     escaping of <, > and &, and escaped twice, as in JSON text held in a
//     JSON string (a tool's text content);
//   - URL-escaped, as a query value, a path, a path segment and user
//     information, with the hex digits in upper or lower case;
//   - base64-encoded, in the standard and URL alphabets, padded or not: the
//     characters of its encoding that depend on it alone, at each of the
//     three offsets it may start at in a longer encoded text.
//
// Overlapping secrets become one marker. Mask runs in time linear in
// len(s), whatever was kept, and returns s itself, without allocating,
// when there is nothing to mask.
func Mask(s string) string {
	m := known.Load()
	if m == nil {
		return s
	}
	hits := find(m, s, true, false)
	if len(hits) == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for _, h := range hits {
		b.WriteString(s[last:h.start])
		b.WriteString(Marker)
		last = h.end
	}
	b.WriteString(s[last:])
	return b.String()
}

// MaskBytes is [Mask] for JSON text on its way out (a JSON-RPC message,
// an event of a stream whose data is one): b itself when there is nothing
// to mask, else a new slice; b is never changed. Valid JSON stays valid:
// a secret is looked for in the forms JSON text holds, and a marker never
// stands beside half of an escape sequence.
func MaskBytes(b []byte) []byte {
	m := known.Load()
	if m == nil {
		return b
	}
	hits := find(m, b, true, true)
	if len(hits) == 0 {
		return b
	}
	hits = wholeEscapes(b, hits)
	out := make([]byte, 0, len(b))
	last := 0
	for _, h := range hits {
		out = append(out, b[last:h.start]...)
		out = append(out, Marker...)
		last = h.end
	}
	return append(out, b[last:]...)
}

// holdsKnown reports whether s holds a secret kept, without allocating.
func holdsKnown(s string) bool {
	m := known.Load()
	return m != nil && len(find(m, s, false, false)) > 0
}

// maskEncoding returns x, or, when its JSON encoding holds a secret kept,
// that encoding masked (as a json.RawMessage, or as text should masking
// have left it invalid JSON): [JSON] then builds the tree a log record
// holds from what is left. Masking the encoding rather than the tree's
// strings finds a secret in keys too, and before [String] could cut one
// in two.
func maskEncoding(x any) any {
	if !Masking() {
		return x
	}
	b, err := encodeQuietly(x)
	if err != nil {
		return x // JSON reports it
	}
	m := MaskBytes(b)
	switch {
	case len(m) == len(b) && string(m) == string(b):
		return x
	case json.Valid(m):
		return json.RawMessage(m)
	}
	return string(m)
}

// encodeQuietly is json.Marshal with a panicking MarshalJSON turned into
// an error.
func encodeQuietly(x any) (b []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			b, err = nil, fmt.Errorf("json: marshal panicked: %v", r)
		}
	}()
	return json.Marshal(x)
}
