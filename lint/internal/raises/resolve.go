package raises

import (
	"cmp"
	"go/token"
	"go/types"
	"reflect"
	"slices"

	"github.com/seed417024ea/mcpcore/mcperr"
)

// resolvePackage computes the Raises of every function of the package.
//
// Functions are resolved callees first, so that a chain of calls settles in
// one round; calls that go round a cycle are then resolved again until
// nothing changes. This terminates: a function's items only grow, and each
// kept position only moves earlier, over finite sets. An item that would
// come back to the function that raises it itself is dropped (see
// [builder.lift]), so recursion adds nothing more.
func (r *Result) resolvePackage(funcs []*types.Func) {
	sums := make(map[*types.Func]value, len(funcs))
	for _, fn := range funcs {
		sums[fn] = r.summarize(r.decls[fn])
	}

	// Postorder of the calls among the package's functions.
	var order []*types.Func
	seen := map[*types.Func]bool{}
	var visit func(fn *types.Func)
	visit = func(fn *types.Func) {
		if seen[fn] {
			return
		}
		seen[fn] = true
		for _, callee := range calls(sums[fn], nil) {
			if _, ok := sums[callee]; ok {
				visit(callee)
			}
		}
		order = append(order, fn)
	}
	for _, fn := range funcs {
		visit(fn)
	}

	for changed := true; changed; {
		changed = false
		for _, fn := range order {
			rs := r.resolveAlone(sums[fn], fn)
			if !reflect.DeepEqual(rs, r.funcs[fn]) {
				r.funcs[fn] = rs
				changed = true
			}
		}
	}
}

// calls appends the functions that v calls to fns.
func calls(v value, fns []*types.Func) []*types.Func {
	for _, a := range v {
		if c, ok := a.(callAtom); ok {
			fns = append(fns, c.fn)
			for _, arg := range c.args {
				fns = calls(arg, fns)
			}
		}
	}
	return fns
}

// resolveAlone returns what v raises in function self (nil for a func
// literal), given what the functions it calls raise so far.
func (r *Result) resolveAlone(v value, self *types.Func) *Raises {
	b := newBuilder("")
	if self != nil {
		b.self = funcName(self)
	}
	r.resolve(v, self, b)
	return b.raises()
}

func newBuilder(self string) *builder {
	return &builder{
		self:      self,
		codes:     map[Code]token.Pos{},
		reasons:   map[Reason]token.Pos{},
		responses: map[Source]token.Pos{},
		params:    map[int]bool{},
	}
}

func (r *Result) resolve(v value, self *types.Func, b *builder) {
	for _, a := range v {
		switch a := a.(type) {
		case codeAtom:
			pos := a.pos
			a.pos = token.NoPos
			keep(b.codes, a.Code, pos)
		case reasonAtom:
			pos := a.pos
			a.pos = token.NoPos
			keep(b.reasons, a.Reason, pos)
		case responseAtom:
			keep(b.responses, Source{}, a.pos)
		case paramAtom:
			b.params[int(a)] = true
		case opaqueAtom:
			b.opaque = true
		case failFromAtom:
			r.resolveFailFrom(a, self, b)
		case callAtom:
			for _, f := range a.funcs {
				r.resolve(f, self, b)
			}
			if a.fn == self {
				continue // a recursion adds nothing the function lacks
			}
			var callee *Raises
			if a.fn.Pkg() == r.pass.Pkg {
				callee = r.funcs[a.fn] // this round's estimate
			} else {
				callee = r.fn(a.fn)
			}
			if callee == nil {
				continue
			}
			b.lift(callee, funcName(a.fn), a.pos, a.consts)
			for _, i := range callee.Params {
				// What the caller passes in comes back out; it keeps
				// its own source.
				if i < len(a.args) {
					r.resolve(a.args[i], self, b)
				}
			}
		}
	}
}

// A builder collects the items of one function, each once, with its first
// position.
type builder struct {
	self      string // the function's name; "" for a func literal
	codes     map[Code]token.Pos
	reasons   map[Reason]token.Pos
	responses map[Source]token.Pos
	params    map[int]bool
	opaque    bool
}

// keep records k, whose pos is zero, at pos, unless it is already recorded
// at an earlier position.
func keep[K comparable](m map[K]token.Pos, k K, pos token.Pos) {
	if old, ok := m[k]; !ok || (pos.IsValid() && (!old.IsValid() || pos < old)) {
		m[k] = pos
	}
}

// lift adds the items of callee, called as name at pos, as coming through
// it. An item that the function being built raises itself further down is
// left out: the function already has it, and "f returns X through g" is no
// news when X comes from f.
//
// An item the callee raises only under a condition on a parameter is left
// out when the call passes another constant, keeps no condition when it
// passes that one, and keeps it on the caller's parameter it passes on.
func (b *builder) lift(callee *Raises, name string, pos token.Pos, consts []Arg) {
	through := func(s Source) (Source, bool) {
		origin := s.Origin
		if origin == "" {
			origin = name
		}
		cond, ok := s.If.Through(consts)
		return Source{Via: name, Origin: origin, If: cond}, ok && origin != b.self
	}
	for _, c := range callee.Codes {
		if src, ok := through(c.Source); ok {
			keep(b.codes, Code{c.Code, src}, pos)
		}
	}
	for _, x := range callee.Reasons {
		if src, ok := through(x.Source); ok {
			keep(b.reasons, Reason{x.Reason, x.Code, src}, pos)
		}
	}
	for _, s := range callee.FromResponse {
		if src, ok := through(s); ok {
			keep(b.responses, src, pos)
		}
	}
	b.opaque = b.opaque || callee.Opaque
}

