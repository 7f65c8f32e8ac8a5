package redact

import (
	"net/url"
	"strings"
)

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

// url handles the "://" at s[i]: it emits the URL's credentials, notes where
// the URL ends so that its query is judged by the parameter rule, and
// returns the end of the authority.
func (sc *scanner) url(i int) int {
	s := sc.s
	as := i + 3
	if !sc.inURL || sc.urlEnd <= i {
		sc.urlEnd = urlEnd(s, as)
	}
	sc.inURL, sc.inQuery = true, false
	ae := as
	for ae < sc.urlEnd && s[ae] != '/' && s[ae] != '?' && s[ae] != '#' {
		ae++
	}
	if at := strings.LastIndexByte(s[as:ae], '@'); at >= 0 {
		sc.emit(as, as+at, false)
	}
	// The secret of a webhook URL is in its path. URLs nested in a URL's
	// path end where it does: the end is found once for them all.
	if ae >= sc.pathEnd || sc.pathEnd > sc.urlEnd {
		sc.pathEnd = sc.urlEnd
		if q := strings.IndexAny(s[ae:sc.urlEnd], "?#"); q >= 0 {
			sc.pathEnd = ae + q
		}
	}
	if start, end, ok := webhookSecret(s, s[as:ae], ae, sc.pathEnd); ok {
		for end > start && isWordTrail(s[end-1]) {
			end-- // "…/services/T0/B0/x: 404": the colon is the message's
		}
		sc.emit(start, end, false)
		return max(end, ae)
	}
	return ae
}

// param handles the query parameter whose name starts at s[p], in a URL:
// when the name, percent-decoded, is sensitive, the value up to the next '&'
// is emitted. Otherwise the scan goes on inside the parameter, where other
// secrets may hide.
func (sc *scanner) param(p int) int {
	s, end := sc.s, sc.urlEnd
	k := p
	for k < end && s[k] != '=' && s[k] != '&' && s[k] != '#' {
		k++
	}
	if k == end || s[k] != '=' || !keyNamed(s[p:k]) {
		return p
	}
	e := k + 1
	for e < end && s[e] != '&' && s[e] != '#' {
		e++
	}
	sc.emit(k+1, e, false)
	return max(e, k+1)
}

// keyNamed reports whether a key as written in text is sensitive: it is
// percent-decoded first when it holds an escape, as query parameter names
// often do (api%5Fkey).
func keyNamed(k string) bool {
	if !strings.Contains(k, "%") || len(k) > maxKeyScan {
		return Key(k)
	}
	var buf [maxKeyScan]byte
	n := 0
	for i := 0; i < len(k); i++ {
		c := k[i]
		if c == '%' && i+2 < len(k) && isHex(k[i+1]) && isHex(k[i+2]) {
			c = unhex(k[i+1])<<4 | unhex(k[i+2])
			i += 2
		}
		buf[n] = c
		n++
	}
	return Key(string(buf[:n]))
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}
