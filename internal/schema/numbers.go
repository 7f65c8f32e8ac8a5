package schema

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/maphash"
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// Numbers.
//
// A number of the instance is a float64 (decoded by encoding/json, or a
// handler's result) or a json.Number (arguments, decoded with UseNumber so
// that 9007199254740993 stays itself); a bound of the schema is a float64
// (jsonschema-go's type), which JSON Schema reads as the decimal it is
// written as: its shortest representation. Comparisons are exact on those
// decimals: a float64 compare decides every case where the two values round
// to different floats (rounding is monotonic), and the rare ties, such as a
// 17-digit integer against a bound of 2^53, are settled digit by digit on
// the text, without big arithmetic, whose cost a number like 1e-999999999
// would make unbounded. Only multipleOf needs division, and it bounds its
// operands first (see multipleOf).

// bound is a number of the schema: its value and the decimal text it stands
// for, precomputed so that an exact comparison allocates nothing.
type bound struct {
	f    float64
	text string
}

func newBound(f *float64) *bound {
	if f == nil {
		return nil
	}
	return &bound{f: *f, text: strconv.FormatFloat(*f, 'g', -1, 64)}
}

// isNumber reports whether v is a JSON number (or a Go number).
func isNumber(v any) bool {
	return valueType(v) == tNumber
}

// goNumber converts a Go number other than float64 to float64 or, for
// integers, to their exact text as a json.Number.
func goNumber(v any) (any, bool) {
	switch v := v.(type) {
	case int:
		return json.Number(strconv.FormatInt(int64(v), 10)), true
	case int8:
		return json.Number(strconv.FormatInt(int64(v), 10)), true
	case int16:
		return json.Number(strconv.FormatInt(int64(v), 10)), true
	case int32:
		return json.Number(strconv.FormatInt(int64(v), 10)), true
	case int64:
		return json.Number(strconv.FormatInt(v, 10)), true
	case uint:
		return json.Number(strconv.FormatUint(uint64(v), 10)), true
	case uint8:
		return json.Number(strconv.FormatUint(uint64(v), 10)), true
	case uint16:
		return json.Number(strconv.FormatUint(uint64(v), 10)), true
	case uint32:
		return json.Number(strconv.FormatUint(uint64(v), 10)), true
	case uint64:
		return json.Number(strconv.FormatUint(v, 10)), true
	case float32:
		return json.Number(strconv.FormatFloat(float64(v), 'g', -1, 32)), true
	}
	return v, false
}

// floatOf is the float64 nearest to a number, and whether it is exactly the
// number (a json.Number of at most 15 digits with no fraction or exponent,
// or a float64, which is its own shortest decimal).
func floatOf(v any) (f float64, exact bool) {
	switch v := v.(type) {
	case float64:
		return v, true
	case json.Number:
		s := string(v)
		if len(s) <= 15 && !strings.ContainsAny(s, ".eE") {
			if n, err := strconv.ParseInt(s, 10, 64); err == nil {
				return float64(n), true
			}
		}
		f, _ := strconv.ParseFloat(s, 64) // ±Inf or 0 beyond float64's range
		return f, false
	}
	if g, ok := goNumber(v); ok {
		return floatOf(g)
	}
	return math.NaN(), false
}

// textOf is the decimal text of a number.
func textOf(v any) string {
	switch v := v.(type) {
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case json.Number:
		return string(v)
	}
	if g, ok := goNumber(v); ok {
		return textOf(g)
	}
	return "0"
}

// compareBound compares a number of the instance with a bound: -1, 0 or 1.
func compareBound(v any, b *bound) int {
	f, exact := floatOf(v)
	switch {
	case f < b.f:
		return -1
	case f > b.f:
		return 1
	case exact && isExactBound(b.f):
		return 0
	}
	return compareDecimals(parseDecimal(textOf(v)), parseDecimal(b.text))
}

// isExactBound reports whether f, an integer below 2^53, is its own
// shortest decimal.
func isExactBound(f float64) bool {
	return f == math.Trunc(f) && math.Abs(f) < 1<<53
}

// equalNumbers reports whether two numbers are the same decimal (1 and 1.0
// are).
func equalNumbers(a, b any) bool {
	fa, ea := floatOf(a)
	fb, eb := floatOf(b)
	if fa != fb {
		return false
	}
	if ea && eb {
		return true
	}
	return compareDecimals(parseDecimal(textOf(a)), parseDecimal(textOf(b))) == 0
}

