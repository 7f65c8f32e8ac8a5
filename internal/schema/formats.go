package schema

import (
	"maps"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"time"
)

// Formats. JSON Schema 2020-12 makes format an annotation unless a
// validator opts into asserting it; this one asserts the formats it knows,
// the ones a tool's arguments most often carry, so that a `format:"email"`
// tag (or a hand-written "format": "email") is a constraint, not a hint.
// Any other format stays an annotation. Each check is a plain function of
// the standard library, run only on strings the rest of the schema admits.
var formats = map[string]func(string) bool{
	// An address alone (RFC 5321's Mailbox): a display name ("Ann
	// <ann@example.com>"), which mail.ParseAddress takes, is not one.
	"email": isEmail,
	// An absolute URI (RFC 3986): a relative reference has no scheme.
	"uri":       isURI,
	"date":      isDate,
	"date-time": isDateTime,
	"uuid":      isUUID,
}

// formatNames lists the asserted formats, sorted, for messages.
func formatNames() []string { return slices.Sorted(maps.Keys(formats)) }

// isUUID reports whether s is a UUID as RFC 9562 writes it: 8-4-4-4-12
// hexadecimal digits, in either case.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := range len(s) {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
	}
	return true
}

// isEmail reports whether s is an email address as RFC 5321 writes a
// Mailbox: a local part (a dot-atom, or a quoted string) and a domain (a
// dot-atom of letters, digits and hyphens, or an IPv4 or IPv6 address
// literal in brackets).
func isEmail(s string) bool {
	at := strings.LastIndexByte(s, '@')
	if at <= 0 || at == len(s)-1 {
		return false
	}
	local, domain := s[:at], s[at+1:]
	if local[0] == '"' {
		if !quotedString(local) {
			return false
		}
	} else if !dotAtom(local, isAtext) {
		return false
	}
	if strings.HasPrefix(domain, "[") && strings.HasSuffix(domain, "]") {
		lit := domain[1 : len(domain)-1]
		if v6, ok := strings.CutPrefix(lit, "IPv6:"); ok {
			a, err := netip.ParseAddr(v6)
			return err == nil && a.Is6() && a.Zone() == ""
		}
		a, err := netip.ParseAddr(lit)
		return err == nil && a.Is4()
	}
	return dotAtom(domain, func(c byte) bool { return isAlnum(c) || c == '-' })
}

// dotAtom reports whether s is one or more non-empty runs of characters
// that ok accepts, separated by single dots.
func dotAtom(s string, ok func(byte) bool) bool {
	prev := byte('.') // no leading dot
	for i := range len(s) {
		c := s[i]
		switch {
		case c == '.':
			if prev == '.' {
				return false
			}
		case !ok(c):
			return false
		}
		prev = c
	}
	return prev != '.'
}

// quotedString reports whether s is an RFC 5321 quoted string: printable
// ASCII and spaces between double quotes, a quote or backslash escaped.
func quotedString(s string) bool {
	if len(s) < 2 || s[len(s)-1] != '"' {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		c := s[i]
		switch {
		case c == '\\':
			i++
			if i == len(s)-1 || s[i] < ' ' || s[i] > '~' {
				return false
			}
		case c == '"' || c < ' ' || c > '~':
			return false
		}
	}
	return true
}

// isAtext reports whether c may appear in an atom (RFC 5322's atext).
func isAtext(c byte) bool {
	return isAlnum(c) || strings.IndexByte("!#$%&'*+-/=?^_`{|}~", c) >= 0
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// isURI reports whether s is an absolute URI: url.Parse's reading, a
// scheme, and only the characters RFC 3986 allows (brackets only around
// the host, a percent sign only before two hexadecimal digits).
func isURI(s string) bool {
	authority := ""
	if i := strings.IndexByte(s, ':'); i > 0 {
		if rest, ok := strings.CutPrefix(s[i+1:], "//"); ok {
			end := strings.IndexAny(rest, "/?#")
			if end < 0 {
				end = len(rest)
			}
			authority = rest[:end]
		}
	}
	for i := range len(s) {
		c := s[i]
		switch {
		case isAlnum(c) || strings.IndexByte("-._~:/?#@!$&'()*+,;=%", c) >= 0:
		case c == '[' || c == ']':
			if !strings.ContainsRune(authority, rune(c)) {
				return false // outside the host
			}
		default:
			return false
		}
	}
	u, err := url.Parse(s)
	return err == nil && u.Scheme != ""
}

// isDate reports whether s is an RFC 3339 full-date: YYYY-MM-DD, a day
// that its month has.
func isDate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	y, ok1 := number(s[:4])
	m, ok2 := number(s[5:7])
	d, ok3 := number(s[8:])
	if !ok1 || !ok2 || !ok3 || m < 1 || m > 12 || d < 1 {
		return false
	}
	return d <= time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// isDateTime reports whether s is an RFC 3339 date-time: full-date "T"
// HH:MM:SS, an optional fraction, and "Z" or an offset ±HH:MM (T and Z in
// either case). Second 60 is a leap second, which falls at 23:59 UTC.
func isDateTime(s string) bool {
	if len(s) < 20 || !isDate(s[:10]) || (s[10] != 'T' && s[10] != 't') {
		return false
	}
	h, m, sec, rest, ok := partialTime(s[11:])
	if !ok {
		return false
	}
	offset, ok := timeOffset(rest)
	if !ok {
		return false
	}
	return sec < 60 || ((h*60+m-offset)%1440+1440)%1440 == 23*60+59
}

// partialTime reads the RFC 3339 partial-time that t starts with,
// HH:MM:SS and an optional fraction, and returns what follows it. t has
// at least 9 bytes.
func partialTime(t string) (h, m, sec int, rest string, ok bool) {
	if t[2] != ':' || t[5] != ':' {
		return 0, 0, 0, "", false
	}
	h, ok1 := number(t[:2])
	m, ok2 := number(t[3:5])
	sec, ok3 := number(t[6:8])
	if !ok1 || !ok2 || !ok3 || h > 23 || m > 59 || sec > 60 {
		return 0, 0, 0, "", false
	}
	rest = t[8:]
	if strings.HasPrefix(rest, ".") {
		n := 1
		for n < len(rest) && '0' <= rest[n] && rest[n] <= '9' {
			n++
		}
		if n == 1 {
			return 0, 0, 0, "", false
		}
		rest = rest[n:]
	}
	return h, m, sec, rest, true
}

// timeOffset reads t, an RFC 3339 time-offset: "Z" or ±HH:MM, in minutes
// east of UTC.
func timeOffset(t string) (int, bool) {
	if t == "Z" || t == "z" {
		return 0, true
	}
	if len(t) != 6 || (t[0] != '+' && t[0] != '-') || t[3] != ':' {
		return 0, false
	}
	oh, ok1 := number(t[1:3])
	om, ok2 := number(t[4:])
	if !ok1 || !ok2 || oh > 23 || om > 59 {
		return 0, false
	}
	if t[0] == '-' {
		return -(oh*60 + om), true
	}
	return oh*60 + om, true
}

// number is the value of s, ASCII digits only.
func number(s string) (int, bool) {
	n := 0
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, s != ""
}
