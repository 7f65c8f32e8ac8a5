package rpcguard

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// An id is a JSON-RPC id the guard accepts: a string, or a whole number
// that the SDK echoes exactly. Two ids are equal when their values are,
// whatever their spelling on the wire (1, 1.0 and 1e0 are one id).
type id struct {
	str   string
	num   int64
	isStr bool
}

// json returns the id as the SDK would write it.
func (i id) json() json.RawMessage {
	if i.isStr {
		b, _ := json.Marshal(i.str) // a valid UTF-8 string always encodes
		return b
	}
	return strconv.AppendInt(nil, i.num, 10)
}

const (
	errIDType   = `"id" must be a string, a whole number or null`
	errIDNumber = `a numeric "id" must be a whole number within 64 bits that a float64 holds exactly`
	errIDString = `a string "id" must be valid UTF-8`
)

// parseID reads the raw JSON value of an "id" member. It reports ok with
// null false for a valid id, null true for a null one, and a reason when
// the id is invalid.
func parseID(raw []byte) (i id, null bool, reason string) {
	switch {
	case len(raw) == 0:
		return id{}, false, errIDType
	case string(raw) == "null":
		return id{}, true, ""
	case raw[0] == '"':
		s, ok := cleanString(raw)
		if !ok {
			return id{}, false, errIDString
		}
		return id{str: s, isStr: true}, false, ""
	case raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9':
		n, ok := wholeInt64(raw)
		if !ok {
			return id{}, false, errIDNumber
		}
		return id{num: n}, false, ""
	}
	return id{}, false, errIDType
}

// wholeInt64 returns the value of the JSON number lit when it is a whole
// number that the SDK answers under unchanged. The SDK decodes a numeric id
// into a float64 and answers under int64 of it, so 1.5 would come back as 1,
// 2^53+1 as 2^53 and anything past int64 as -2^63: all of those are refused.
// Whole numbers in any spelling (1.0, 1e2) are accepted, since the SDK's
// answer carries the same number.
func wholeInt64(lit []byte) (int64, bool) {
	s := string(lit)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	mant, exp, hasExp := strings.Cut(strings.ToLower(s), "e")
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(intPart+frac, "0")
	if digits == "" {
		return 0, true // 0, -0, 0.000, 0e99999
	}
	e := 0
	if hasExp {
		// An exponent past a few digits is far out of range either way:
		// huge positive ones overflow, huge negative ones leave a fraction.
		var err error
		if e, err = strconv.Atoi(strings.TrimPrefix(exp, "+")); err != nil || e > 400 || e < -400 {
			return 0, false
		}
	}
	e -= len(frac)
	for strings.HasSuffix(digits, "0") {
		digits = digits[:len(digits)-1]
		e++
	}
	if e < 0 || len(digits)+e > 19 {
		return 0, false // a fraction, or more than 19 digits
	}
	s = digits + strings.Repeat("0", e)
	if neg {
		s = "-" + s
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, false
	}
	f := float64(n)
	if f >= math.MaxInt64 || int64(f) != n { // 2^63 itself does not fit int64
		return 0, false
	}
	return n, true
}

// cleanString decodes the JSON string literal raw when it holds valid UTF-8
// only: no invalid byte and no unpaired surrogate escape. Either would be
// decoded as U+FFFD, and the SDK would answer under an id the client never
// sent.
func cleanString(raw []byte) (string, bool) {
	if !utf8.Valid(raw) {
		return "", false
	}
	for i := 0; i < len(raw); i++ {
		if raw[i] != '\\' {
			continue
		}
		i++
		if raw[i] != 'u' {
			continue
		}
		r := hex4(raw[i+1 : i+5])
		i += 4
		switch {
		case r >= 0xDC00 && r <= 0xDFFF:
			return "", false // a low surrogate with no high one before it
		case r >= 0xD800 && r <= 0xDBFF:
			if i+6 >= len(raw) || raw[i+1] != '\\' || raw[i+2] != 'u' {
				return "", false
			}
			if lo := hex4(raw[i+3 : i+7]); lo < 0xDC00 || lo > 0xDFFF {
				return "", false
			}
			i += 6
		}
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	return s, true
}

// hex4 reads the four hex digits of a \u escape in valid JSON.
func hex4(b []byte) rune {
	n, _ := strconv.ParseUint(string(b), 16, 32)
	return rune(n)
}
