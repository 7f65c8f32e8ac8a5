package redact

import (
	"unicode"
	"unicode/utf8"
)

// fold returns s with every Unicode space folded to an ASCII blank (a line
// or paragraph separator to a line break) and every full-width form of
// ASCII (U+FF01 to U+FF5E, "Ｐａｓｓｗｏｒｄ＝") to its ASCII byte, so that
// the scanner, which reads ASCII, judges "password:\u2003x" and
// "Ｐａｓｓｗｏｒｄ: x" as it does "password: x". at maps each byte offset
// of the folded text, and its length, to the offset in s. ok is false, and
// nothing is allocated, when s holds none of these: the common case.
func fold(s string) (folded string, at []int, ok bool) {
	first := -1
	for i := 0; i < len(s); i++ {
		for i+8 <= len(s) && s[i]|s[i+1]|s[i+2]|s[i+3]|s[i+4]|s[i+5]|s[i+6]|s[i+7] < utf8.RuneSelf {
			i += 8 // eight ASCII bytes: the common case, read fast
		}
		if i < len(s) && s[i] >= 0xC2 && foldable(s, i) > 0 {
			first = i
			break
		}
	}
	if first < 0 {
		return "", nil, false
	}
	b := make([]byte, 0, len(s))
	at = make([]int, 0, len(s)+1)
	for i := 0; i < first; i++ {
		b = append(b, s[i])
		at = append(at, i)
	}
	for i := first; i < len(s); {
		if s[i] < 0xC2 {
			b = append(b, s[i])
			at = append(at, i)
			i++
			continue
		}
		if n := foldable(s, i); n > 0 {
			r, size := utf8.DecodeRuneInString(s[i:])
			b = append(b, foldRune(r))
			at = append(at, i)
			i += size
			continue
		}
		b = append(b, s[i])
		at = append(at, i)
		i++
	}
	at = append(at, len(s))
	return string(b), at, true
}

// foldable returns the size of the rune at s[i] when fold changes it, and
// 0 otherwise.
func foldable(s string, i int) int {
	switch s[i] {
	case 0xC2, 0xE1, 0xE2, 0xE3, 0xEF: // the lead bytes of every rune fold changes
	default:
		return 0
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	if r >= 0xFF01 && r <= 0xFF5E || r >= 0x80 && unicode.IsSpace(r) {
		return size
	}
	return 0
}

// foldRune returns the ASCII byte that stands for r, a rune foldable
// reports.
func foldRune(r rune) byte {
	switch {
	case r >= 0xFF01 && r <= 0xFF5E:
		return byte(r - (0xFF01 - '!'))
	case r == 0x85 || r == 0x2028 || r == 0x2029:
		return '\n'
	}
	return ' '
}
