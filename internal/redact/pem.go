package redact

import "strings"

// pemBegin starts the first line of a PEM block, pemBeginWord is its run
// of word bytes; pemEnd starts its last line.
const (
	pemBeginWord = "-----BEGIN"
	pemBegin     = pemBeginWord + " "
	pemEnd       = "-----END"
	pemDash      = "-----"
)

// maxPEMLabel bounds how far the dashes that close a PEM line's label are
// looked for; the longest private-key label, "PGP PRIVATE KEY BLOCK", is
// far shorter, and the bound keeps the scan linear.
const maxPEMLabel = 64

// pem handles a PEM block whose first line starts at s[i], when its label
// names a private key ("-----BEGIN RSA PRIVATE KEY-----", EC, OPENSSH,
// ENCRYPTED, PGP … PRIVATE KEY BLOCK, or none): the body, from the end of
// that line to the first "-----END", is emitted, headers (Proc-Type,
// DEK-Info) included, or to the end of s when the block is cut. The BEGIN
// and END lines stay, and so do the line breaks around the body, raw or
// escaped as \n in JSON text, so that a reader still sees what was there.
// It reports whether s[i] starts such a block, and where the scan goes on.
func (sc *scanner) pem(i int) (int, bool) {
	s := sc.s
	if !strings.HasPrefix(s[i:], pemBegin) {
		return 0, false
	}
	ls := i + len(pemBegin)
	le := strings.Index(s[ls:min(len(s), ls+maxPEMLabel)], pemDash)
	if le < 0 || !strings.Contains(s[ls:ls+le], "PRIVATE KEY") {
		return 0, false
	}
	body := ls + le + len(pemDash)
	if b, _ := trimBreaks(s, body, len(s)); strings.HasPrefix(s[b:], Marker) {
		// Scrubbed already: its END line may have gone with it, and what
		// follows the marker is text, as it was the first time.
		return b + len(Marker), true
	}
	bodyEnd, after := len(s), len(s)
	if k := strings.Index(s[body:], pemEnd); k >= 0 {
		bodyEnd = body + k
		after = bodyEnd + len(pemEnd)
		if m := strings.Index(s[after:min(len(s), after+maxPEMLabel)], pemDash); m >= 0 {
			after += m + len(pemDash)
		}
	}
	start, end := trimBreaks(s, body, bodyEnd)
	sc.emit(start, end, false)
	return max(after, sc.lo), true
}

// trimBreaks returns the bounds of s[start:end] without the white space and
// JSON-escaped line breaks (\n, \r) at either end.
func trimBreaks(s string, start, end int) (int, int) {
	for start < end {
		switch {
		case s[start] <= ' ':
			start++
		case escapedBreak(s, start) && start+2 <= end:
			start += 2
		default:
			goto right
		}
	}
right:
	for end > start {
		switch {
		case s[end-1] <= ' ':
			end--
		case end-start >= 2 && s[end-2] == '\\' && (s[end-1] == 'n' || s[end-1] == 'r'):
			end -= 2
		default:
			return start, end
		}
	}
	return start, end
}
