package raises

import (
	"go/token"
	"go/types"
	"slices"

	"github.com/seed417024ea/mcpcore/mcperr"
)

// resolveFailFrom adds what ctx.FailFrom(err, entries...) returns: for each
// code err can carry, the one entry given with that code (its code and
// reason, raised at the call), or the code unchanged when no entry or
// several have it; a reason err carries survives only with its code. When
// err may carry what the analysis cannot list (a parameter, an upstream's
// status, an opaque call), every entry given may be the one raised.
func (r *Result) resolveFailFrom(a failFromAtom, self *types.Func, b *builder) {
	sub := newBuilder(b.self)
	r.resolve(a.err, self, sub)
	b.mapEntries(a, sub)
	for s, pos := range sub.responses {
		keep(b.responses, s, pos)
	}
	for i := range sub.params {
		b.params[i] = true
	}
	for p, pos := range sub.byParam {
		keep(b.byParam, p, pos)
	}
	for p, pos := range sub.byCode {
		// FailFrom keeps the code, which the caller binds; whether an
		// entry replaces the reason stamped with it is known only then,
		// so the reason is left out and any entry may be raised.
		keep(b.byCode, ParamCode{Param: p.Param, Source: p.Source}, pos)
	}
	for u, pos := range sub.unfollow {
		keep(b.unfollow, u, pos)
	}
	b.opaque = b.opaque || sub.opaque
	if a.entries == nil {
		b.opaque = true // entries it cannot read may be the ones raised
		return
	}
	if sub.opaque || len(sub.responses)+len(sub.params)+len(sub.byCode) > 0 {
		for _, e := range a.entries {
			// An upstream's status gives only ResponseCodes.
			if sub.opaque || len(sub.params)+len(sub.byCode) > 0 || slices.Contains(ResponseCodes, e.Code) {
				b.raiseEntry(e, a.pos, true) // a hint is not known either
			}
		}
	}
}

// mapEntries adds the codes and reasons of sub, what the error given to
// the ctx.FailFrom a carries, as the call maps them: to the entry a
// stamped reason names, to the one entry with the code, or unchanged.
func (b *builder) mapEntries(a failFromAtom, sub *builder) {
	byReason := stampedEntries(a.entries, sub.reasons)
	for c, pos := range sub.codes {
		if e := byReason[raised{c.Code, c.Source}]; e != nil {
			b.raiseEntry(e, a.pos, c.Hinted)
		} else if e := onlyWithCode(a.entries, c.Code); e != nil {
			b.raiseEntry(e, a.pos, c.Hinted)
		} else {
			keep(b.codes, c, pos)
		}
	}
	for x, pos := range sub.reasons {
		switch {
		case entryNamed(a.entries, x.Reason) != nil:
			b.raiseEntry(entryNamed(a.entries, x.Reason), a.pos, x.Hinted)
		case x.Code == 0 || onlyWithCode(a.entries, x.Code) == nil:
			keep(b.reasons, x, pos)
		}
	}
}

// onlyWithCode is the one entry with code c, nil when none or several
// have it.
func onlyWithCode(entries []*Failure, c mcperr.Code) *Failure {
	var found *Failure
	for _, e := range entries {
		if e.Code == c {
			if found != nil {
				return nil // two entries with one code: neither
			}
			found = e
		}
	}
	return found
}

// entryNamed is the entry with the reason, nil when there is none (or the
// reason is "").
func entryNamed(entries []*Failure, reason string) *Failure {
	if reason == "" {
		return nil
	}
	for _, e := range entries {
		if e.Reason == reason {
			return e
		}
	}
	return nil
}

// A raised code, with where it comes from.
type raised struct {
	code mcperr.Code
	src  Source
}

// stampedEntries maps the codes raised with a reason that names one of the
// entries to that entry: the entry a stamped reason names wins over the
// code, and the code the same source raises with it is mapped with it.
func stampedEntries(entries []*Failure, reasons map[Reason]token.Pos) map[raised]*Failure {
	byReason := map[raised]*Failure{}
	for x := range reasons {
		if e := entryNamed(entries, x.Reason); e != nil && x.Code != 0 {
			byReason[raised{x.Code, x.Source}] = e
		}
	}
	return byReason
}

// raiseEntry records the entry e as raised at pos: its code and reason,
// with the hint of the error mapped, which ctx.FailFrom keeps.
func (b *builder) raiseEntry(e *Failure, pos token.Pos, hinted bool) {
	if e.Code != 0 {
		keep(b.codes, Code{Code: e.Code, Source: Source{Hinted: hinted}}, pos)
	}
	if e.Reason != "" {
		keep(b.reasons, Reason{Reason: e.Reason, Code: e.Code, Source: Source{Hinted: hinted}}, pos)
	}
}
