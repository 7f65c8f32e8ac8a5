package redact

import "strings"

// This file knows the words that a value of a sensitive key often is and a
// credential is not: function words, statuses, placeholders, names and
// formats.

// proseWord reports whether w is one of the function words of English
// sentences, which a passphrase or a credential does not hold.
func proseWord(w string) bool {
	if len(w) > 7 {
		return false
	}
	var buf [7]byte
	for i := 0; i < len(w); i++ {
		buf[i] = w[i] | 0x20
	}
	_, ok := functionWords[string(buf[:len(w)])]
	return ok
}

var functionWords = setOf(
	"a", "an", "the", "is", "are", "was", "were", "be", "been", "being", "am",
	"must", "should", "can", "cannot", "can't", "could", "will", "would", "may", "might", "shall",
	"not", "no", "to", "of", "in", "on", "at", "for", "with", "by", "from", "into", "onto", "as",
	"and", "or", "but", "if", "so", "than", "then", "too", "very", "yet", "also", "only",
	"it", "its", "this", "that", "these", "those", "there", "here", "you", "your", "we", "our",
	"they", "their", "he", "she", "his", "her", "i", "my", "me", "us", "them",
	"has", "have", "had", "do", "does", "did", "done", "don't", "doesn't", "isn't", "aren't",
	"please", "least", "most", "more", "less", "any", "all", "some", "each", "every", "one",
	"when", "where", "which", "who", "what", "why", "how", "after", "before", "until", "while",
	"again", "still", "already", "use", "see", "set", "get", "via", "per", "about", "like",
)

// plainWord reports whether w, trimmed, is a word that a value of a
// sensitive key often is and a credential is not: a status ("expired",
// "none", "required", "ok"), a verb form ending in -ed or -ing, a
// placeholder, or a name that itself names a secret ("access_token").
func plainWord(w string) bool {
	if len(w) <= 12 {
		var buf [12]byte
		letters := true
		for i := 0; i < len(w); i++ {
			c := w[i]
			buf[i] = c | 0x20
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
				letters = false
				buf[i] = c
			}
		}
		if _, ok := statusWords[string(buf[:len(w)])]; ok {
			return true
		}
		if letters && verbForm(w) {
			return true
		}
	}
	return placeholder(w) || nameLike(w)
}

// nameLike reports whether w is the name of a secret rather than one: a
// key as Key finds it that ends with a noun naming a secret, written with
// letters and separators only, in words ("access_token", "API_KEY",
// "refreshToken").
func nameLike(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '-' || c == '.') {
			return false
		}
	}
	return proseKey(w) && !shapeOf(w).random()
}

var statusWords = setOf(
	"none", "null", "nil", "true", "false", "yes", "no", "on", "off", "ok", "okay",
	"empty", "blank", "unset", "unknown", "undefined", "default", "n/a", "na", "tbd", "todo",
	"invalid", "valid", "wrong", "incorrect", "bad", "good", "missing", "absent", "present",
	"required", "optional", "hidden", "masked", "redacted", "secret", "set", "pending",
	"expired", "revoked", "denied", "forbidden", "unauthorized", "unauthenticated",
	"rejected", "accepted", "disabled", "enabled", "inactive", "active", "changed", "rotated",
	"reset", "new", "old", "same", "different", "mismatch", "short", "long", "weak", "strong",
	"bearer", "basic", "digest", "bot", "negotiate", "token", "value", "values", "example",
	"placeholder", "changeme", "string", "text", "any", "auto", "secure", "httponly",
	"samesite", "lax", "strict", "sent", "ignored", "stale", "malformed", "unsupported",
)

func setOf(words ...string) map[string]struct{} {
	m := make(map[string]struct{}, len(words))
	for _, w := range words {
		m[w] = struct{}{}
	}
	return m
}

// placeholder reports whether w stands for a value rather than being one:
// "<token>", "{api_key}", "[hidden]", "$GITHUB_TOKEN", "${DB_PASSWORD}",
// "%API_KEY%", "YOUR_API_KEY", or a mask such as "****" or "xxxx".
func placeholder(w string) bool {
	if len(w) < 2 {
		return false
	}
	first, last := w[0], w[len(w)-1]
	switch {
	case first == '<' && last == '>', first == '{' && last == '}', first == '[' && last == ']':
		return true
	case first == '(' && last == ')':
		return plainWord(w[1 : len(w)-1])
	case first == '$', first == '%' && last == '%':
		return envName(strings.Trim(w, "${}%"))
	}
	if len(w) >= 3 && strings.Trim(w, "*xX•.…#-") == "" {
		return true
	}
	return strings.Contains(w, "_") && envName(w)
}

