package redact

import "strings"

// A strength says how surely a key names a secret, and so how its value is
// judged (see secretAfterKey).
type strength uint8

const (
	// notSecret: the key names no secret.
	notSecret strength = iota
	// weakKey is the key "key" alone, which names a secret in "key=K3Y"
	// and none in "primary key: id" or "sort key": only a token-like
	// value is a credential after it.
	weakKey
	// strongKey is any other sensitive key (password, token, api_key):
	// any value but prose, a status or a placeholder is a credential.
	strongKey
)

// strengthOf returns the strength of a key.
func strengthOf(name string) strength {
	if !Key(name) {
		return notSecret
	}
	var buf [4]byte
	n := 0
	for _, r := range name {
		r = toLower(r)
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if n == len(buf) {
				return strongKey
			}
			buf[n] = byte(r)
			n++
		}
	}
	if string(buf[:n]) == "key" {
		return weakKey
	}
	return strongKey
}

// strengthBefore returns the strength of key, which starts at s[start]: the
// weak key "key" is strong after a word that makes it name a secret ("API
// key: …", "secret key: …") and as a query's parameter ("?key=…"), and
// stays weak otherwise ("primary key: id").
func (sc *scanner) strengthBefore(key string, start int) strength {
	st := strengthOf(key)
	if st != weakKey {
		return st
	}
	s := sc.s
	if start > 0 && (s[start-1] == '?' || s[start-1] == '&') {
		return strongKey // "GET /v1/items?key=…": a query's parameter
	}
	j := start
	for j > sc.lo && start-j < maxKeyScan && isBlank(s[j-1]) {
		j--
	}
	if j == start {
		return st
	}
	k := j
	for k > sc.lo && start-k < maxKeyScan && isKeyByte(s[k-1]) {
		k--
	}
	if k < j && (keyQualifies(s[k:j]) || strengthOf(s[k:j]) == strongKey) {
		return strongKey // "API key", "secret key"
	}
	return st
}

// keyQualifies reports whether a word before "key" makes it name a secret:
// "API key", "access key", "secret key" (see rule (e) of [Key]).
func keyQualifies(w string) bool {
	return wordClassOf(w)&keyQualifier != 0
}

// numericKey reports whether a key names a secret that is a short number,
// such as a card's security code.
func numericKey(key string) bool {
	for _, w := range []string{"cvv", "cvc", "csc", "ssn", "pin"} {
		if strings.EqualFold(key, w) {
			return true
		}
	}
	return false
}
