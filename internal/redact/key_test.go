package redact

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode"
)

func TestKey(t *testing.T) {
	tests := []struct {
		key  string
		want bool
	}{
		// The consequences listed by mcp-ts-core (§8.3), where they stand.
		{"session_token", true},
		{"secretKey", true},
		{"accessToken", true},
		{"api_key", true},
		{"clientSecret", true},
		{"private-key", true},
		{"Authorization", true},
		{"tokens", false},

		// Where mcp-ts-core's list is widened (issue 18): a user expects
		// these to hide their values.
		{"myApiKey", true},
		{"x-api-key", true},
		{"X-Api-Key", true},
		{"api-key", true},
		{"apiKeyId", true},
		{"api_keys", true},
		{"ssh_private_key", true},
		{"AWSAccessKeyId", true},
		{"signing_key", true},
		{"passwd", true},
		{"pwd", true},
		{"db_pwd", true},
		{"passphrase", true},
		{"key_passphrase", true},
		{"pass", true},
		{"PASS", true},
		{"db_pass", true},
		{"smtpPass", true},
		{"key", true},
		{"Key", true},
		{"KEY", true},
		{"sig", true},
		{"url_sig", true},
		{"signature", true},
		{"X-Amz-Signature", true},
		{"X-Goog-Signature", true},
		{"X-Amz-Credential", true},
		{"X-Amz-Security-Token", true},
		{"access_tokens", true},
		{"PGPASSWORD", true},
		{"sslpassword", true},
		{"accesstoken", true},
		{"ACCESSTOKEN", true},
		{"myapikey", true},
		{"appsecret", true},
		{"refreshTokens", true},
		{"AccountKey", true},
		{"SharedAccessKey", true},
		{"Ｐａｓｓｗｏｒｄ", true},
		{"ＡＰＩ＿ＫＥＹ", true},
		{"ｄｂＰａｓｓｗｏｒｄ", true},
		{"ＰＧＰＡＳＳＷＯＲＤ", true},

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
		{"keys", false},
		{"sort_key", false},
		{"primaryKey", false},
		{"publicKey", false},
		{"keyId", false},
		{"key_name", false},
		{"keyboard", false},
		{"monkey", false},
		{"pass_rate", false},
		{"passage", false},
		{"compass", false},
		{"bypass", false},
		{"passed", false},
		{"password_hint_shown", true},
		// Issue 35: a last word that names something about a secret.
		{"token_type", false},
		{"tokenType", false},
		{"password_min_length", false},
		{"cookie_name", false},
		{"token_url", false},
		{"access_token_expires_at", false},
		{"expires_in", false},
		{"secret_name", false},
		{"api_key_header", false},
		{"token_count", false},
		{"password_require_digit", true},
		{"X-Amz-Security-Token", true},
		{"max_tokens", false},
		{"input_tokens", false},
		{"tokensUsed", false},
		{"signal", false},
		{"design", false},
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

// referenceKey states the rules of Key as plainly as possible, allocating
// freely: Key must agree with it on every input.
func referenceKey(key string) bool {
	// Full-width forms of ASCII are ASCII.
	key = strings.Map(func(r rune) rune {
		if r >= 0xFF01 && r <= 0xFF5E {
			return r - 0xFF01 + '!'
		}
		return r
	}, key)
	var norm strings.Builder
	for _, r := range key {
		r = unicode.ToLower(r)
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			norm.WriteRune(r)
		}
	}
	anywhere := []string{"password", "passwd", "passphrase", "pwd", "token", "secret", "apikey", "credential",
		"jwt", "ssn", "cvv", "authorization", "cookie", "clientsecret", "privatekey", "signature", "sig"}
	keyQualifiers := []string{"api", "access", "session", "private", "signing", "encryption", "master", "hmac", "ssh", "account"}
	meta := []string{"type", "types", "kind", "count", "length", "len", "size", "ttl", "age", "expiry", "expires",
		"expiration", "lifetime", "at", "in", "url", "uri", "endpoint", "path", "file", "name", "names", "policy",
		"format", "prefix", "header", "version", "status", "state", "strength", "mode", "method", "scheme",
		"rotation", "min", "max", "days", "hours", "minutes", "seconds", "enabled", "disabled", "required"}
	tokensQualifiers := []string{"api", "access", "session", "refresh", "auth", "bearer", "id", "oauth", "csrf", "xsrf"}
	if slices.Contains(anywhere, norm.String()) || norm.String() == "pass" || norm.String() == "key" {
		return true // (a)
	}
	ws := referenceWords(key)
	if len(ws) > 1 && slices.Contains(meta, ws[len(ws)-1]) {
		return false // names something about a secret
	}
	for i, w := range ws {
		if slices.Contains(anywhere, w) { // (b)
			return true
		}
		if i > 0 && (w == "key" || w == "keys") && slices.Contains(keyQualifiers, ws[i-1]) { // (e)
			return true
		}
		if i > 0 && w == "tokens" && slices.Contains(tokensQualifiers, ws[i-1]) { // (f)
			return true
		}
	}
	for _, w := range ws {
		for _, suf := range []string{"password", "passwd", "passphrase", "token", "secret", "apikey"} {
			if strings.HasSuffix(w, suf) { // (b), the suffixes
				return true
			}
		}
	}
	return len(ws) > 0 && ws[len(ws)-1] == "pass" // (c); (d) is in (a)
}

// referenceWords splits key into its lower-cased words, rune by rune.
func referenceWords(key string) []string {
	rs := []rune(key)
	var ws []string
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			ws = append(ws, strings.ToLower(string(rs[start:end])))
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
	return ws
}

func FuzzKey(f *testing.F) {
	for _, k := range []string{"session_token", "secretKey", "myApiKey", "JWTValue", "to\u212Aen", "İ", "ǅToken", "\xff", "tokenTOKEN", "x-api-key", "apiTokens", "db_pass", "KEY", "pass_rate", "\u212Aey", "token_type", "Ｐａｓｓｗｏｒｄ", "AccountKey", "ａｐｉ_ｔｏｋｅｎ_ｕｒｌ"} {
		f.Add(k)
	}
	f.Fuzz(func(t *testing.T, key string) {
		if got, want := Key(key), referenceKey(key); got != want {
			t.Fatalf("Key(%q) = %v, the reference says %v", key, got, want)
		}
	})
}
