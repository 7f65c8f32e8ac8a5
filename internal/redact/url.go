package redact

import "net/url"

// URL renders u for a message or a log record: without user:password
// credentials, which must never leave the process; without the fragment,
// which the server never saw; and with the value of every query parameter
// whose name is sensitive (api_key, access_token, …, percent-decoded)
// replaced by [Marker], because many APIs take their key in the query. The
// rest of the query stays, since it usually says what was asked for. The
// path and the other parameters go through [String] like any text.
//
// The query rule is the one [String] applies to URLs it finds in text.
func URL(u *url.URL) string {
	if u == nil {
		return ""
	}
	c := *u
	c.User = nil
	c.Fragment, c.RawFragment = "", ""
	c.RawQuery, c.ForceQuery = "", false
	out := String(c.String())
	if u.RawQuery != "" || u.ForceQuery {
		out += "?" + scrub(u.RawQuery, true)
	}
	return out
}
