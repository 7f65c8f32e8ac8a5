package urimatch

// An operator says how an expression's values are written (RFC 6570,
// section 3.2 and appendix A): the string before the first value, the one
// between values, whether each value is written name=value, what follows a
// name whose value is empty, and whether reserved characters are written
// as they are.
type operator struct {
	first, sep string
	named      bool
	ifEmpty    string
	reserved   bool
}

// operators are the RFC's, by their character; '\x00' is the simple
// expression, which has none.
var operators = map[byte]operator{
	'\x00': {sep: ","},
	'+':    {sep: ",", reserved: true},
	'#':    {first: "#", sep: ",", reserved: true},
	'.':    {first: ".", sep: "."},
	'/':    {first: "/", sep: "/"},
	';':    {first: ";", sep: ";", named: true},
	'?':    {first: "?", sep: "&", named: true, ifEmpty: "="},
	'&':    {first: "&", sep: "&", named: true, ifEmpty: "="},
}

// unit is the length of the value character that starts uri[p:]: an
// unreserved character (RFC 3986: ALPHA, DIGIT, "-", ".", "_", "~"), a
// reserved one (gen-delims and sub-delims) when reserved allows it, or a
// pct-encoded triplet; 0 when none starts there.
func unit(uri string, p int, reserved bool) int {
	if p >= len(uri) {
		return 0
	}
	switch c := uri[p]; {
	case unreserved(c), reserved && isReserved(c):
		return 1
	case pctEncoded(uri, p):
		return 3
	}
	return 0
}

// pctEncoded reports whether a pct-encoded triplet, '%' and two
// hexadecimal digits, starts at s[i].
func pctEncoded(s string, i int) bool {
	return s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2])
}

func unreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

func isReserved(c byte) bool {
	switch c {
	case ':', '/', '?', '#', '[', ']', '@', // gen-delims
		'!', '$', '&', '\'', '(', ')', '*', '+', ',', ';', '=': // sub-delims
		return true
	}
	return false
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
