package urimatch

import (
	"errors"
	"fmt"
	"net/url"
	"unicode/utf8"

	"github.com/yosida95/uritemplate/v3"
)

// A Matcher reads the variables of URIs against one template. It is safe
// for concurrent use.
type Matcher struct {
	steps []step
	start int
	// order lists the steps so that each comes after every step it looks
	// at in the same position: the order the backward pass takes them in.
	order []int
	// values numbers the readValue steps, which keep a count per position.
	values map[int]int
	keys   []string
}

// Compile builds the matcher of a template, one that uritemplate.New
// accepts.
func Compile(template string) (*Matcher, error) {
	parts, err := parse(template)
	if err != nil {
		return nil, fmt.Errorf("URI template %q: %w", template, err)
	}
	b := &builder{slots: map[string]int{}}
	m := &Matcher{start: b.template(parts), values: map[int]int{}}
	m.steps, m.keys = b.steps, b.keys
	for i, s := range m.steps {
		if s.kind == readValue {
			m.values[i] = len(m.values)
		}
	}
	if m.order, err = sameSpotOrder(m.steps); err != nil {
		return nil, fmt.Errorf("URI template %q: %w", template, err)
	}
	return m, nil
}

// sameSpotOrder sorts the steps so that each follows those it depends on
// without reading: a choice's two ways, an open, close or value step's
// next. Every loop of a template reads a separator or a name, so there is
// no cycle.
func sameSpotOrder(steps []step) ([]int, error) {
	const (
		unseen = iota
		visiting
		done
	)
	state := make([]uint8, len(steps))
	order := make([]int, 0, len(steps))
	var visit func(i int) error
	visit = func(i int) error {
		switch state[i] {
		case visiting:
			return errors.New("a loop that reads nothing")
		case done:
			return nil
		}
		state[i] = visiting
		s := steps[i]
		switch s.kind {
		case choose:
			if err := visit(s.next); err != nil {
				return err
			}
			if err := visit(s.alt); err != nil {
				return err
			}
		case open, close, readValue:
			if err := visit(s.next); err != nil {
				return err
			}
		}
		state[i] = done
		order = append(order, i)
		return nil
	}
	for i := range steps {
		if err := visit(i); err != nil {
			return nil, err
		}
	}
	return order, nil
}

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
	found, work := m.walk(uri, ends)
	return found.values(uri, m.keys), work
}

// A path is where each variable's values start and end in the URI, on the
// matched path.
type path struct {
	bounds [][]int
}

// walk finds the first path, in the order of preference, from the start
// to an accept step at a position ends allows; nil when there is none.
func (m *Matcher) walk(uri string, ends func(p int) bool) (*path, int) {
	n := len(uri)
	words := (len(m.steps) + 63) / 64
	// can[p*words+i/64] bit i%64: the rest of the URI from p matches from
	// step i. closest[p*len(values)+v]: the fewest value characters from p
	// after which value step v's next can match, or none.
	can := make([]uint64, (n+1)*words)
	closest := make([]int32, (n+1)*len(m.values))
	const none = int32(-1)
	able := func(i, p int) bool { return can[p*words+i/64]&(1<<(i%64)) != 0 }
	work := 0
	for p := n; p >= 0; p-- {
		for _, i := range m.order {
			work++
			s := m.steps[i]
			ok := false
			switch s.kind {
			case accept:
				ok = ends(p)
			case readRune:
				if r, w := utf8.DecodeRuneInString(uri[p:]); w > 0 && r == s.r {
					ok = able(s.next, p+w)
				}
			case choose:
				ok = able(s.next, p) || able(s.alt, p)
			case open, close:
				ok = able(s.next, p)
			case readValue:
				v := p*len(m.values) + m.values[i]
				closest[v] = none
				if able(s.next, p) {
					closest[v] = 0
				} else if w := unit(uri, p, s.reserved); w > 0 {
					if after := closest[(p+w)*len(m.values)+m.values[i]]; after != none {
						closest[v] = after + 1
					}
				}
				ok = closest[v] != none && (s.most == 0 || int(closest[v]) <= s.most)
			}
			if ok {
				can[p*words+i/64] |= 1 << (i % 64)
			}
		}
	}
	if !able(m.start, 0) {
		return nil, work
	}
	found := &path{bounds: make([][]int, len(m.keys))}
	p, i := 0, m.start
	for m.steps[i].kind != accept {
		work++
		s := m.steps[i]
		switch s.kind {
		case readRune:
			_, w := utf8.DecodeRuneInString(uri[p:])
			p += w
		case choose:
			if !able(s.next, p) {
				i = s.alt
				continue
			}
		case open, close:
			found.bounds[s.slot] = append(found.bounds[s.slot], p)
		case readValue:
			v := m.values[i]
			for read := 0; s.most == 0 || read < s.most; read++ {
				w := unit(uri, p, s.reserved)
				if w == 0 {
					break
				}
				after := closest[(p+w)*len(m.values)+v]
				if after == none || s.most > 0 && int(after) > s.most-read-1 {
					break
				}
				p += w
				work++
			}
		}
		i = s.next
	}
	return found, work
}

// values are the path's values, percent-decoded, by key; nil for no path.
func (p *path) values(uri string, keys []string) uritemplate.Values {
	if p == nil {
		return nil
	}
	found := uritemplate.Values{}
	for k, bounds := range p.bounds {
		if len(bounds) == 0 {
			continue
		}
		list := make([]string, 0, len(bounds)/2)
		for j := 0; j < len(bounds); j += 2 {
			list = append(list, decode(uri[bounds[j]:bounds[j+1]]))
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
