package redact

import "strings"

// This file handles the rest of an unquoted value of several words after a
// sensitive key, its region, whose words are judged one by one.

// region makes the words of the unquoted value of several words that
// continues at s[next] (after a first word that ends at s[e]) a region,
// whose words are judged as the scan reaches them. A region that starts
// within the last one computed ends where it does (the same words follow),
// so no byte is read twice to find an end.
func (sc *scanner) region(next, e int) {
	if next >= sc.proseEnd {
		sc.proseEnd = proseEnd(sc.s, next)
	}
	sc.regionEnd = sc.proseEnd
	sc.regionNext = max(sc.regionNext, e)
}

// regionWord judges the word of the region that starts at s[i], once: a
// token-like word is emitted. It returns where the scan goes on, and
// whether it consumed the word; a word it did not consume is scanned as
// any text is.
func (sc *scanner) regionWord(i int) (int, bool) {
	s := sc.s
	if i != sc.regionNext && !isBlank(s[i-1]) {
		return i, false // not the start of a word
	}
	e, embedded := valueWordEnd(s, i)
	sc.regionNext = max(e, i+1)
	if embedded {
		// A marker within the word: a span was emitted inside it when
		// it was first scrubbed, which ended the region there.
		sc.regionEnd = i
		return i, false
	}
	a, b := trimmedWord(s, i, e)
	if b-a == len(Marker) && s[a:b] == Marker {
		sc.lo = max(sc.lo, b)
		return e, true
	}
	if tokenLike(s[i:e]) {
		sc.emit(a, b, false)
		return e, true
	}
	return i, false
}

// wholeWord reports whether s[start:end] is a whole word of a region, as
// regionWord bounds it, punctuation around it aside.
func (sc *scanner) wholeWord(start, end int) bool {
	s := sc.s
	if start > 0 && !isBlank(s[start-1]) && start != sc.regionNext {
		return false
	}
	e, embedded := valueWordEnd(s, start)
	a, b := trimmedWord(s, start, e)
	return !embedded && a == start && b == end
}

// trimmedWord returns the bounds of the word s[v:e] without the punctuation
// around it that trimWord drops.
func trimmedWord(s string, v, e int) (int, int) {
	for v < e && s[v] == '(' {
		v++
	}
	for e > v && isWordTrail(s[e-1]) {
		e--
	}
	return v, e
}

// proseEnd returns the end of the unquoted value of several words that
// starts at s[v] after a separator and blanks ("password: it must …"): its
// words run on across blanks, since prose, headers and configuration files
// do not quote a value with spaces, up to the end of the line (a control
// character, or \n or \r as JSON escapes them), a byte that ends a bare
// value, a colon before a blank, or the blanks before a word that starts
// another pair ("user=ann") or a PEM block. Trailing blanks are not part of
// the value.
func proseEnd(s string, v int) int {
	end := v
	for e := v; ; {
		if startsPair(s, e) {
			return end // "password= user=ann" has an empty value
		}
		w, _ := valueWordEnd(s, e)
		if w == e {
			return end
		}
		end = w
		next, more := nextValueWord(s, w)
		if !more {
			return end
		}
		e = next
	}
}

// valueWordEnd returns the end of the word of an unquoted value that starts
// at s[e]: the first blank, byte that ends a value, line break or colon
// before a blank. A marker of an earlier scrub is part of the word, not
// the end of it; embedded reports one that does not start the word or is
// followed by more than punctuation: a span was emitted within the word.
func valueWordEnd(s string, e int) (end int, embedded bool) {
	start := e
	for e < len(s) {
		if s[e] == '[' && strings.HasPrefix(s[e:], Marker) {
			if e != start {
				embedded = true
			}
			e += len(Marker)
			continue
		}
		if endsValue(s[e]) || escapedBreak(s, e) || s[e] == ':' && (e+1 == len(s) || s[e+1] <= ' ') {
			break
		}
		e++
	}
	if !embedded && e-start > len(Marker) && strings.HasPrefix(s[start:], Marker) {
		a, b := trimmedWord(s, start, e)
		embedded = b-a != len(Marker)
	}
	return e, embedded
}

// nextValueWord returns where the next word of an unquoted value of several
// words starts after the word that ends at s[w], and whether there is one:
// not when a line break, a byte that ends a value, a colon before a blank
// or a PEM block comes first, nor at a word that starts another pair.
func nextValueWord(s string, w int) (int, bool) {
	k := w
	for k < len(s) && isBlank(s[k]) {
		k++
	}
	if k == w || k == len(s) || endsValue(s[k]) || escapedBreak(s, k) || strings.HasPrefix(s[k:], pemBegin) || startsPair(s, k) {
		return k, false
	}
	return k, true
}