// isInteger reports whether a number has no fractional part.
func isInteger(v any) bool {
	switch v := v.(type) {
	case float64:
		return v == math.Trunc(v) && !math.IsInf(v, 0)
	case json.Number:
		if !strings.ContainsAny(string(v), ".eE") {
			return true
		}
		return parseDecimal(string(v)).isInteger()
	}
	if g, ok := goNumber(v); ok {
		return isInteger(g)
	}
	return false
}

// decimal is a parsed decimal number: ±0.d₁d₂…dₙ × 10^exp, where the digits
// are those of int followed by those of frac (kept as two slices of the
// text, so that parsing allocates nothing), without leading or trailing
// zeros. Zero has no digits.
type decimal struct {
	neg       bool
	int, frac string
	exp       int64 // the position of the point after the first digit, saturated
}

func (d decimal) n() int { return len(d.int) + len(d.frac) }

func (d decimal) digit(i int) byte {
	if i < len(d.int) {
		return d.int[i]
	}
	return d.frac[i-len(d.int)]
}

func (d decimal) zero() bool { return d.n() == 0 }

// isInteger reports whether no digit lies after the point.
func (d decimal) isInteger() bool { return d.zero() || int64(d.n()) <= d.exp }

// maxExp saturates exponents: beyond it, a number is beyond any bound or
// any other number a schema holds.
const maxExp = 1 << 40

// parseDecimal parses a JSON number's text (valid JSON syntax, or Go's 'g'
// format of a float).
func parseDecimal(s string) decimal {
	var d decimal
	if strings.HasPrefix(s, "-") {
		d.neg, s = true, s[1:]
	} else if strings.HasPrefix(s, "+") {
		s = s[1:]
	}
	mant, expText := s, ""
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant, expText = s[:i], s[i+1:]
	}
	ip, fp, _ := strings.Cut(mant, ".")
	var e int64
	if expText != "" {
		neg := false
		if expText[0] == '-' || expText[0] == '+' {
			neg, expText = expText[0] == '-', expText[1:]
		}
		for i := 0; i < len(expText); i++ {
			if e < maxExp {
				e = e*10 + int64(expText[i]-'0')
			}
		}
		e = min(e, maxExp)
		if neg {
			e = -e
		}
	}
	// The point sits after ip: exp is len(ip) + e, less the leading zeros
	// removed below.
	exp := int64(len(ip)) + e
	trimmed := strings.TrimLeft(ip, "0")
	exp -= int64(len(ip) - len(trimmed))
	ip = trimmed
	if ip == "" {
		t := strings.TrimLeft(fp, "0")
		exp -= int64(len(fp) - len(t))
		fp = t
	}
	if fp = strings.TrimRight(fp, "0"); fp == "" {
		ip = strings.TrimRight(ip, "0")
	}
	d.int, d.frac, d.exp = ip, fp, exp
	if d.zero() {
		d.neg, d.exp = false, 0
	}
	return d
}

// compareDecimals compares two decimals: -1, 0 or 1.
func compareDecimals(a, b decimal) int {
	sa, sb := a.sign(), b.sign()
	if sa != sb {
		return cmpInt(sa, sb)
	}
	if sa == 0 {
		return 0
	}
	m := compareMagnitudes(a, b)
	if a.neg {
		return -m
	}
	return m
}

func (d decimal) sign() int {
	switch {
	case d.zero():
		return 0
	case d.neg:
		return -1
	}
	return 1
}

// compareMagnitudes compares |a| and |b|, both non-zero.
func compareMagnitudes(a, b decimal) int {
	if a.exp != b.exp {
		return cmpInt(a.exp, b.exp)
	}
	for i := 0; i < min(a.n(), b.n()); i++ {
		if c := cmpInt(a.digit(i), b.digit(i)); c != 0 {
			return c
		}
	}
	return cmpInt(a.n(), b.n())
}

