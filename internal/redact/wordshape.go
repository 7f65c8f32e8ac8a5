package redact

// This file measures the shape of a word: the kinds of bytes it mixes, and
// whether it is made of words or random, as a credential is. It works on
// ASCII (the scanner has folded Unicode spacing and full-width forms by
// then) in one pass over the word.

// A wordShape is what one pass over a word tells about it.
type wordShape struct {
	n                        int
	lower, upper, digit, sym int
	// innerUpper counts capitals after the first byte: "Unauthorized" has
	// none, "aB3" has one.
	innerUpper int
	// hex says every byte is a hexadecimal digit.
	hex bool
	// pairs counts the pairs of adjacent letters and digits, and odd the
	// pairs among them that words seldom have: a letter next to a digit,
	// two letters that rarely follow each other in English, and (for
	// half) a capital after a lower-case letter, a camel hump. Both count
	// in halves.
	pairs, odd int
}

// shapeOf returns the shape of w.
func shapeOf(w string) wordShape {
	sh := wordShape{n: len(w), hex: true}
	var prev byte // the class of the previous byte
	for i := 0; i < len(w); i++ {
		c := w[i]
		cls := sh.count(c, i)
		if !isHex(c) {
			sh.hex = false
		}
		if i > 0 && cls != 's' && prev != 's' {
			sh.pairs += 2
			sh.odd += oddness(prev, cls, w[i-1], c)
		}
		prev = cls
	}
	return sh
}

// count counts c, the byte of the word at index i, in sh, and returns its
// class: 'l' for a lower-case letter, 'u' for a capital, 'd' for a digit
// and 's' for anything else.
func (sh *wordShape) count(c byte, i int) byte {
	switch {
	case c >= 'a' && c <= 'z':
		sh.lower++
		return 'l'
	case c >= 'A' && c <= 'Z':
		sh.upper++
		if i > 0 {
			sh.innerUpper++
		}
		return 'u'
	case c >= '0' && c <= '9':
		sh.digit++
		return 'd'
	}
	if c != '_' && c != '-' && c != '.' {
		sh.sym++
	}
	return 's'
}

// oddness returns how odd for words the pair of adjacent letters or digits
// a, b is, in halves (see wordShape); pc and cls are their classes.
func oddness(pc, cls, a, b byte) int {
	switch {
	case cls == 'd' && pc == 'd':
		return 0
	case cls == 'd' || pc == 'd':
		return 2
	case pc == 'l' && cls == 'u':
		return 1
	case !commonPair(a, b):
		return 2
	}
	return 0
}

// random reports whether a word is not made of words: hexadecimal digits
// that mix letters and digits, or a word whose pairs of adjacent bytes are
// odd for words (see wordShape) in a proportion that words, names and
// identifiers ("login_user", "utf8mb4_general_ci", "oauth2Token") stay
// well below and random strings well above: one in three. A word without
// letters is not random.
func (sh wordShape) random() bool {
	if sh.hex && sh.n >= 8 && sh.digit > 0 && sh.digit < sh.n {
		return true
	}
	return sh.lower+sh.upper > 0 && sh.pairs > 0 && sh.odd*20 >= sh.pairs*7
}

// commonPair reports whether the letters a and b, in any case, are a pair
// that English words often have.
func commonPair(a, b byte) bool {
	a, b = a|0x20, b|0x20
	return pairsAfter[a-'a']&(1<<(b-'a')) != 0
}

// commonPairs lists, for each letter, the letters that often follow it in
// English words: the pairs that make up 95% of the pairs in the distinct
// words of the Go source tree's doc comments (words of three letters or
// more, seen five times or more).
var commonPairs = [26]string{
	"bcdgiklmnprstuvy",    // a
	"aeilorsu",            // b
	"acehiklorstu",        // c
	"adeilorsu",           // d
	"abcdefgilmnpqrstvwx", // e
	"aefilorsu",           // f
	"aehilnorsu",          // g
	"aeiort",              // h
	"abcdefglmnoprstvxz",  // i
	"",                    // j
	"eis",                 // k
	"adeilostuy",          // l
	"abeimopsu",           // m
	"acdefgiklnostuv",     // n
	"abcdfgilmnoprstuvw",  // o
	"aehiloprstu",         // p
	"u",                   // q
	"acdefgiklmnoprstuvy", // r
	"acehilmopstuy",       // s
	"acehiloprstuy",       // t
	"abcefgilmnprst",      // u
	"aei",                 // v
	"aeinor",              // w
	"eipt",                // x
	"nps",                 // y
	"e",                   // z
}

// pairsAfter is commonPairs as bit sets.
var pairsAfter = func() (by [26]uint32) {
	for a, bs := range commonPairs {
		for i := 0; i < len(bs); i++ {
			by[a] |= 1 << (bs[i] - 'a')
		}
	}
	return by
}()

// classes counts the kinds of bytes a word mixes: lower-case letters,
// capitals after the first byte, digits and symbols.
func (sh wordShape) classes() int {
	n := 0
	for _, k := range []int{sh.lower, sh.innerUpper, sh.digit, sh.sym} {
		if k > 0 {
			n++
		}
	}
	return n
}