// resolveFailFrom adds what ctx.FailFrom(err, entries...) returns: for each
// code err can carry, the one entry given with that code (its code and
// reason, raised at the call), or the code unchanged when no entry or
// several have it; a reason err carries survives only with its code. When
// err may carry what the analysis cannot list (a parameter, an upstream's
// status, an opaque call), every entry given may be the one raised.
func (r *Result) resolveFailFrom(a failFromAtom, self *types.Func, b *builder) {
	sub := newBuilder(b.self)
	r.resolve(a.err, self, sub)
	maps := func(c mcperr.Code) *Failure {
		var found *Failure
		for _, e := range a.entries {
			if e.Code == c {
				if found != nil {
					return nil // two entries with one code: neither
				}
				found = e
			}
		}
		return found
	}
	raise := func(e *Failure) {
		if e.Code != 0 {
			keep(b.codes, Code{Code: e.Code}, a.pos)
		}
		if e.Reason != "" {
			keep(b.reasons, Reason{Reason: e.Reason, Code: e.Code}, a.pos)
		}
	}
	// The entry a stamped reason names wins over the code; the code the
	// same source raises with it is mapped with it.
	named := func(reason string) *Failure {
		for _, e := range a.entries {
			if reason != "" && e.Reason == reason {
				return e
			}
		}
		return nil
	}
	type raised struct {
		code mcperr.Code
		src  Source
	}
	byReason := map[raised]*Failure{}
	for x := range sub.reasons {
		if e := named(x.Reason); e != nil && x.Code != 0 {
			byReason[raised{x.Code, x.Source}] = e
		}
	}
	for c, pos := range sub.codes {
		if e := byReason[raised{c.Code, c.Source}]; e != nil {
			raise(e)
		} else if e := maps(c.Code); e != nil {
			raise(e)
		} else {
			keep(b.codes, c, pos)
		}
	}
	for x, pos := range sub.reasons {
		switch {
		case named(x.Reason) != nil:
			raise(named(x.Reason))
		case x.Code == 0 || maps(x.Code) == nil:
			keep(b.reasons, x, pos)
		}
	}
	for s, pos := range sub.responses {
		keep(b.responses, s, pos)
	}
	for i := range sub.params {
		b.params[i] = true
	}
	b.opaque = b.opaque || sub.opaque
	if a.entries == nil {
		b.opaque = true // entries it cannot read may be the ones raised
		return
	}
	if sub.opaque || len(sub.responses)+len(sub.params) > 0 {
		for _, e := range a.entries {
			// An upstream's status gives only ResponseCodes.
			if sub.opaque || len(sub.params) > 0 || slices.Contains(ResponseCodes, e.Code) {
				raise(e)
			}
		}
	}
}

// raises returns the items sorted, or nil when there are none.
func (b *builder) raises() *Raises {
	rs := &Raises{}
	for c, pos := range b.codes {
		c.pos = pos
		rs.Codes = append(rs.Codes, c)
	}
	for x, pos := range b.reasons {
		x.pos = pos
		rs.Reasons = append(rs.Reasons, x)
	}
	for s, pos := range b.responses {
		s.pos = pos
		rs.FromResponse = append(rs.FromResponse, s)
	}
	for i := range b.params {
		rs.Params = append(rs.Params, i)
	}
	rs.Opaque = b.opaque
	if rs.Empty() {
		return nil
	}
	slices.SortFunc(rs.Codes, func(a, b Code) int {
		return cmp.Or(cmp.Compare(a.Code.String(), b.Code.String()), compareSources(a.Source, b.Source))
	})
	slices.SortFunc(rs.Reasons, func(a, b Reason) int {
		return cmp.Or(cmp.Compare(a.Reason, b.Reason), cmp.Compare(a.Code.String(), b.Code.String()),
			compareSources(a.Source, b.Source))
	})
	slices.SortFunc(rs.FromResponse, compareSources)
	slices.Sort(rs.Params)
	return rs
}

func compareSources(a, b Source) int {
	return cmp.Or(cmp.Compare(a.Via, b.Via), cmp.Compare(a.Origin, b.Origin))
}

// funcName names fn for messages: "pkg.Func", or "pkg.Type.Method" for a
// method, after the package's name (not its path).
func funcName(fn *types.Func) string {
	name := fn.Name()
	if recv := fn.Type().(*types.Signature).Recv(); recv != nil {
		t := types.Unalias(recv.Type())
		if p, ok := t.(*types.Pointer); ok {
			t = types.Unalias(p.Elem())
		}
		if n, ok := t.(*types.Named); ok {
			name = n.Obj().Name() + "." + name
		}
	}
	if fn.Pkg() != nil {
		name = fn.Pkg().Name() + "." + name
	}
	return name
}
