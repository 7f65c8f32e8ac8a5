package redact

import "strings"

// This file decides whether a word, or a value, is a credential.

// trimWord returns w without the punctuation that ends a clause or closes
// a parenthesis after it, and without an opening parenthesis before it:
// "(abc123)." is abc123. '!' and '?' stay: passwords end with them more
// often than sentences around a credential do.
func trimWord(w string) string {
	for len(w) > 0 && w[0] == '(' {
		w = w[1:]
	}
	for len(w) > 0 && isWordTrail(w[len(w)-1]) {
		w = w[:len(w)-1]
	}
	return w
}

func isWordTrail(c byte) bool { return c == '.' || c == ',' || c == ';' || c == ':' || c == ')' }

// tokenLike reports whether w, a word in the value of a sensitive key, is a
// credential whatever the words around it: eight bytes or more, not made
// of words, and mixing kinds of bytes or sixteen bytes long ("Q7x9…",
// "3f2b8c1e…"). Names, numbers, paths and placeholders are not.
func tokenLike(w string) bool {
	w = trimWord(w)
	if len(w) < 8 || plainWord(w) || formatLike(w) {
		return false
	}
	sh := shapeOf(w)
	return sh.random() && (sh.classes() >= 2 || len(w) >= 16)
}

// longRandom reports whether w is a credential wherever it stands: 32
// bytes or more of base64 or base64url, mixing capitals, lower-case letters
// and digits, and far from made of words (an AWS secret access key, an Azure
// account key, most opaque API keys and session tokens).
func longRandom(w string) bool {
	w = strings.TrimRight(w, "=")
	if len(w) < 32 {
		return false
	}
	// With no key to say what the word is, the bar is higher than
	// random's: random base64 of this length is odd in two pairs of three,
	// long identifiers and paths in fewer than one of three.
	sh := shapeOf(w)
	return sh.upper > 0 && sh.lower > 0 && sh.digit > 0 && sh.odd*20 >= sh.pairs*9
}

// secretAfterKey reports whether w, the one word of the value of a
// sensitive key, is a credential. After a strong key (password, token,
// api_key) any word is, but a word of prose or a status ("expired",
// "none", "required"), a placeholder ("<token>", "$API_KEY", "****"), a
// name that itself names a secret ("access_token") or a short number (a
// status code); after the weak key "key", only a token-like word is
// ("primary key: id" stays).
func secretAfterKey(w string, st strength, numeric bool) bool {
	w = trimWord(w)
	if w == "" || w == Marker {
		return false
	}
	if st == weakKey {
		return tokenLike(w)
	}
	if plainWord(w) {
		return false
	}
	if allDigits(w) {
		return numeric || len(w) >= 4
	}
	return true
}

// firstWordSecret reports whether w, the first of several words after a
// strong key ("password: hunter2 (expired)"), is a credential: it mixes
// letters with digits or symbols and is not a name, a number, a path, a
// pair, an escape or a format, or it is token-like. A word of prose is not
// ("password: it must …").
func firstWordSecret(w string) bool {
	w = trimWord(w)
	if tokenLike(w) {
		return true
	}
	if len(w) < 6 || strings.IndexFunc(w, isStructural) >= 0 || plainWord(w) || formatLike(w) {
		return false // a path, a placeholder, a bracketed name, a pair
	}
	sh := shapeOf(w)
	return sh.lower+sh.upper > 0 && sh.digit+sh.sym > 0
}

// secretText reports whether v, the whole of a quoted or structured value
// of a sensitive key, is a credential: one word is judged by
// secretAfterKey; several words are a credential after a strong key
// ("correct horse battery staple", "sid=abc; theme=dark") unless they read
// as prose ("must have at least 8 characters"), and never after the weak
// key "key".
func secretText(v string, st strength) bool {
	v = strings.TrimSpace(v)
	if v != Marker && strings.Contains(v, Marker) {
		// An earlier scrub judged this value prose and scrubbed a part
		// of it (a credential would be the marker alone): it is prose
		// still, though the part it scrubbed, a number say, no longer
		// shows it.
		return false
	}
	if strings.IndexFunc(v, isSpaceRune) < 0 {
		return secretAfterKey(v, st, false)
	}
	return st == strongKey && !prose(v)
}

func isSpaceRune(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' }

// prose reports whether several words read as prose rather than as a
// passphrase, a list of pairs or a scheme and its credentials: no '=', and
// a sentence's final punctuation, a number standing alone, a verb form, the
// name of a secret or one of the little words every sentence has ("must",
// "the", "is", "at").
func prose(v string) bool {
	if strings.IndexByte(v, '=') >= 0 {
		return false // pairs ("sid=…; Path=/"), not a sentence
	}
	if c := v[len(v)-1]; c == '.' || c == '!' || c == '?' {
		return true
	}
	for _, w := range strings.Fields(v) {
		w = trimWord(w)
		if allDigits(w) || proseWord(w) || verbForm(w) || nameLike(w) {
			return true
		}
	}
	return false
}

// verbForm reports whether w is a word of letters that ends as a verb form
// does, -ed or -ing ("expired", "missing").
func verbForm(w string) bool {
	if len(w) < 5 {
		return false
	}
	for i := 0; i < len(w); i++ {
		if c := w[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return strings.EqualFold(w[len(w)-2:], "ed") || len(w) >= 6 && strings.EqualFold(w[len(w)-3:], "ing")
}

// isStructural reports whether r is a byte of structure rather than of a
// password written in prose: a slash, a bracket, '=' or an escape.
func isStructural(r rune) bool {
	switch r {
	case '/', '[', ']', '<', '>', '{', '}', '=', '\\':
		return true
	}
	return false
}

func allDigits(w string) bool {
	if w == "" {
		return false
	}
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return true
}
