package raises

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// wrappedArgs returns the indexes of the arguments after the format that
// its %w verbs wrap, or nil when the format cannot be read with certainty.
func wrappedArgs(format string) []int {
	var wrapped []int
	v := &verbScanner{format: format}
	for ; v.i < len(format); v.i++ {
		if format[v.i] != '%' {
			continue
		}
		v.i++
		if !v.spec() {
			return nil
		}
		if v.i >= len(format) {
			break
		}
		verb, size := utf8.DecodeRuneInString(format[v.i:])
		v.i += size - 1
		switch verb {
		case '%':
			continue
		case 'w':
			wrapped = append(wrapped, v.arg)
		}
		v.arg++
	}
	return wrapped
}

// A verbScanner reads what stands between a format's % and its verb as fmt
// does, to know which argument each verb takes.
type verbScanner struct {
	format string
	i      int // the byte being read
	arg    int // the argument the next verb takes
}

// spec reads the flags, argument indexes, width and precision after a %,
// stopping at the verb; false when they cannot be read with certainty.
func (v *verbScanner) spec() bool {
	for v.i < len(v.format) && strings.IndexByte("+-# 0", v.format[v.i]) >= 0 {
		v.i++
	}
	if !v.index() {
		return false
	}
	v.number()
	if v.i < len(v.format) && v.format[v.i] == '.' {
		v.i++
		if !v.index() {
			return false
		}
		v.number()
	}
	return v.index()
}

// index reads an explicit argument index such as [2]; false when it is
// malformed.
func (v *verbScanner) index() bool {
	if v.i >= len(v.format) || v.format[v.i] != '[' {
		return true
	}
	end := strings.IndexByte(v.format[v.i:], ']')
	if end < 0 {
		return false
	}
	n, err := strconv.Atoi(v.format[v.i+1 : v.i+end])
	if err != nil || n < 1 {
		return false
	}
	v.arg = n - 1
	v.i += end + 1
	return true
}

// number reads a width or precision, * taking an argument.
func (v *verbScanner) number() {
	if v.i < len(v.format) && v.format[v.i] == '*' {
		v.arg++
		v.i++
		return
	}
	for v.i < len(v.format) && '0' <= v.format[v.i] && v.format[v.i] <= '9' {
		v.i++
	}
}
