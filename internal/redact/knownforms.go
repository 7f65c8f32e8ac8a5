package redact

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/url"
	"slices"
	"strings"
)

// forms returns the texts a secret v travels in (see [Mask]), v first,
// each once.
func forms(v string) []string {
	out := []string{v}
	add := func(f string) {
		if f != "" && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	for _, html := range []bool{true, false} {
		once := jsonEscaped(v, html)
		add(once)
		add(jsonEscaped(once, html))
	}
	for _, escaped := range []string{
		url.QueryEscape(v),
		url.PathEscape(v),
		(&url.URL{Path: v}).EscapedPath(),
		strings.TrimPrefix(url.UserPassword("", v).String(), ":"),
	} {
		add(escaped)
		add(lowerHex(escaped))
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
		for offset := range 3 {
			add(base64Core(enc, v, offset))
		}
	}
	return out
}

// jsonEscaped is v as encoding/json writes it inside a string's quotes,
// escaping <, > and & when html is set (json.Marshal does; an Encoder may
// not).
func jsonEscaped(v string, html bool) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(html)
	_ = enc.Encode(v) // a string always encodes
	s := strings.TrimSuffix(b.String(), "\n")
	return s[1 : len(s)-1]
}

// lowerHex is s with the hex digits of its percent escapes in lower case,
// as some encoders write them; "" when s has none with a letter.
func lowerHex(s string) string {
	if !strings.Contains(s, "%") {
		return ""
	}
	b := []byte(s)
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '%' {
			for j := i + 1; j <= i+2; j++ {
				if 'A' <= b[j] && b[j] <= 'F' {
					b[j] += 'a' - 'A'
				}
			}
			i += 2
		}
	}
	if string(b) == s {
		return ""
	}
	return string(b)
}

// base64Core is the part of the encoding of v that depends on v alone when
// v starts offset bytes (0 to 2) into a group of three: the characters
// whose six bits all come from v. Its neighbours' bytes and the padding
// change the characters at either end, never these.
func base64Core(enc *base64.Encoding, v string, offset int) string {
	buf := make([]byte, offset+len(v))
	copy(buf[offset:], v)
	s := enc.WithPadding(base64.NoPadding).EncodeToString(buf)
	first := (8*offset + 5) / 6      // the first character that starts in v
	end := 8 * (offset + len(v)) / 6 // past the last that ends in v
	return s[first:end]
}
