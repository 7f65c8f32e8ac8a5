package redact

import (
	"cmp"
	"slices"
	"strings"
)

// A matcher finds the forms of the secrets kept in a text, in one pass.
//
// Every form is at least blockBytes+3 bytes long, so an occurrence starting
// at p holds the four-byte block at the first multiple of four q >= p, at
// offset q-p of the form, from 0 to 3. The scan reads only those blocks,
// one in four positions: a filter of bits says at once whether a block
// begins none of the forms' first four blocks, and only a block that
// passes is looked up and the forms it may start compared. Each occurrence
// is found once, at its one q; the work is linear in the text, and nearly
// nothing per block when no secret is there.
type matcher struct {
	secrets []string // the values kept, for the next rebuild
	forms   []string
	// notJSON marks a secret as it is when valid JSON text cannot hold
	// it so (it has a quote, a backslash or a control character, which
	// JSON escapes): in JSON text it could only match across the text's
	// structure or an escape, and its escaped forms are matched instead.
	notJSON []bool
	filter  [filterBits / 64]uint64
	probes  map[uint32][]probe // by block
}

// A probe is a form that may hold a block at an offset.
type probe struct {
	form   int32
	offset int32
}

// A hit is a part of the text to replace.
type hit struct{ start, end int }

const (
	blockBytes = 4
	filterBits = 1 << 16
)

// newMatcher returns the matcher of old and add, or nil when add brings
// nothing new.
func newMatcher(old, add []string) *matcher {
	secrets := slices.Clone(old)
	for _, v := range add {
		if !slices.Contains(secrets, v) {
			secrets = append(secrets, v)
		}
	}
	if len(secrets) == len(old) {
		return nil
	}
	m := &matcher{secrets: secrets, probes: map[uint32][]probe{}}
	for _, v := range secrets {
		for i, f := range forms(v) {
			if len(f) < blockBytes+3 || slices.Contains(m.forms, f) {
				continue // CheckSecret keeps every form long enough
			}
			m.forms = append(m.forms, f)
			// forms(v) begins with v as it is; the others are escaped.
			m.notJSON = append(m.notJSON, i == 0 && strings.ContainsFunc(f, func(r rune) bool { return r == '"' || r == '\\' || r < ' ' }))
			n := int32(len(m.forms) - 1)
			for off := range blockBytes {
				k := block(f, off)
				m.filter[slot(k)/64] |= 1 << (slot(k) % 64)
				m.probes[k] = append(m.probes[k], probe{n, int32(off)})
			}
		}
	}
	return m
}

// block is the four bytes of s at i, little-endian.
func block[T string | []byte](s T, i int) uint32 {
	_ = s[i+3]
	return uint32(s[i]) | uint32(s[i+1])<<8 | uint32(s[i+2])<<16 | uint32(s[i+3])<<24
}

// slot is a block's bit in the filter.
func slot(k uint32) uint32 { return (k * 0x9E3779B1) >> 16 }

// find returns the parts of s that hold a form of a secret, in order,
// overlapping ones merged; with all unset it stops at the first. inJSON
// says that s is JSON text: the forms JSON cannot hold are not looked for.
func find[T string | []byte](m *matcher, s T, all, inJSON bool) []hit {
	var hits []hit
	for q := 0; q+blockBytes <= len(s); q += blockBytes {
		k := block(s, q)
		if h := slot(k); m.filter[h/64]&(1<<(h%64)) == 0 {
			continue
		}
		for _, p := range m.probes[k] {
			start := q - int(p.offset)
			f := m.forms[p.form]
			if inJSON && m.notJSON[p.form] || start < 0 || start+len(f) > len(s) || string(s[start:start+len(f)]) != f {
				continue
			}
			hits = append(hits, hit{start, start + len(f)})
			if !all {
				return hits
			}
		}
	}
	if len(hits) < 2 {
		return hits
	}
	slices.SortFunc(hits, func(a, b hit) int { return cmp.Compare(a.start, b.start) })
	return merge(hits)
}

// merge merges the overlapping hits of a sorted list, in place.
func merge(hits []hit) []hit {
	merged := hits[:1]
	for _, h := range hits[1:] {
		last := &merged[len(merged)-1]
		if h.start < last.end {
			last.end = max(last.end, h.end)
			continue
		}
		merged = append(merged, h)
	}
	return merged
}

// wholeEscapes widens each hit in the JSON text b to whole escape
// sequences: a hit that begins or ends inside one ("\n", "\u00e9") would
// leave half of it beside the marker, and the text would no longer be
// JSON. Such a hit is a secret's form found where the text holds another
// character escaped next to the rest of the secret; the escape goes with
// it.
func wholeEscapes(b []byte, hits []hit) []hit {
	for i := range hits {
		h := &hits[i]
		h.start = escapeStart(b, h.start)
		if h.end < len(b) {
			if e := escapeStart(b, h.end); e < h.end {
				h.end = e + 2
				if b[e+1] == 'u' {
					h.end = min(e+6, len(b))
				}
			}
		}
	}
	return merge(hits)
}

// escapeStart returns where the escape sequence that b[i] is inside of
// (not at its start) begins, or i when b[i] is not inside one.
func escapeStart(b []byte, i int) int {
	for j := i - 1; j >= 0 && j >= i-5; j-- {
		if b[j] != '\\' {
			continue
		}
		run := 0 // the backslashes right before b[j]
		for k := j - 1; k >= 0 && b[k] == '\\'; k-- {
			run++
		}
		switch {
		case run%2 == 1:
			return i // b[j] is escaped itself: the escape ends at it
		case j == i-1, b[j+1] == 'u':
			return j
		}
		return i
	}
	return i
}
