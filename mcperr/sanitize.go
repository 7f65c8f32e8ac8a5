package mcperr

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"unicode"
)

// redacted replaces the value of a sensitive key in logged input and in the
// query of a logged or reported URL.
const redacted = "[REDACTED]"

// sensitiveWords are the key names whose values never reach a log: a key is
// sensitive when its normalised form (see isSensitiveKey) or one of its words
// is in this set.
var sensitiveWords = map[string]bool{
	"password":      true,
	"token":         true,
	"secret":        true,
	"apikey":        true,
	"credential":    true,
	"jwt":           true,
	"ssn":           true,
	"cvv":           true,
	"authorization": true,
	"cookie":        true,
	"clientsecret":  true,
	"privatekey":    true,
}

// isSensitiveKey reports whether a map key names a secret, following the
// rules of the TypeScript framework:
//
//	(a) the key lower-cased with every character other than a-z and 0-9
//	    removed is a sensitive word ("api_key", "Private-Key", "clientSecret");
//	(b) one of the key's words is a sensitive word ("session_token",
//	    "accessToken", "secretKey").
//
// Words are split at every character that is not a letter or a digit and at
// camel-case boundaries. Two deliberate widenings of the original, which only
// splits at '_', '-' and white space and starts a word at every upper-case
// letter: any punctuation separates words ("auth.token"), and a run of
// capitals is one word ("userSSN" is user+ssn, "JWTValue" is jwt+value).
// Neither makes a key of the original's list of non-sensitive examples
// ("myApiKey", "x-api-key", "tokens", "passwd") sensitive.
func isSensitiveKey(key string) bool {
	var norm strings.Builder
	for _, r := range key {
		r = unicode.ToLower(r)
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			norm.WriteRune(r)
		}
	}
	if sensitiveWords[norm.String()] {
		return true
	}
	for _, w := range splitWords(key) {
		if sensitiveWords[w] {
			return true
		}
	}
	return false
}

// splitWords splits a key into lower-case words at non-alphanumeric
// characters and camel-case boundaries: "accessToken" → access, token;
// "HTTPServer" → http, server; "x-api-key" → x, api, key.
func splitWords(key string) []string {
	rs := []rune(key)
	var words []string
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			words = append(words, strings.ToLower(string(rs[start:end])))
		}
		start = -1
	}
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		if unicode.IsUpper(r) {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			// aB starts a word at B; 1B too; ABc starts one at B.
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				flush(i)
				start = i
			}
		}
	}
	flush(len(rs))
	return words
}

// sanitizeInput returns a copy of v fit for a log record: every value under a
// sensitive map key (see isSensitiveKey), at any depth, is replaced by the
// string "[REDACTED]".
//
// Scalars (strings, numbers, booleans, nil) are returned unchanged. Anything
// else (structs, maps, slices, pointers) goes through encoding/json into
// map[string]any and []any values, so struct fields appear under their JSON
// names and json:"-" fields are left out; numbers inside become json.Number,
// which keeps them exact. A value that cannot be marshalled (a channel, a
// func, a cycle) becomes the string "[unloggable input: <error>]": logging
// must never fail because of what it logs.
func sanitizeInput(v any) any {
	if v == nil {
		return nil
	}
	switch reflect.TypeOf(v).Kind() {
	case reflect.Bool, reflect.String,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return v
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "[unloggable input: " + err.Error() + "]"
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return "[unloggable input: " + err.Error() + "]"
	}
	return redact(out)
}

// redact replaces, in place, the values of sensitive keys in a tree of
// map[string]any and []any values as decoded by encoding/json, and returns
// the tree.
func redact(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, val := range t {
			if isSensitiveKey(k) {
				t[k] = redacted
			} else {
				t[k] = redact(val)
			}
		}
	case []any:
		for i, val := range t {
			t[i] = redact(val)
		}
	}
	return v
}