func cmpInt[T int | int64 | byte](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// multipleOf reports whether v is an integer multiple of m (m > 0). Small
// integers take a fast path; the rest is exact on the decimals, with v =
// D·10^a and m = M·10^b (D and M integers whose last digit is not 0):
// v/m = D·10^(a−b)/M. When a < b, 10^(b−a) would have to divide D, whose
// last digit is not 0: only zero is such a multiple. Otherwise v/m is an
// integer iff M divides (D mod M)·(10^(a−b) mod M); M has at most 17
// digits (m is a float64's shortest decimal), so D mod M is taken digit by
// digit in uint64 and 10^(a−b) mod M by modular exponentiation: the work is
// linear in the length of the text, whatever its exponent (big.Int's
// parsing of D alone is quadratic in its digits).
func multipleOf(v any, m *bound) bool {
	f, exact := floatOf(v)
	if exact && isExactBound(f) && isExactBound(m.f) && m.f != 0 {
		return math.Mod(f, m.f) == 0
	}
	d, md := parseDecimal(textOf(v)), parseDecimal(m.text)
	if d.zero() {
		return true
	}
	if md.zero() || md.n() > 18 {
		return false // not a float64's shortest decimal: no bound is
	}
	a, b := d.exp-int64(d.n()), md.exp-int64(md.n())
	if a < b {
		return false
	}
	M := digitsMod(md, math.MaxUint64)
	if M == 1 {
		return true
	}
	return mulMod(digitsMod(d, M), powMod(10, uint64(a-b), M), M) == 0
}

// digitsMod is the integer of d's digits modulo m (m < 10^18, so that no
// step overflows).
func digitsMod(d decimal, m uint64) uint64 {
	var r uint64
	for i := range d.n() {
		r = (r*10 + uint64(d.digit(i)-'0')) % m
	}
	return r
}

// mulMod is a·b mod m, for a, b < m.
func mulMod(a, b, m uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	_, r := bits.Div64(hi, lo, m)
	return r
}

// powMod is x^e mod m (m > 1).
func powMod(x, e, m uint64) uint64 {
	r, x := uint64(1), x%m
	for ; e > 0; e >>= 1 {
		if e&1 == 1 {
			r = mulMod(r, x, m)
		}
		x = mulMod(x, x, m)
	}
	return r
}

// formatNumber renders a number in a message as JSON Schema reads it: an
// integer with all its digits (at most maxNumberDigits, beyond which it is
// cut), anything else as the shortest float.
func formatNumber(v any) string {
	switch v := v.(type) {
	case float64:
		if v == math.Trunc(v) && !math.IsInf(v, 0) {
			return strconv.FormatFloat(v, 'f', -1, 64)
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	case *bound:
		return formatNumber(v.f)
	case json.Number:
		d := parseDecimal(string(v))
		if !d.isInteger() {
			f, _ := strconv.ParseFloat(string(v), 64)
			return strconv.FormatFloat(f, 'g', -1, 64)
		}
		if d.zero() {
			return "0"
		}
		var b strings.Builder
		if d.neg {
			b.WriteByte('-')
		}
		for i := int64(0); i < d.exp; i++ {
			if i == maxNumberDigits {
				b.WriteString("…")
				break
			}
			if i < int64(d.n()) {
				b.WriteByte(d.digit(int(i)))
			} else {
				b.WriteByte('0')
			}
		}
		return b.String()
	}
	if g, ok := goNumber(v); ok {
		return formatNumber(g)
	}
	return "?"
}

// hashNumber hashes a number by its exact decimal value, so that equal
// numbers (1, 1.0, 10e-1) hash alike and different ones do not, even where
// one float64 cannot tell them apart (1e400 and 2e400 are both +Inf): the
// sign, the exponent and the digits of the canonical decimal, in work
// linear in its text. A float64 stands for its shortest decimal, whose
// digits its 'e' format writes.
func hashNumber(h *maphash.Hash, v any) {
	var buf [40]byte
	h.WriteByte(3)
	if f, ok := v.(float64); ok {
		t := strconv.AppendFloat(buf[:0], f, 'e', -1, 64) // [-]d[.ddd]e±dd
		if f == 0 || math.IsInf(f, 0) || math.IsNaN(f) {
			h.Write(t[len(t)-min(len(t), 4):]) // 0, ±Inf, NaN: no JSON number is the latter two
			return
		}
		neg := t[0] == '-'
		if neg {
			t = t[1:]
		}
		e := bytes.IndexByte(t, 'e')
		exp := int64(0)
		for _, c := range t[e+2:] {
			exp = exp*10 + int64(c-'0')
		}
		if t[e+1] == '-' {
			exp = -exp
		}
		writeDecimalHeader(h, neg, exp+1)
		h.WriteByte(t[0])
		if e > 1 {
			h.Write(t[2:e])
		}
		return
	}
	d := parseDecimal(textOf(v))
	if d.zero() {
		h.WriteString("0")
		return
	}
	writeDecimalHeader(h, d.neg, d.exp)
	h.WriteString(d.int)
	h.WriteString(d.frac)
}

// writeDecimalHeader writes the sign and exponent of a non-zero decimal.
func writeDecimalHeader(h *maphash.Hash, neg bool, exp int64) {
	var b [9]byte
	if neg {
		b[0] = '-'
	} else {
		b[0] = '+'
	}
	binary.LittleEndian.PutUint64(b[1:], uint64(exp))
	h.Write(b[:])
}

// maxNumberDigits bounds the digits of an integer in a message.
const maxNumberDigits = 64
