package schema

import (
	"encoding/json"
	"math"
	"math/big"
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
// D·10^a and m = M·10^b (D, M integers): v/m = D·10^(a−b)/M. When a ≥ b,
// that is an integer iff M divides D·10^(a−b) mod M, computed by modular
// exponentiation whatever a−b; when a < b and 10^(b−a) alone outgrows D,
// only zero is a multiple. So the work is bounded by the length of the
// text, never by its exponent.
func multipleOf(v any, m *bound) bool {
	f, exact := floatOf(v)
	if exact && isExactBound(f) && isExactBound(m.f) && m.f != 0 {
		return math.Mod(f, m.f) == 0
	}
	d, md := parseDecimal(textOf(v)), parseDecimal(m.text)
	if d.zero() {
		return true
	}
	if md.zero() {
		return false
	}
	// Integers D and M, and the exponents of their last digits.
	D, a := integerOf(d)
	M, b := integerOf(md)
	if a >= b {
		ten := new(big.Int).Exp(big.NewInt(10), big.NewInt(a-b), M)
		r := new(big.Int).Mul(D, ten)
		return r.Mod(r, M).Sign() == 0
	}
	shift := b - a
	if shift > int64(d.n())+1 {
		return false // M·10^shift > |D| > 0
	}
	div := new(big.Int).Mul(M, new(big.Int).Exp(big.NewInt(10), big.NewInt(shift), nil))
	return new(big.Int).Mod(D, div).Sign() == 0
}

// integerOf returns the digits of d as a non-negative integer and the
// exponent of its last digit: |d| = D·10^e.
func integerOf(d decimal) (*big.Int, int64) {
	D, _ := new(big.Int).SetString(d.int+d.frac, 10)
	return D, d.exp - int64(d.n())
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

// maxNumberDigits bounds the digits of an integer in a message.
const maxNumberDigits = 64
