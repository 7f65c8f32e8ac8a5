package schema

import (
	"maps"
	"net/mail"
	"net/url"
	"slices"
	"time"
)

// Formats. JSON Schema 2020-12 makes format an annotation unless a
// validator opts into asserting it; this one asserts the formats it knows,
// the ones a tool's arguments most often carry, so that a `format:"email"`
// tag (or a hand-written "format": "email") is a constraint, not a hint.
// Any other format stays an annotation. Each check is a plain function of
// the standard library, run only on strings the rest of the schema admits.
var formats = map[string]func(string) bool{
	// An address alone: mail.ParseAddress also takes a display name
	// ("Ann <ann@example.com>"), which is not an email address.
	"email": func(s string) bool {
		if plainEmail(s) {
			return true // what ParseAddress accepts, without its allocations
		}
		a, err := mail.ParseAddress(s)
		return err == nil && a.Name == "" && a.Address == s
	},
	// An absolute URI: a relative reference has no scheme.
	"uri": func(s string) bool {
		u, err := url.Parse(s)
		return err == nil && u.Scheme != ""
	},
	"date": func(s string) bool {
		_, err := time.Parse(time.DateOnly, s)
		return err == nil
	},
	"date-time": func(s string) bool {
		_, err := time.Parse(time.RFC3339, s)
		return err == nil
	},
	"uuid": isUUID,
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

// plainEmail reports whether s is an address of the common form,
// dot-atom@dot-atom of letters, digits and "._+-" (no leading, trailing or
// doubled dot), every one of which mail.ParseAddress accepts as it is. It
// spares the common case the parser's allocations; whatever it refuses goes
// to the parser.
func plainEmail(s string) bool {
	at := -1
	prev := byte('.') // no leading dot
	for i := range len(s) {
		c := s[i]
		switch {
		case c == '@':
			if at >= 0 || prev == '.' {
				return false
			}
			at, prev = i, '.'
			continue
		case c == '.':
			if prev == '.' {
				return false
			}
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '+' && at < 0, c == '_' && at < 0:
		default:
			return false
		}
		prev = c
	}
	return at > 0 && prev != '.'
}
