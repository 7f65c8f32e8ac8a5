package redact

import "strings"

// keyValue handles the separator s[i], '=' or ':': when the key left of it
// is sensitive, the value right of it is emitted. It returns where the scan
// goes on.
func (sc *scanner) keyValue(i int) int {
	s := sc.s
	next := i + 1
	if next < len(s) && s[next] == '=' {
		return next + 1 // "==" and ":=" are operators, not assignments
	}
	if s[i] == '=' && next < len(s) && s[next] == '>' {
		next++ // "key => value", as Ruby and PHP print a hash
	}
	key, jsonKey := sc.keyBefore(i)
	if key == "" || !keyNamed(key) {
		return next
	}
	v := next
	for v < len(s) && isBlank(s[v]) {
		v++
	}
	if e, ok := sc.pem(v); ok {
		return e // "private_key: -----BEGIN …": the block, not its first line
	}
	start, end, after, quote := value(s, v, jsonKey, v > next)
	sc.emit(start, end, quote)
	if sc.lo < end {
		// The value ran past the end of the URL it began in and was cut
		// there: what follows the URL is text to scan, not the value.
		return max(sc.lo, next)
	}
	return max(after, next)
}

// keyBefore returns the key that ends at the separator s[i], past blanks:
// a quoted key ("token": or 'token':) or a run of key bytes (token=). jsonKey
// reports a key in double quotes before a colon, a JSON object's key, whose
// bare value is replaced by a quoted marker.
func (sc *scanner) keyBefore(i int) (key string, jsonKey bool) {
	s, lo := sc.s, sc.lo
	j := i
	for j > lo && i-j < maxKeyScan && isBlank(s[j-1]) {
		j--
	}
	if j > lo && (s[j-1] == '"' || s[j-1] == '\'') {
		q := s[j-1]
		open := j - 2
		for open >= lo && j-open < maxKeyScan && s[open] != q {
			open--
		}
		if open < lo || s[open] != q {
			return "", false
		}
		// In \"token\": the key is JSON escaped inside a string; a bare
		// value there would not be JSON, so no quotes are added.
		escaped := j >= 2 && s[j-2] == '\\'
		return s[open+1 : j-1], q == '"' && s[i] == ':' && !escaped
	}
	k := j
	for k > lo && i-k < maxKeyScan && isKeyByte(s[k-1]) {
		k--
	}
	k = afterEscape(s, k, j) // "\npassword=" in JSON text is "password="
	if k > 0 && s[k-1] == ':' && s[i] == ':' {
		// tool:reset_password: not found — a qualified name, such as
		// the operation of a log record, not a key and its value.
		return "", false
	}
	if k > 0 && s[k-1] == '/' && s[i] == ':' {
		// open /etc/passwd: permission denied — the last segment of a
		// path, as Go's PathError prints it, not a key.
		return "", false
	}
	return s[k:j], false
}

// value returns the bounds of the value that starts at s[v], where the scan
// goes on after it, and whether its replacement needs quotes. spaced says
// that blanks stand between the separator and the value, which makes a bare
// value prose (see proseEnd).
func value(s string, v int, jsonKey, spaced bool) (start, end, after int, quote bool) {
	if v >= len(s) {
		return v, v, v, false
	}
	switch c := s[v]; {
	case c == '"' || c == '\'':
		e := v + 1
		for e < len(s) && s[e] != c {
			if s[e] == '\\' && c == '"' {
				e++ // an escaped character, perhaps the quote
			}
			e++
		}
		e = min(e, len(s))
		return v + 1, e, min(e+1, len(s)), false
	case c == '\\':
		// A JSON string escaped inside another, once (\"value\") or more
		// (\\\"value\\\"): it ends at the same run of backslashes and a
		// quote, not preceded by one more backslash.
		b := v
		for b < len(s) && s[b] == '\\' {
			b++
		}
		if b == len(s) || s[b] != '"' {
			break
		}
		closer := s[v : b+1]
		for e := b + 1; ; {
			k := strings.Index(s[e:], closer)
			if k < 0 {
				return b + 1, len(s), len(s), false
			}
			if e+k > b+1 && s[e+k-1] == '\\' {
				e += k + 1 // an escaped backslash run, inside the value
				continue
			}
			return b + 1, e + k, e + k + len(closer), false
		}
	case c == '{' || c == '[':
		// The whole object or array goes; an unclosed one runs to the end.
		e := closing(s, v)
		return v, e, e, jsonKey
	}
	e := bareEnd(s, v)
	if e > v && isScheme(s[v:e]) {
		// "Authorization: Bearer abc": the scheme and its credentials,
		// which are one word, spaced or not; "Authorization: Bearer abc
		// rejected" keeps "rejected".
		k := e
		for k < len(s) && isBlank(s[k]) {
			k++
		}
		if t := bareEnd(s, k); t > k {
			e = t
		}
	} else if spaced {
		e = proseEnd(s, v)
	}
	return v, e, e, jsonKey
}

