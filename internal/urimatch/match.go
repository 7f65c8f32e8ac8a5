package urimatch

import (
	"net/url"
	"unicode/utf8"

	"github.com/yosida95/uritemplate/v3"
)

// Match returns the variables of uri, as uritemplate's Template.Match
// does: each variable's values by its key (its name, with ":n" for a
// prefix modifier), a single value as a string and several as a list;
// nil when the URI does not match.
func (m *Matcher) Match(uri string) uritemplate.Values {
	values, _ := m.match(uri)
	return values
}

// match is Match, also counting the steps it took: the work, which grows
// as the URI's length times the template's.
func (m *Matcher) match(uri string) (uritemplate.Values, int) {
	ends := func(p int) bool { return p == len(uri) }
	if _, w := utf8.DecodeRuneInString(uri); w > 0 && w == len(uri) {
		// The library's matcher also takes the end of a URI of one rune to
		// be reached before that rune: a path that reads nothing matches
		// too, unless one it prefers reads the rune. (It would then keep
		// the values of the first that the second lacks, but there are
		// none: reading nothing finds only the empty values of variables
		// without a first string, which every path finds.)
		ends = func(p int) bool { return p == 0 || p == len(uri) }
	}
	r, work := m.reach(uri, ends)
	if !r.can(m.start, 0) {
		return nil, work
	}
	bounds, more := m.follow(uri, r)
	return values(uri, m.keys, bounds), work + more
}

// reachable records, for every position of a URI and step, whether the
// rest of the URI matches from that step, and for every value step how
// few value characters it must read before its next step can go on.
type reachable struct {
	words  int
	bits   []uint64
	values int
	fewest []int32
}

// none is a fewest count of a value step that cannot go on.
const none = int32(-1)

func (r *reachable) can(step, p int) bool {
	return r.bits[p*r.words+step/64]&(1<<(step%64)) != 0
}

// least is how few characters value step v must read from p, or none.
func (r *reachable) least(v, p int) int32 { return r.fewest[p*r.values+v] }

// reach is the backward pass: from the end of the URI to its start, each
// step at each position, in an order that puts a step after those it
// looks at in the same position.
func (m *Matcher) reach(uri string, ends func(p int) bool) (*reachable, int) {
	n := len(uri)
	r := &reachable{words: (len(m.steps) + 63) / 64, values: m.values}
	r.bits = make([]uint64, (n+1)*r.words)
	r.fewest = make([]int32, (n+1)*r.values)
	work := 0
	for p := n; p >= 0; p-- {
		for _, i := range m.order {
			work++
			s := &m.steps[i]
			ok := false
			switch s.kind {
			case accept:
				ok = ends(p)
			case readRune:
				if c, w := utf8.DecodeRuneInString(uri[p:]); w > 0 && c == s.r {
					ok = r.can(s.next, p+w)
				}
			case choose:
				ok = r.can(s.next, p) || r.can(s.alt, p)
			case open, close:
				ok = r.can(s.next, p)
			case readValue:
				ok = r.value(s, uri, p)
			}
			if ok {
				r.bits[p*r.words+i/64] |= 1 << (i % 64)
			}
		}
	}
	return r, work
}

// value records how few characters the value step s must read from p,
// the URI's rest being able to match after them, and reports whether it
// can match there: in at most most characters, when a prefix modifier
// bounds it.
func (r *reachable) value(s *step, uri string, p int) bool {
	fewest := none
	if r.can(s.next, p) {
		fewest = 0
	} else if w := unit(uri, p, s.reserved); w > 0 && r.least(s.value, p+w) != none {
		fewest = r.least(s.value, p+w) + 1
	}
	r.fewest[p*r.values+s.value] = fewest
	return fewest != none && (s.most == 0 || int(fewest) <= s.most)
}

// follow is the forward pass, from the start step at the URI's start,
// which the backward pass found can match: at each choice the preferred
// way if the rest can match from there, and each value as long as the
// rest can match after it. It returns where each slot's values start and
// end.
func (m *Matcher) follow(uri string, r *reachable) ([][]int, int) {
	bounds := make([][]int, len(m.keys))
	work := 0
	for p, i := 0, m.start; m.steps[i].kind != accept; {
		work++
		s := &m.steps[i]
		switch s.kind {
		case readRune:
			_, w := utf8.DecodeRuneInString(uri[p:])
			p += w
		case choose:
			if !r.can(s.next, p) {
				i = s.alt
				continue
			}
		case open, close:
			bounds[s.slot] = append(bounds[s.slot], p)
		case readValue:
			for read := 0; s.most == 0 || read < s.most; read++ {
				w := unit(uri, p, s.reserved)
				if w == 0 {
					break
				}
				if after := r.least(s.value, p+w); after == none || s.most > 0 && int(after) > s.most-read-1 {
					break
				}
				p += w
				work++
			}
		}
		i = s.next
	}
	return bounds, work
}

// values are the values of a path, percent-decoded, by key.
func values(uri string, keys []string, bounds [][]int) uritemplate.Values {
	found := uritemplate.Values{}
	for k, b := range bounds {
		if len(b) == 0 {
			continue
		}
		list := make([]string, 0, len(b)/2)
		for j := 0; j < len(b); j += 2 {
			list = append(list, decode(uri[b[j]:b[j+1]]))
		}
		if len(list) == 1 {
			found[keys[k]] = uritemplate.String(list[0])
		} else {
			found[keys[k]] = uritemplate.List(list...)
		}
	}
	return found
}

// decode percent-decodes a value, whose every "%" starts a triplet.
func decode(value string) string {
	decoded, err := url.PathUnescape(value)
	if err != nil {
		return value
	}
	return decoded
}
