package redact

import (
	"cmp"
	"slices"
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
		for _, f := range forms(v) {
			if len(f) < blockBytes+3 || slices.Contains(m.forms, f) {
				continue // CheckSecret keeps every form long enough
			}
			m.forms = append(m.forms, f)
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
// overlapping ones merged; with all unset it stops at the first.
func find[T string | []byte](m *matcher, s T, all bool) []hit {
	var hits []hit
	for q := 0; q+blockBytes <= len(s); q += blockBytes {
		k := block(s, q)
		if h := slot(k); m.filter[h/64]&(1<<(h%64)) == 0 {
			continue
		}
		for _, p := range m.probes[k] {
			start := q - int(p.offset)
			f := m.forms[p.form]
			if start < 0 || start+len(f) > len(s) || string(s[start:start+len(f)]) != f {
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
