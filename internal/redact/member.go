package redact

import (
	"encoding/base64"
	"strings"
	"unicode/utf8"
)

// This file holds the rules for the members of structured values, which
// Tree, Copy, JSON, Encoded, Value and Handler share: what becomes of a key,
// and of the value of a sensitive key.

// scrubKey returns the key k as it is sent, scrubbed by String like any
// text, and whether its value goes too: a key that held a secret ({"Bearer
// Q7x…": …}), or already holds a marker, has its value replaced by the
// marker, so that two keys that scrub alike send the same member whatever
// their order.
func scrubKey(k string) (string, bool) {
	if k == "" {
		return k, false
	}
	if wordOnly(k) {
		// One word ("reason", "requestId", "ghp_…"): String could only
		// find a token format or a long random run in it.
		if _, ok := tokenAt(k, 0); !ok && !longRandom(k) {
			return k, false
		}
	}
	sk := String(k)
	return sk, sk != k || strings.Contains(k, Marker)
}

// wordOnly reports whether every byte of s is a word byte.
func wordOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isWordByte(s[i]) {
			return false
		}
	}
	return true
}

// The value of a sensitive key (see strengthOf) is judged by its kind:
//
//   - a string is replaced when secretText finds it a credential, and
//     scrubbed by String otherwise ("must have at least 8 characters"
//     stays); bytes are judged as the text bytesText makes of them;
//   - a number is replaced under a strong key, and stays under the weak key
//     "key";
//   - true, false and null stay;
//   - an object is replaced whole under a strong key (a structured
//     credential), and walked as any object under the weak key;
//   - the elements of an array are judged one by one, as the value of the
//     key.
//
// Tree, Copy, Encoded and Value each apply these rules to the values they
// walk.

// bytesText returns b as failure data sends it: scrubbed as text, and sent
// as that text when it is UTF-8 (an upstream body almost always is);
// otherwise base64-encoded, as encoding/json encodes bytes, and that text
// scrubbed in turn, as any later scrubbing of the encoded data would.
// encoding/json's own base64 would hide b's secrets from every scrubbing.
func bytesText(b []byte) string {
	s := String(string(b))
	if utf8.ValidString(s) {
		return s
	}
	return String(base64.StdEncoding.EncodeToString([]byte(s)))
}
