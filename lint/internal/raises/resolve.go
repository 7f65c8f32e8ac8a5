package raises

import (
	"cmp"
	"go/token"
	"go/types"
	"iter"
	"maps"
	"reflect"
	"slices"
	"strconv"
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
		switch c := a.(type) {
		case callAtom:
			fns = append(fns, c.fn)
			for _, arg := range c.args {
				fns = calls(arg, fns)
			}
			for _, f := range c.funcs {
				fns = calls(f, fns)
			}
		case litCallAtom:
			fns = calls(c.ret, fns)
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
		byParam:   map[ParamReason]token.Pos{},
		byCode:    map[ParamCode]token.Pos{},
		unfollow:  map[Unfollowed]token.Pos{},
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
		case unfollowedAtom:
			pos := a.pos
			a.pos = token.NoPos
			keep(b.unfollow, a.Unfollowed, pos)
		case paramReasonAtom:
			pos := a.pos
			a.pos = token.NoPos
			keep(b.byParam, a.ParamReason, pos)
		case paramCodeAtom:
			pos := a.pos
			a.pos = token.NoPos
			keep(b.byCode, a.ParamCode, pos)
		case litCallAtom:
			r.resolveLitCall(a, self, b)
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
	byParam   map[ParamReason]token.Pos
	byCode    map[ParamCode]token.Pos
	unfollow  map[Unfollowed]token.Pos
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
		return Source{Via: name, Origin: origin, If: cond, Hinted: s.Hinted}, ok && origin != b.self
	}
	b.add(found{
		codes: at(callee.Codes, pos), reasons: at(callee.Reasons, pos), responses: at(callee.FromResponse, pos),
		byParam: at(callee.ParamReasons, pos), byCode: at(callee.ParamCodes, pos),
	}, through, consts)
	for _, u := range callee.Unfollowed {
		if src, ok := through(u.Source); ok {
			keep(b.unfollow, Unfollowed{u.What, src}, pos)
		}
	}
	b.opaque = b.opaque || callee.Opaque
}

// found is what one function raises, each item with the position it is
// kept at: a callee's facts, all at its call, or a literal's builder.
type found struct {
	codes     iter.Seq2[Code, token.Pos]
	reasons   iter.Seq2[Reason, token.Pos]
	responses iter.Seq2[Source, token.Pos]
	byParam   iter.Seq2[ParamReason, token.Pos]
	byCode    iter.Seq2[ParamCode, token.Pos]
}

// at yields the items of s, each at pos.
func at[T any](s []T, pos token.Pos) iter.Seq2[T, token.Pos] {
	return func(yield func(T, token.Pos) bool) {
		for _, v := range s {
			if !yield(v, pos) {
				return
			}
		}
	}
}

// add adds the items of f with their sources as through maps them,
// leaving out those it refuses, and binds what they take from parameters
// to the call's arguments consts.
func (b *builder) add(f found, through func(Source) (Source, bool), consts []Arg) {
	for c, pos := range f.codes {
		if src, ok := through(c.Source); ok {
			keep(b.codes, Code{c.Code, src}, pos)
		}
	}
	for x, pos := range f.reasons {
		if src, ok := through(x.Source); ok {
			keep(b.reasons, Reason{x.Reason, x.Code, src}, pos)
		}
	}
	for s, pos := range f.responses {
		if src, ok := through(s); ok {
			keep(b.responses, src, pos)
		}
	}
	for p, pos := range f.byParam {
		if src, ok := through(p.Source); ok {
			b.stampParam(p, src, consts, pos)
		}
	}
	for p, pos := range f.byCode {
		if src, ok := through(p.Source); ok {
			b.stampCode(p, src, consts, pos)
		}
	}
}

// stampParam adds the reason p stamps from a parameter, as raised by src
// at pos: the constant the call passes, or a reason stamped from the
// caller's parameter it passes on; nothing when neither is known. Its
// code, when taken from a parameter too, is bound the same way.
func (b *builder) stampParam(p ParamReason, src Source, consts []Arg, pos token.Pos) {
	if p.Param >= len(consts) {
		return
	}
	code, codeParam := p.Code, 0
	if p.CodeParam > 0 && p.CodeParam <= len(consts) {
		a := consts[p.CodeParam-1]
		code, _ = a.code()
		codeParam = a.param
	}
	switch a := consts[p.Param]; {
	case a.known:
		reason, err := strconv.Unquote(a.value)
		switch {
		case err != nil || reason == "":
		case codeParam > 0:
			keep(b.byCode, ParamCode{codeParam - 1, reason, src}, pos)
		default:
			keep(b.reasons, Reason{reason, code, src}, pos)
		}
	case a.param > 0:
		keep(b.byParam, ParamReason{a.param - 1, code, codeParam, src}, pos)
	}
}

// stampCode adds the code p takes from a parameter, and the reason
// stamped with it, as raised by src at pos: the constant the call
// passes, or the caller's parameter it passes on; when neither, the
// reason alone, its code unknown.
func (b *builder) stampCode(p ParamCode, src Source, consts []Arg, pos token.Pos) {
	var a Arg
	if p.Param < len(consts) {
		a = consts[p.Param]
	}
	code, known := a.code()
	switch {
	case known:
		keep(b.codes, Code{code, src}, pos)
	case a.param > 0:
		keep(b.byCode, ParamCode{a.param - 1, p.Reason, src}, pos)
		return
	}
	if p.Reason != "" {
		keep(b.reasons, Reason{p.Reason, code, src}, pos)
	}
}

// resolveLitCall adds what a call of a func literal held in a variable
// returns: its items as the literal raises them, under the conditions
// and with the reasons its arguments give, and what the arguments it
// hands back carry.
func (r *Result) resolveLitCall(a litCallAtom, self *types.Func, b *builder) {
	sub := newBuilder(b.self)
	r.resolve(a.ret, self, sub)
	through := func(s Source) (Source, bool) {
		cond, ok := s.If.Through(a.consts)
		s.If = cond
		return s, ok
	}
	b.add(found{
		codes: maps.All(sub.codes), reasons: maps.All(sub.reasons), responses: maps.All(sub.responses),
		byParam: maps.All(sub.byParam), byCode: maps.All(sub.byCode),
	}, through, a.consts)
	for u, pos := range sub.unfollow {
		keep(b.unfollow, u, pos)
	}
	for i := range sub.params {
		if i < len(a.args) {
			r.resolve(a.args[i], self, b)
		}
	}
	b.opaque = b.opaque || sub.opaque
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
	for p, pos := range b.byParam {
		p.pos = pos
		rs.ParamReasons = append(rs.ParamReasons, p)
	}
	for p, pos := range b.byCode {
		p.pos = pos
		rs.ParamCodes = append(rs.ParamCodes, p)
	}
	for u, pos := range b.unfollow {
		u.pos = pos
		rs.Unfollowed = append(rs.Unfollowed, u)
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
	slices.SortFunc(rs.ParamReasons, func(a, b ParamReason) int {
		return cmp.Or(cmp.Compare(a.Param, b.Param), cmp.Compare(a.Code, b.Code), cmp.Compare(a.CodeParam, b.CodeParam), compareSources(a.Source, b.Source))
	})
	slices.SortFunc(rs.ParamCodes, func(a, b ParamCode) int {
		return cmp.Or(cmp.Compare(a.Param, b.Param), cmp.Compare(a.Reason, b.Reason), compareSources(a.Source, b.Source))
	})
	slices.SortFunc(rs.Unfollowed, func(a, b Unfollowed) int {
		return cmp.Or(cmp.Compare(a.What, b.What), compareSources(a.Source, b.Source))
	})
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
