package redact

// nextLine handles a value written on the line after its key, indented, as
// YAML writes one ("password:\n  hunter2", "api_key: |\n  K3Y", and the
// same with the line break escaped as \n in JSON text); s[v] follows the
// colon and its blanks. A line that is itself a mapping, a list or a
// comment is not a value. It reports whether there was such a value, and
// where the scan goes on.
func (sc *scanner) nextLine(v int, st strength) (int, bool) {
	s := sc.s
	k := v
	if k < len(s) && (s[k] == '|' || s[k] == '>') {
		// A block scalar's indicator, with its chomping and indentation.
		for k++; k < len(s) && (s[k] == '-' || s[k] == '+' || s[k] >= '0' && s[k] <= '9'); k++ {
		}
		for k < len(s) && isBlank(s[k]) {
			k++
		}
	}
	switch {
	case k < len(s) && s[k] == '\n':
		k++
	case k+1 < len(s) && s[k] == '\r' && s[k+1] == '\n':
		k += 2
	case k < len(s) && escapedBreak(s, k):
		k += 2
		if s[k-1] == 'r' && k < len(s) && escapedBreak(s, k) {
			k += 2
		}
	default:
		return 0, false
	}
	indent := k
	for k < len(s) && isBlank(s[k]) {
		k++
	}
	if k == indent || k == len(s) {
		return 0, false
	}
	e := k
	for e < len(s) && s[e] != '\n' && s[e] != '\r' && !escapedBreak(s, e) {
		if s[e] == ':' && (e+1 == len(s) || s[e+1] <= ' ' || escapedBreak(s, e+1)) {
			return 0, false // a mapping: its own keys say what is secret
		}
		e++
	}
	if s[k] == '#' || s[k] == '-' && (k+1 == len(s) || s[k+1] <= ' ') {
		return 0, false // a comment or a list
	}
	return sc.value(k, st, false, true, false), true
}
