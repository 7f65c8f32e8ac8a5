package redact

import (
	"reflect"
	"strings"
	"testing"
	"unicode"
)

func TestKey(t *testing.T) {
	tests := []struct {
		key  string
		want bool
	}{
		// The consequences listed by the reference (§8.3).
		{"session_token", true},
		{"secretKey", true},
		{"accessToken", true},
		{"api_key", true},
		{"clientSecret", true},
		{"private-key", true},
		{"Authorization", true},
		{"myApiKey", false},
		{"x-api-key", false},
		{"tokens", false},
		{"passwd", false},

		// Rule (a): the whole key, normalised.
		{"password", true},
		{"PASSWORD", true},
		{"apiKey", true},
		{"APIKEY", true},
		{"client_secret", true},
		{"Private_Key", true},
		{"jwt", true},
		{"SSN", true},
		{"cvv", true},
		{"Cookie", true},
		{"credential", true},
		{"token", true},
		{"secret", true},
		{"to\u212Aen", true}, // the Kelvin sign lower-cases to k

		// Rule (b): one word of the key.
		{"user password", true},
		{"refresh-token", true},
		{"X-Auth-Token", true},
		{"set_cookie", true},
		{"dbPassword", true},
		{"oauth2Token", true},
		{"clientSecret_v2", true},
		{"a_very_long_prefix_that_is_not_a_word_and_then_token", true},

		// Our widenings: any punctuation separates words; a capital run is
		// one word.
		{"auth.token", true},
		{"userSSN", true},
		{"JWTValue", true},
		{"APIToken", true},

		// Not secrets.
		{"", false},
		{"name", false},
		{"query", false},
		{"credentials", false},
		{"tokenizer", false},
		{"secretary", false},
		{"passwordless", false},
		{"api", false},
		{"key", false},
		{"sessionId", false},
		{"authorizations", false},
		{"\xff\xfe", false},
	}
	for _, tt := range tests {
		if got := Key(tt.key); got != tt.want {
			t.Errorf("Key(%q) = %v, want %v", tt.key, got, tt.want)
		}
	}
}

// words lists the words of key as eachWord bounds them, lower-cased.
func words(key string) []string {
	var ws []string
	eachWord(key, func(start, end int) bool {
		ws = append(ws, strings.ToLower(key[start:end]))
		return true
	})
	return ws
}

func TestWords(t *testing.T) {
	tests := []struct {
		key  string
		want []string
	}{
		{"accessToken", []string{"access", "token"}},
		{"HTTPServer", []string{"http", "server"}},
		{"x-api-key", []string{"x", "api", "key"}},
		{"session_token", []string{"session", "token"}},
		{"  spaced   out ", []string{"spaced", "out"}},
		{"oauth2Token", []string{"oauth2", "token"}},
		{"ÄpfelSaft", []string{"äpfel", "saft"}},
		{"a\xffb", []string{"a", "b"}},
		{"", nil},
		{"--", nil},
	}
	for _, tt := range tests {
		if got := words(tt.key); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("words(%q) = %q, want %q", tt.key, got, tt.want)
		}
	}
}

func TestKeyAllocatesNothing(t *testing.T) {
	for _, k := range []string{"session_token", "x-api-key", "ÄpfelSaft", "a_very_long_prefix_that_is_not_a_word"} {
		if n := testing.AllocsPerRun(100, func() { Key(k) }); n != 0 {
			t.Errorf("Key(%q) allocates %v times", k, n)
		}
	}
}

// referenceKey is the implementation Key replaced, which allocated: Key
// must agree with it on every input.
func referenceKey(key string) bool {
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
	rs := []rune(key)
	start := -1
	found := false
	flush := func(end int) {
		if start >= 0 && end > start && sensitiveWords[strings.ToLower(string(rs[start:end]))] {
			found = true
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
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				flush(i)
				start = i
			}
		}
	}
	flush(len(rs))
	return found
}

func FuzzKey(f *testing.F) {
	for _, k := range []string{"session_token", "secretKey", "myApiKey", "JWTValue", "to\u212Aen", "İ", "ǅToken", "\xff", "tokenTOKEN"} {
		f.Add(k)
	}
	f.Fuzz(func(t *testing.T, key string) {
		if got, want := Key(key), referenceKey(key); got != want {
			t.Fatalf("Key(%q) = %v, the reference says %v", key, got, want)
		}
	})
}