// envName reports whether w is written as an environment variable's name:
// capitals, digits and underscores, starting with a capital.
func envName(w string) bool {
	if w == "" || !isUpperByte(w[0]) {
		return false
	}
	for i := 0; i < len(w); i++ {
		if c := w[i]; !isUpperByte(c) && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return true
}

// formatLike reports whether w is written in a format that holds no
// credential: a URL or a path, an e-mail address, a number with a unit, a
// version, a date or a time, or a name of an algorithm or an encoding.
func formatLike(w string) bool {
	switch {
	case strings.Contains(w, "://"), w[0] == '/', strings.HasPrefix(w, "./"), strings.HasPrefix(w, "~/"):
		return true
	case w[0] >= '0' && w[0] <= '9':
		return numberLike(w)
	case (w[0] == 'v' || w[0] == 'V') && len(w) > 1 && w[1] >= '0' && w[1] <= '9':
		return strings.Trim(w[1:], "0123456789.") == ""
	}
	if at := strings.IndexByte(w, '@'); at > 0 && strings.Contains(w[at:], ".") && !strings.ContainsAny(w, ":/") {
		return true
	}
	if len(w) <= 12 {
		var buf [12]byte
		for i := 0; i < len(w); i++ {
			buf[i] = w[i] | 0x20
		}
		_, ok := formatWords[string(buf[:len(w)])]
		return ok
	}
	return false
}

// numberLike reports whether w, which starts with a digit, is a number: a
// hexadecimal literal (0x4AA4767B), or digits and the separators of
// numbers, dates, times and addresses (2026-01-01T00:00:00Z, 12:30,
// 10.0.0.1, 1,024) with perhaps a short unit (8KB, 30s, 1500ms, 99.9%).
func numberLike(w string) bool {
	if len(w) > 2 && w[0] == '0' && (w[1] == 'x' || w[1] == 'X') {
		return strings.Trim(w[2:], "0123456789abcdefABCDEF") == ""
	}
	unit := unitStart(w)
	for i := 0; i < unit; i++ {
		if !numberByte(w, i) {
			return false
		}
	}
	return true
}

// unitStart returns where the unit that ends w starts: up to four letters
// or '%' ("KB", "ms", "%").
func unitStart(w string) int {
	unit := len(w)
	for unit > 0 && len(w)-unit < 4 && (w[unit-1] >= 'a' && w[unit-1] <= 'z' || w[unit-1] >= 'A' && w[unit-1] <= 'Z' || w[unit-1] == '%') {
		unit--
	}
	return unit
}

// numberByte reports whether w[i] belongs to a number: a digit, a
// separator, or the T and Z of a time after a digit.
func numberByte(w string, i int) bool {
	switch c := w[i]; {
	case c >= '0' && c <= '9', strings.IndexByte("-:./,+", c) >= 0:
		return true
	case (c == 'T' || c == 'Z') && i > 0 && w[i-1] >= '0' && w[i-1] <= '9':
		return true
	}
	return false
}

var formatWords = setOf(
	"sha1", "sha224", "sha256", "sha384", "sha512", "sha3-256", "md5", "base32", "base64",
	"base64url", "utf8", "utf-8", "utf-16", "utf16", "ascii", "latin1", "iso-8859-1",
	"oauth1", "oauth2", "http1.1", "http/1.1", "http2", "http/2", "http3", "ipv4", "ipv6",
	"x509", "x.509", "pkcs1", "pkcs7", "pkcs8", "pkcs12", "rsa2048", "rsa4096", "ed25519",
	"x25519", "p256", "p-256", "p-384", "aes128", "aes256", "aes-256", "hs256", "hs384",
	"hs512", "rs256", "rs384", "rs512", "es256", "es384", "ps256", "argon2", "argon2id",
	"pbkdf2", "scrypt", "bcrypt", "totp", "hotp", "s3", "ec2", "gcp", "k8s", "tls1.2", "tls1.3",
)