// bareEnd returns the end of the bare value that starts at s[v]: the first
// byte that ends a value, or a colon before a blank or the end, which is how
// Go's "%s: %w" joins a message to its cause ("password=x: refused").
func bareEnd(s string, v int) int {
	e := v
	for e < len(s) && !endsValue(s[e]) {
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
	if k == 0 || k >= j || s[k-1] != '\\' {
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

// proseEnd returns the end of the bare value that starts at s[v] after a
// separator and blanks ("password = correct horse battery", "X-Api-Key:
// abc"): its words run on across blanks, since prose, headers and
// configuration files do not quote a value with spaces, up to the end of
// the line (a control character, or \n or \r as JSON escapes them), a byte
// that ends a bare value, a colon before a blank, or the blanks before a
// word that starts another pair ("user=ann") or a PEM block.
// Trailing blanks are not part of the value.
func proseEnd(s string, v int) int {
	end := v
	for e := v; ; {
		if startsPair(s, e) {
			return end // "password= user=ann" has an empty value
		}
		w := e
		for w < len(s) && !endsValue(s[w]) && !escapedBreak(s, w) {
			if s[w] == ':' && (w+1 == len(s) || s[w+1] <= ' ') {
				break
			}
			w++
		}
		if w == e {
			return end
		}
		end = w
		k := w
		for k < len(s) && isBlank(s[k]) {
			k++
		}
		if k == w || k == len(s) || endsValue(s[k]) || escapedBreak(s, k) || strings.HasPrefix(s[k:], pemBegin) {
			return end
		}
		e = k
	}
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

// isScheme reports whether a value is an HTTP authorization scheme whose
// credentials follow it after a blank.
func isScheme(w string) bool {
	for _, scheme := range []string{"bearer", "basic", "token", "bot", "digest", "negotiate"} {
		if strings.EqualFold(w, scheme) {
			return true
		}
	}
	return false
}

// url handles the "://" at s[i]: it emits the URL's credentials, notes where
// the URL ends so that its query is judged by the parameter rule, and
// returns the end of the authority.
func (sc *scanner) url(i int) int {
	s := sc.s
	as := i + 3
	if !sc.inURL || sc.urlEnd <= i {
		sc.urlEnd = urlEnd(s, as)
	}
	sc.inURL, sc.inQuery = true, false
	ae := as
	for ae < sc.urlEnd && s[ae] != '/' && s[ae] != '?' && s[ae] != '#' {
		ae++
	}
	if at := strings.LastIndexByte(s[as:ae], '@'); at >= 0 {
		sc.emit(as, as+at, false)
	}
	return ae
}

// param handles the query parameter whose name starts at s[p], in a URL:
// when the name, percent-decoded, is sensitive, the value up to the next '&'
// is emitted. Otherwise the scan goes on inside the parameter, where other
// secrets may hide.
func (sc *scanner) param(p int) int {
	s, end := sc.s, sc.urlEnd
	k := p
	for k < end && s[k] != '=' && s[k] != '&' && s[k] != '#' {
		k++
	}
	if k == end || s[k] != '=' || !keyNamed(s[p:k]) {
		return p
	}
	e := k + 1
	for e < end && s[e] != '&' && s[e] != '#' {
		e++
	}
	sc.emit(k+1, e, false)
	return max(e, k+1)
}

// keyNamed reports whether a key as written in text is sensitive: it is
// percent-decoded first when it holds an escape, as query parameter names
// often do (api%5Fkey).
func keyNamed(k string) bool {
	if !strings.Contains(k, "%") || len(k) > maxKeyScan {
		return Key(k)
	}
	var buf [maxKeyScan]byte
	n := 0
	for i := 0; i < len(k); i++ {
		c := k[i]
		if c == '%' && i+2 < len(k) && isHex(k[i+1]) && isHex(k[i+2]) {
			c = unhex(k[i+1])<<4 | unhex(k[i+2])
			i += 2
		}
		buf[n] = c
		n++
	}
	return Key(string(buf[:n]))
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}
