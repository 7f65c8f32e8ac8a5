package redact

// nextLine handles a value written on the line after its key, indented, as
// YAML writes one ("password:\n  hunter2", "api_key: |\n  K3Y", and the
// same with the line break escaped as \n in JSON text); s[v] follows the
// colon and its blanks. A line that is itself a mapping, a list or a
// comment is not a value. It reports whether there was such a value, and
// where the scan goes on.
func (sc *scanner) nextLine(v int, st strength) (int, bool) {
	s := sc.s
	indent, ok := lineBreakEnd(s, blockIndicatorEnd(s, v))
	if !ok {
		return 0, false
	}
	k := skipBlanks(s, indent)
	if k == indent || k == len(s) || !scalarLine(s, k) {
		return 0, false
	}
	return sc.value(k, st, false, true, false), true
}

// blockIndicatorEnd returns the end of the block scalar's indicator that
// starts at s[k] ("|", ">-", "|2+"), with the blanks after it, or k when
// there is none.
func blockIndicatorEnd(s string, k int) int {
	if k >= len(s) || s[k] != '|' && s[k] != '>' {
		return k
	}
	for k++; k < len(s) && (s[k] == '-' || s[k] == '+' || s[k] >= '0' && s[k] <= '9'); k++ {
	}
	return skipBlanks(s, k)
}

// lineBreakEnd returns the end of the line break at s[k], raw ("\n",
// "\r\n") or escaped as in JSON text (`\n`, `\r\n`), and whether there is
// one.
func lineBreakEnd(s string, k int) (int, bool) {
	switch {
	case k < len(s) && s[k] == '\n':
		return k + 1, true
	case k+1 < len(s) && s[k] == '\r' && s[k+1] == '\n':
		return k + 2, true
	case k < len(s) && escapedBreak(s, k):
		k += 2
		if s[k-1] == 'r' && k < len(s) && escapedBreak(s, k) {
			k += 2
		}
		return k, true
	}
	return 0, false
}

// scalarLine reports whether the line whose text starts at s[k] may be a
// value: not a comment, not an item of a list, and not a mapping, whose
// own keys say what is secret.
func scalarLine(s string, k int) bool {
	if s[k] == '#' || s[k] == '-' && (k+1 == len(s) || s[k+1] <= ' ') {
		return false
	}
	for e := k; e < len(s) && s[e] != '\n' && s[e] != '\r' && !escapedBreak(s, e); e++ {
		if s[e] == ':' && (e+1 == len(s) || s[e+1] <= ' ' || escapedBreak(s, e+1)) {
			return false
		}
	}
	return true
}
