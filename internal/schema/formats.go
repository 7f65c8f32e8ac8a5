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
