package redact

import "unicode/utf8"

// metaWords, as the last of several words of a key, make it name something
// about a secret rather than the secret ("token_type",
// "password_min_length", "cookie_name", "token_url"). All are lower-case
// ASCII, at most maxWordLen bytes long.
var metaWords = map[string]bool{
	"type": true, "types": true, "kind": true, "count": true, "length": true, "len": true,
	"size": true, "ttl": true, "age": true, "expiry": true, "expires": true, "expiration": true,
	"lifetime": true, "at": true, "in": true, "url": true, "uri": true, "endpoint": true,
	"path": true, "file": true, "name": true, "names": true, "policy": true, "format": true,
	"prefix": true, "header": true, "version": true, "status": true, "state": true,
	"strength": true, "mode": true, "method": true, "scheme": true, "rotation": true,
	"min": true, "max": true, "days": true, "hours": true, "minutes": true, "seconds": true,
	"enabled": true, "disabled": true, "required": true,
}

// isMetaWord reports whether w, lower-cased and folded from full width, is
// one of metaWords.
func isMetaWord(w string) bool {
	var buf [maxWordLen]byte
	n := 0
	for _, r := range w {
		r = toLower(r)
		if r >= utf8.RuneSelf || n == len(buf) {
			return false
		}
		buf[n] = byte(r)
		n++
	}
	if n == 0 {
		return false
	}
	for _, m := range metaByLen[n] {
		if m[0] == buf[0] && string(buf[1:n]) == m[1:] {
			return true
		}
	}
	return false
}

// metaByLen holds metaWords by length, compared as wordsByLen's are.
var metaByLen = func() (by [maxWordLen + 1][]string) {
	for w := range metaWords {
		by[len(w)] = append(by[len(w)], w)
	}
	return by
}()

// endsWithMetaWord reports whether name has several words and its last is
// one of metaWords.
func endsWithMetaWord(name string) bool {
	if w, several, ok := lastASCIIWord(name); ok {
		return several && isMetaWord(w)
	}
	last, words := "", 0
	eachWord(name, func(start, end int) bool {
		last = name[start:end]
		words++
		return true
	})
	return words > 1 && isMetaWord(last)
}

// lastASCIIWord returns the last word of name as eachWord bounds it, and
// whether a word comes before it, reading name backwards; ok is false when
// the bytes it reads are not all ASCII, for eachWord to decide.
func lastASCIIWord(name string) (w string, several, ok bool) {
	e := len(name)
	for e > 0 && !isAlnumByte(name[e-1]) {
		if name[e-1] >= utf8.RuneSelf {
			return "", false, false
		}
		e--
	}
	b := e
	for b > 0 && isAlnumByte(name[b-1]) {
		b--
	}
	if b > 0 && name[b-1] >= utf8.RuneSelf {
		return "", false, false
	}
	if start := lastHump(name, b, e); start > b {
		return name[start:e], true, true
	}
	if several, ok = alnumBefore(name, b); !ok {
		return "", false, false
	}
	return name[b:e], several, true
}

// lastHump returns where the last word of the run of letters and digits
// name[b:e] starts, as eachWord splits camel case: at a capital after a
// lower-case letter or a digit ("apiKey", "oauth2Token"), or at the last
// capital of a run of them that a lower-case letter follows ("APIKey"); b
// when the run is one word.
func lastHump(name string, b, e int) int {
	for p := e - 1; p > b; p-- {
		c, prev := name[p], name[p-1]
		if isUpperByte(c) && (prev >= 'a' && prev <= 'z' || prev >= '0' && prev <= '9' ||
			isUpperByte(prev) && p+1 < e && name[p+1] >= 'a' && name[p+1] <= 'z') {
			return p
		}
	}
	return b
}

// alnumBefore reports whether a letter or digit comes before name[b],
// reading forwards; ok is false when a byte it reads first is not ASCII.
func alnumBefore(name string, b int) (several, ok bool) {
	for i := 0; i < b; i++ {
		if name[i] >= utf8.RuneSelf {
			return false, false
		}
		if isAlnumByte(name[i]) {
			return true, true
		}
	}
	return false, true
}

func isAlnumByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isUpperByte(c byte) bool { return c >= 'A' && c <= 'Z' }
