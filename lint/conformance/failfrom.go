package conformance

import (
	"go/ast"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/seed417024ea/mcpcore/lint/internal/raises"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// failFrom is what ctx.FailFrom(err, entries...) returns: for each code
// err can hold, the one entry with that code (raised at the call), or the
// code unchanged, marked unmapped.
func (t *tracer) failFrom(site *ast.CallExpr, args []ssa.Value) *carry {
	c := &carry{}
	if len(args) == 0 {
		return c
	}
	in := t.value(args[0])
	c.opaque, c.response, c.stamped = in.opaque, in.response, in.stamped
	entries, readable := t.failFromEntries(site)
	if !readable {
		c.opaque = true // entries it cannot read
	}
	byReason := stampedWith(in.items, entries)
	for _, it := range in.items {
		c.mapFailFrom(site, it, entries, byReason)
	}
	if in.opaque || in.response {
		// Any entry given may be the one its error has: any at all from
		// where the analysis cannot see, one with a code an HTTP status
		// gives from mcperr.FromResponse.
		for _, e := range entries {
			if len(withCode(entries, e.code)) == 1 && (in.opaque || slices.Contains(raises.ResponseCodes, e.code)) {
				// Whether it has a hint is not known either.
				c.items = append(c.items, item{code: e.code, reason: e.reason, site: site, hinted: true})
			}
		}
	}
	return c
}

// failFromEntries are the entries a ctx.FailFrom at site maps to: those
// it names, or the tool's contract when it names none. readable is false
// when one of them cannot be read (or they are passed with ...).
func (t *tracer) failFromEntries(site *ast.CallExpr) (entries []declaredEntry, readable bool) {
	switch {
	case site.Ellipsis.IsValid():
		return nil, false
	case len(site.Args) == 1:
		return t.contract, true
	}
	readable = true
	for _, a := range site.Args[1:] {
		f := t.rs.Entry(a)
		if f == nil {
			readable = false
			continue
		}
		entries = append(entries, declaredEntry{expr: a, reason: f.Reason, code: f.Code})
	}
	return entries, readable
}

// entryNamed is the entry with the reason, nil when there is none (or the
// reason is "").
func entryNamed(entries []declaredEntry, reason string) *declaredEntry {
	if reason == "" {
		return nil
	}
	for i := range entries {
		if entries[i].reason == reason {
			return &entries[i]
		}
	}
	return nil
}

// A raise is one code a service raises.
type raise struct {
	code   mcperr.Code
	origin string
}

// stampedWith maps the codes raised with a reason that names one of the
// entries to that entry: an entry named by the reason a service stamps
// wins over the code (FailFrom's rule), and the code the same service
// raises with it is then mapped too.
func stampedWith(items []item, entries []declaredEntry) map[raise]*declaredEntry {
	byReason := map[raise]*declaredEntry{}
	for _, it := range items {
		if e := entryNamed(entries, it.reason); e != nil && it.code != 0 {
			byReason[raise{it.code, it.origin}] = e
		}
	}
	return byReason
}

// mapFailFrom adds what the ctx.FailFrom at site makes of it, one item of
// its error: the entry its reason names, the one entry with its code, or
// the item unchanged (marked unmapped when it has a code).
func (c *carry) mapFailFrom(site *ast.CallExpr, it item, entries []declaredEntry, byReason map[raise]*declaredEntry) {
	e := entryNamed(entries, it.reason)
	if e == nil && it.reason == "" {
		e = byReason[raise{it.code, it.origin}]
	}
	if e != nil {
		c.mapped(site, it, e)
		return
	}
	if it.code == 0 {
		c.items = append(c.items, it)
		return
	}
	if es := withCode(entries, it.code); len(es) == 1 {
		// The entry's reason is written last, over the service's.
		c.mapped(site, it, &es[0])
		if it.reason != "" && it.via != "" {
			c.stamped = append(c.stamped, it)
		}
	} else {
		it.unmapped, it.ambiguous = site, es
		c.items = append(c.items, it)
	}
}

// mapped adds the entry e that the ctx.FailFrom at site maps it onto,
// with its hint, which FailFrom keeps; without one, it is unhinted.
func (c *carry) mapped(site *ast.CallExpr, it item, e *declaredEntry) {
	c.items = append(c.items, item{code: e.code, reason: e.reason, site: site, hinted: it.hinted})
	if !it.hinted {
		c.unhinted = append(c.unhinted, unhinted{at: site, from: it, entry: e.reason})
	}
}
