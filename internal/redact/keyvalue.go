package redact

import "strings"

// keyValue handles the separator s[i], '=' or ':': when the key left of it
// is sensitive, its value is judged, and emitted when it is a credential.
// It returns where the scan goes on.
func (sc *scanner) keyValue(i int) int {
	s := sc.s
	next := i + 1
	if next < len(s) && s[next] == '=' {
		return next + 1 // "==" and ":=" are operators, not assignments
	}
	if s[i] == '=' && next < len(s) && s[next] == '>' {
		next++ // "key => value", as Ruby and PHP print a hash
	}
	key, jsonKey, start := sc.keyBefore(i)
	if key == "" {
		return next
	}
	st := sc.pairStrength(key, start, i)
	if st == notSecret {
		return next
	}
	v := skipBlanks(s, next)
	if e, ok := sc.pem(v); ok {
		return e // "private_key: -----BEGIN …": the block, not its first line
	}
	if s[i] == ':' {
		if e, ok := sc.colonValue(v, key, st); ok {
			return e
		}
	}
	e := sc.value(v, st, jsonKey, v > next, numericKey(key))
	if sc.inURL && e > sc.urlEnd && sc.lo == sc.urlEnd {
		// The value ran past the end of the URL it began in and was cut
		// there: what follows the URL is text to scan, not the value.
		return sc.lo
	}
	return max(e, next)
}

// pairStrength returns the strength of key, which starts at s[start], as
// the key of the pair whose separator is s[i]: its own, or strong for the
// response= of a Digest authorization, which holds its credentials.
func (sc *scanner) pairStrength(key string, start, i int) strength {
	st := sc.strengthBefore(key, start)
	if st == notSecret && i < sc.digestEnd && strings.EqualFold(key, "response") {
		return strongKey
	}
	return st
}

// colonValue judges the values that only a colon introduces, which start
// at s[v]: a YAML value on the next line, and the cookies of a Cookie or
// Set-Cookie header. It reports whether there was one.
func (sc *scanner) colonValue(v int, key string, st strength) (int, bool) {
	if e, ok := sc.nextLine(v, st); ok {
		return e, true
	}
	if isCookieHeader(key) && startsPair(sc.s, v) {
		return sc.cookies(v, len(key) > len("cookie")), true
	}
	return 0, false
}

// keyBefore returns the key that ends at the separator s[i], past blanks:
// a quoted key ("token": or 'token':) or a run of key bytes (token=). jsonKey
// reports a key in double quotes before a colon, a JSON object's key, whose
// bare value is replaced by a quoted marker. start is where the key, or its
// opening quote, starts.
func (sc *scanner) keyBefore(i int) (key string, jsonKey bool, start int) {
	s, lo := sc.s, sc.lo
	j := i
	for j > lo && i-j < maxKeyScan && isBlank(s[j-1]) {
		j--
	}
	if j > lo && (s[j-1] == '"' || s[j-1] == '\'') {
		return sc.quotedKeyBefore(i, j)
	}
	return sc.bareKeyBefore(i, j)
}

// quotedKeyBefore returns, as keyBefore does, the quoted key whose closing
// quote is s[j-1], before the separator s[i].
func (sc *scanner) quotedKeyBefore(i, j int) (key string, jsonKey bool, start int) {
	s, lo := sc.s, sc.lo
	q := s[j-1]
	open := j - 2
	// A quoted key is on one line: a quote a line above is another
	// string's, and how far it is would change as that one is scrubbed.
	for open >= lo && j-open < maxKeyScan && s[open] != q && s[open] != '\n' {
		open--
	}
	if open < lo || s[open] != q {
		return "", false, 0
	}
	// In \"token\": the key is JSON escaped inside a string; a bare value
	// there would not be JSON, so no quotes are added.
	escaped := j >= 2 && s[j-2] == '\\'
	return s[open+1 : j-1], q == '"' && s[i] == ':' && !escaped, open
}

// bareKeyBefore returns, as keyBefore does, the run of key bytes that ends
// at s[j], before the separator s[i].
func (sc *scanner) bareKeyBefore(i, j int) (key string, jsonKey bool, start int) {
	s := sc.s
	k := j
	for k > sc.lo && i-k < maxKeyScan && isKeyByte(s[k-1]) {
		k--
	}
	k = afterEscape(s, k, j) // "\npassword=" in JSON text is "password="
	if s[i] == ':' && k > 0 && (s[k-1] == ':' || s[k-1] == '/') {
		// Before a colon, "tool:reset_password: not found" is a qualified
		// name, such as the operation of a log record, and "open
		// /etc/passwd: permission denied" the last segment of a path, as
		// Go's PathError prints it: neither is a key and its value.
		return "", false, 0
	}
	return s[k:j], false, k
}

// bareEnd returns the end of the bare value that starts at s[v]: the first
// byte that ends a value, or a colon before a blank or the end, which is how
// Go's "%s: %w" joins a message to its cause ("password=x: refused").
func bareEnd(s string, v int) int {
	e := v
	for e < len(s) && !endsValue(s[e]) && !escapedBreak(s, e) {
		if s[e] == ':' && (e+1 == len(s) || s[e+1] <= ' ') {
			break
		}
		e++
	}
	return e
}

// afterEscape returns where a run of key or word bytes that starts at s[k]
// and ends at s[j] really starts: after the escape letter when a backslash
// precedes it, as in JSON text ("\npassword=", "\u0026api_key="), and at k
// otherwise.
func afterEscape(s string, k, j int) int {
	if k == 0 || s[k-1] != '\\' {
		return k
	}
	return escapeEnd(s, k, j)
}

// escapeEnd is afterEscape after a backslash, kept out of it so that the
// common case, no backslash, inlines.
func escapeEnd(s string, k, j int) int {
	if k >= j {
		return k
	}
	switch s[k] {
	case 'n', 'r', 't', 'b', 'f':
		return k + 1
	case 'u':
		if k+5 <= j && isHex(s[k+1]) && isHex(s[k+2]) && isHex(s[k+3]) && isHex(s[k+4]) {
			return k + 5
		}
	}
	return k
}

// escapedBreak reports whether s[i:] starts with a line break as JSON
// escapes it, \n or \r.
func escapedBreak(s string, i int) bool {
	return s[i] == '\\' && i+1 < len(s) && (s[i+1] == 'n' || s[i+1] == 'r')
}

// startsPair reports whether a key and its '=' start at s[k] ("user=ann"):
// a run of key bytes, shorter than maxKeyScan, then '=' but not "==". A
// colon is not enough: "password: correct horse: refused" is how Go joins
// a message to its cause, and the colon before the blank ends the value
// anyway.
func startsPair(s string, k int) bool {
	e := k
	for e < len(s) && e-k < maxKeyScan && isKeyByte(s[e]) {
		e++
	}
	return e > k && e < len(s) && s[e] == '=' && (e+1 == len(s) || s[e+1] != '=')
}

// closing returns the index after the bracket that closes the one at s[v],
// skipping brackets inside double-quoted strings, or len(s).
func closing(s string, v int) int {
	depth := 0
	for e := v; e < len(s); e++ {
		switch s[e] {
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return e + 1
			}
		case '"':
			for e++; e < len(s) && s[e] != '"'; e++ {
				if s[e] == '\\' {
					e++
				}
			}
		}
	}
	return len(s)
}
