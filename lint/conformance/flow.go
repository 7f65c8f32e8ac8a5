package conformance

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/seed417024ea/mcpcore/lint/internal/mcpapi"
	"github.com/seed417024ea/mcpcore/lint/internal/raises"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// The conformance rules judge a handler by what reaches its return
// statements, followed in its SSA form: an err assigned in both branches
// of an if, checked with errors.Is before it is returned, reused for a
// second call after the first was mapped, or set inside a closure, carries
// exactly what can be in it at the return. What a service returns comes
// from the raises facts, which are flow-insensitive within each service.

// An item is one code or reason that can reach a handler's return.
type item struct {
	code   mcperr.Code // 0 when not known
	reason string      // "" when it carries none
	// site is the call in the handler the item comes in by: the service
	// called, the factory or ctx.Fail that builds it.
	site *ast.CallExpr
	// via and origin name the service it comes through, as in
	// raises.Source; "" when the site builds it. cond is the condition
	// on a service's parameter under which it comes, when the analysis
	// cannot tell whether the call meets it.
	via, origin, cond string
	// factory says the site is an mcperr factory or mcperr.New.
	factory bool
	// hinted says the error is built with a recovery hint, or with an
	// option that may set one (raises.Source.Hinted).
	hinted bool
	// unmapped is a ctx.FailFrom that passes the item on unchanged,
	// and ambiguous says it was given (or searched) several entries with
	// the item's code.
	unmapped  *ast.CallExpr
	ambiguous []declaredEntry
}

// A carry is what an error value can hold: items, and whether it can also
// hold what the analysis cannot list.
type carry struct {
	items []item
	// opaque: an error from where the analysis cannot see (an interface
	// method, a function value, a field, a channel).
	opaque bool
	// response: an error of mcperr.FromResponse, whose code depends on
	// the upstream's status.
	response bool
	// stamped are the items with a reason a service stamped that a
	// ctx.FailFrom mapped away: off the wire, but still a reason written
	// in the service (see stampedReasons).
	stamped []item
	// unhinted are the errors a ctx.FailFrom maps onto an entry that carry
	// no hint, so that the entry's declared Recovery reaches no client
	// (see failFromHints).
	unhinted []unhinted
	// unfollowed are the function values, called where the error comes
	// from, whose functions the analysis cannot tell: why it is opaque.
	unfollowed []unfollowed
}

// An unfollowed is a function value whose errors reach a return and
// whose functions the analysis cannot tell.
type unfollowed struct {
	what        string
	site        *ast.CallExpr // the call in the handler it comes in by
	via, origin string        // the service, "" when in the handler
}

// An unhinted is an error a ctx.FailFrom maps onto an entry without a
// recovery hint.
type unhinted struct {
	at    *ast.CallExpr // the ctx.FailFrom
	from  item          // what comes in
	entry string        // the reason of the entry it becomes
}

func (c *carry) add(o *carry) {
	if o == nil {
		return
	}
	c.items = append(c.items, o.items...)
	c.stamped = append(c.stamped, o.stamped...)
	c.unhinted = append(c.unhinted, o.unhinted...)
	c.unfollowed = append(c.unfollowed, o.unfollowed...)
	c.opaque = c.opaque || o.opaque
	c.response = c.response || o.response
}

// A tracer follows error values backwards through one package's SSA.
type tracer struct {
	pass     *analysis.Pass
	rs       *raises.Result
	calls    map[token.Pos]*ast.CallExpr // by Lparen, as ssa.CallCommon.Pos gives it
	contract []declaredEntry             // what FailFrom with no entries searches
	memo     map[ssa.Value]*carry
	rets     map[*ssa.Function]*carry
	busy     map[any]bool
}

// handlerFlow returns what can reach the returns of a handler (a
// *ast.FuncDecl or *ast.FuncLit of this package), or nil when it has no
// SSA form.
func handlerFlow(pass *analysis.Pass, pkg *ssa.Package, rs *raises.Result, handler ast.Node, contract []declaredEntry) *carry {
	fn := ssaFunc(pass, pkg, handler)
	if fn == nil {
		return nil
	}
	t := &tracer{
		pass: pass, rs: rs, calls: callsByLparen(pass), contract: contract,
		memo: map[ssa.Value]*carry{}, rets: map[*ssa.Function]*carry{}, busy: map[any]bool{},
	}
	return t.returns(fn)
}

// ssaFunc finds the SSA function of a handler's syntax: a function of the
// package, or a func literal in one or in a package variable's initializer.
func ssaFunc(pass *analysis.Pass, pkg *ssa.Package, syntax ast.Node) *ssa.Function {
	var find func(fns []*ssa.Function) *ssa.Function
	find = func(fns []*ssa.Function) *ssa.Function {
		for _, fn := range fns {
			if fn.Syntax() == syntax {
				return fn
			}
			if f := find(fn.AnonFuncs); f != nil {
				return f
			}
		}
		return nil
	}
	var fns []*ssa.Function
	if init := pkg.Func("init"); init != nil {
		fns = append(fns, init)
	}
	for _, f := range pass.Files {
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok {
				if obj, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					if fn := pkg.Prog.FuncValue(obj); fn != nil {
						fns = append(fns, fn)
					}
				}
			}
		}
	}
	return find(fns)
}

// buildSSA builds the SSA form of the package, as the buildssa pass does,
// but only for a package with definitions to check: most packages of a
// module have none, and their SSA would cost memory for nothing.
func buildSSA(pass *analysis.Pass) *ssa.Package {
	prog := ssa.NewProgram(pass.Fset, 0)
	for _, p := range pass.Pkg.Imports() {
		prog.CreatePackage(p, nil, nil, true)
	}
	pkg := prog.CreatePackage(pass.Pkg, pass.Files, pass.TypesInfo, false)
	pkg.Build()
	return pkg
}

// callsByLparen indexes the package's calls by their Lparen.
func callsByLparen(pass *analysis.Pass) map[token.Pos]*ast.CallExpr {
	calls := map[token.Pos]*ast.CallExpr{}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				calls[call.Lparen] = call
			}
			return true
		})
	}
	return calls
}

// returns is what fn's return statements can give in their error results.
func (t *tracer) returns(fn *ssa.Function) *carry {
	if c, ok := t.rets[fn]; ok {
		return c
	}
	if t.busy[fn] {
		return &carry{}
	}
	t.busy[fn] = true
	defer delete(t.busy, fn)
	c := &carry{}
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		for _, v := range ret.Results {
			if mcpapi.IsError(v.Type()) {
				c.add(t.value(v))
			}
		}
	}
	t.rets[fn] = c
	return c
}

// value is what an error value can hold.
func (t *tracer) value(v ssa.Value) *carry {
	if c, ok := t.memo[v]; ok {
		return c
	}
	if t.busy[v] {
		return &carry{} // a phi's cycle adds nothing new
	}
	t.busy[v] = true
	defer delete(t.busy, v)
	c := &carry{}
	switch v := v.(type) {
	case *ssa.Const:
		// nil
	case *ssa.Phi:
		for _, e := range v.Edges {
			c.add(t.value(e))
		}
	case *ssa.MakeInterface:
		c.add(t.value(v.X))
	case *ssa.ChangeInterface:
		c.add(t.value(v.X))
	case *ssa.ChangeType:
		c.add(t.value(v.X))
	case *ssa.TypeAssert:
		c.add(t.value(v.X))
	case *ssa.Extract:
		c.add(t.extract(v))
	case *ssa.Call:
		c.add(t.call(v))
	case *ssa.UnOp:
		if v.Op == token.MUL {
			c.add(t.stores(v.X))
		} else {
			c.opaque = true // a receive from a channel
		}
	default:
		c.opaque = true
	}
	t.memo[v] = c
	return c
}

// extract is what one result of a tuple can hold: of a call, or of a
// comma-ok type assertion.
func (t *tracer) extract(v *ssa.Extract) *carry {
	switch tuple := v.Tuple.(type) {
	case *ssa.Call:
		return t.call(tuple)
	case *ssa.TypeAssert: // e, ok := err.(*mcperr.Error)
		return t.value(tuple.X)
	}
	return &carry{opaque: true}
}

// stores is what the variable at ptr can hold: every value stored to it,
// in its function or in a closure that captures it.
func (t *tracer) stores(ptr ssa.Value) *carry {
	if t.busy[ptr] {
		return &carry{}
	}
	t.busy[ptr] = true
	defer delete(t.busy, ptr)
	c := &carry{}
	switch p := ptr.(type) {
	case *ssa.Alloc:
		c.add(t.storedVia(p))
	case *ssa.FreeVar:
		// The variable of the function that made the closure.
		parent := p.Parent().Parent()
		if parent == nil {
			c.opaque = true
			break
		}
		for _, b := range parent.Blocks {
			for _, in := range b.Instrs {
				if mc, ok := in.(*ssa.MakeClosure); ok && mc.Fn == p.Parent() {
					for i, fv := range p.Parent().FreeVars {
						if fv == p {
							c.add(t.stores(mc.Bindings[i]))
						}
					}
				}
			}
		}
	default:
		c.opaque = true // a field, a global, an element
	}
	return c
}

// storedVia is what is stored through ptr, a variable (an Alloc) or a
// closure's captured variable (a FreeVar), in its function or in a closure
// that captures it in turn.
func (t *tracer) storedVia(ptr ssa.Value) *carry {
	c := &carry{}
	for _, ref := range *ptr.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			if ref.Addr == ptr {
				c.add(t.value(ref.Val))
			}
		case *ssa.MakeClosure:
			for i, b := range ref.Bindings {
				if b == ptr {
					c.add(t.storedVia(ref.Fn.(*ssa.Function).FreeVars[i]))
				}
			}
		case *ssa.UnOp, *ssa.DebugRef:
		default:
			c.opaque = true // its address escapes
		}
	}
	return c
}

// call is what the error a call returns can hold.
func (t *tracer) call(call *ssa.Call) *carry {
	common := call.Common()
	if common.IsInvoke() {
		return &carry{opaque: mcpapi.CanRaise(common.Method.Pkg())}
	}
	callee := common.StaticCallee()
	if callee == nil {
		return &carry{opaque: mcpapi.CanRaise(t.pass.Pkg)} // a function value
	}
	fn, _ := callee.Object().(*types.Func)
	if fn == nil {
		if callee.Syntax() == nil {
			return &carry{opaque: true} // a wrapper, a bound method
		}
		return t.returns(callee) // a closure called where it is made
	}
	site := t.calls[common.Pos()]
	if site == nil {
		return &carry{opaque: true}
	}
	fn = fn.Origin()
	args := common.Args
	if common.Signature().Recv() != nil {
		args = args[1:] // a static method call: the receiver comes first
	}
	if c, ok := t.known(fn, site, args); ok {
		return c
	}
	return t.called(fn, site, args, common.Signature())
}

// known is what a call of a function whose errors the analysis knows by
// name can hold (ctx.FailFrom, ctx.Elicit, fmt.Errorf, errors.Join,
// mcperr.From, Retry, TryCatch); ok is false for any other function.
func (t *tracer) known(fn *types.Func, site *ast.CallExpr, args []ssa.Value) (c *carry, ok bool) {
	switch {
	case mcpapi.IsFailFrom(fn):
		return t.failFrom(site, args), true
	case mcpapi.IsFunc(fn, mcpapi.CorePath, "Elicit"):
		return t.elicit(site), true
	case mcpapi.IsFunc(fn, "fmt", "Errorf"):
		return t.errorf(site, args), true
	case mcpapi.IsFunc(fn, "errors", "Join"):
		return t.element(args[0], -1), true
	case mcpapi.IsFunc(fn, mcpapi.ErrPath, "From") && len(args) == 1:
		return t.value(args[0]), true
	case mcpapi.IsFunc(fn, mcpapi.ErrPath, "Retry"), mcpapi.IsFunc(fn, mcpapi.ErrPath, "TryCatch"):
		c := &carry{}
		if len(args) == 3 {
			c.add(t.function(args[2], site))
		}
		return c, true
	}
	return nil, false
}

// elicit is what ctx.Elicit at site can return: a declined question is
// the entry its OnDecline names, else the contract's consent_declined.
// (Without one it is the framework's own InvalidRequest, which a tool may
// leave undeclared; its other outcomes are baseline codes.)
func (t *tracer) elicit(site *ast.CallExpr) *carry {
	c := &carry{}
	if od, _ := mcpapi.OnDecline(t.pass.TypesInfo, site.Args[min(len(site.Args), 2):]); od != nil {
		f := t.rs.Entry(od.Args[0])
		switch {
		case f == nil:
			c.opaque = true // an entry it cannot read
		case entryNamed(t.contract, f.Reason) != nil:
			c.items = append(c.items, item{code: f.Code, reason: f.Reason, site: site})
		}
		// An entry the contract lacks makes the decline an InternalError
		// (error-contract-undeclared says so), a baseline code.
		return c
	}
	for _, e := range t.contract {
		if e.reason == mcpapi.ReasonConsentDeclined {
			c.items = append(c.items, item{code: e.code, reason: e.reason, site: site})
		}
	}
	return c
}

// errorf is what fmt.Errorf at site can return: what its %w arguments
// hold.
func (t *tracer) errorf(site *ast.CallExpr, args []ssa.Value) *carry {
	format, ok := mcpapi.ConstString(t.pass.TypesInfo, site.Args[0])
	if !ok || len(args) != 2 {
		return &carry{opaque: true}
	}
	c := &carry{}
	for _, i := range raises.WrappedArgs(format) {
		c.add(t.element(args[1], i))
	}
	return c
}

// called is what a call of any other function fn can hold: the codes a
// factory or ctx.Fail builds at site, or what fn's raises facts say it
// returns, with what its error parameters and the closures passed to it
// carry.
func (t *tracer) called(fn *types.Func, site *ast.CallExpr, args []ssa.Value, sig *types.Signature) *carry {
	c := &carry{}
	if rs := t.rs.Built(site); rs != nil {
		t.lift(c, rs, site, "", mcpapi.Factories[fn.Name()] != 0 || fn.Name() == "New")
		if rs.Empty() && mcpapi.IsContextMethod(fn, "Fail") {
			c.opaque = true // an entry it cannot read
		}
		return c
	}
	rs := t.rs.Func(fn)
	t.lift(c, rs, site, raises.FuncName(fn), false)
	for _, i := range rs.Params {
		if i < len(args) {
			c.add(t.value(args[i]))
		}
	}
	// A helper that takes a closure and returns an error (a queue, a
	// retry loop) hands the closure's errors back.
	if mcpapi.ReturnsError(sig.Results()) {
		for _, a := range args {
			if s, ok := a.Type().Underlying().(*types.Signature); ok && mcpapi.ReturnsError(s.Results()) {
				c.add(t.function(a, site))
			}
		}
	}
	return c
}

// lift adds the items of rs, which come in by site: through the function
// named via, or built there when via is "".
func (t *tracer) lift(c *carry, rs *raises.Raises, site *ast.CallExpr, via string, factory bool) {
	consts := raises.ArgConsts(t.pass.TypesInfo, site)
	through := func(s raises.Source) (string, string, string, bool) {
		if via == "" {
			return s.Via, s.Origin, s.If.Text, true
		}
		origin := s.Origin
		if origin == "" {
			origin = via
		}
		// A service that raises it only for another constant than the
		// handler passes cannot raise it here.
		c, ok := s.If.Through(consts)
		return via, origin, c.Text, ok
	}
	for _, x := range rs.Codes {
		if v, o, cond, ok := through(x.Source); ok {
			c.items = append(c.items, item{code: x.Code, site: site, via: v, origin: o, cond: cond, factory: factory && x.Via == "", hinted: x.Hinted})
		}
	}
	for _, x := range rs.Reasons {
		if v, o, cond, ok := through(x.Source); ok {
			c.items = append(c.items, item{code: x.Code, reason: x.Reason, site: site, via: v, origin: o, cond: cond, factory: factory && x.Via == "", hinted: x.Hinted})
		}
	}
	for _, x := range rs.ParamReasons {
		// A reason a service stamps from what the handler passes.
		if reason := x.Stamp(consts); reason != "" && via != "" {
			if v, o, cond, ok := through(x.Source); ok {
				c.items = append(c.items, item{code: x.ErrCode(consts), reason: reason, site: site, via: v, origin: o, cond: cond, hinted: x.Hinted})
			}
		}
	}
	for _, x := range rs.ParamCodes {
		// A code a service takes from what the handler passes, with
		// the reason it stamps.
		if code, ok := x.Bind(consts); ok && via != "" {
			if v, o, cond, ok := through(x.Source); ok {
				c.items = append(c.items, item{code: code, reason: x.Reason, site: site, via: v, origin: o, cond: cond, hinted: x.Hinted})
			}
		}
	}
	for _, u := range rs.Unfollowed {
		if v, o, _, ok := through(u.Source); ok {
			c.unfollowed = append(c.unfollowed, unfollowed{what: u.What, site: site, via: v, origin: o})
		}
	}
	c.response = c.response || rs.CallsFromResponse()
	c.opaque = c.opaque || rs.Opaque
}

// function is what calling a function value, passed at site, returns: a
// closure, or a function named statically.
func (t *tracer) function(v ssa.Value, site *ast.CallExpr) *carry {
	switch f := v.(type) {
	case *ssa.MakeClosure:
		return t.returns(f.Fn.(*ssa.Function))
	case *ssa.Function:
		if f.Syntax() != nil && f.Pkg != nil && f.Pkg.Pkg == t.pass.Pkg {
			return t.returns(f)
		}
		if fn, ok := f.Object().(*types.Func); ok {
			c := &carry{}
			t.lift(c, t.rs.Func(fn), site, raises.FuncName(fn), false)
			return c
		}
	}
	return &carry{opaque: true}
}

// element is what the i-th element (every one, for i < 0) of a variadic
// argument's slice can hold.
func (t *tracer) element(slice ssa.Value, i int) *carry {
	c := &carry{}
	if _, ok := slice.(*ssa.Const); ok {
		return c // no arguments
	}
	s, ok := slice.(*ssa.Slice)
	if !ok {
		c.opaque = true // a slice passed with ...
		return c
	}
	arr, ok := s.X.(*ssa.Alloc)
	if !ok {
		c.opaque = true
		return c
	}
	for _, ref := range *arr.Referrers() {
		ia, ok := ref.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		k, ok := ia.Index.(*ssa.Const)
		if !ok || (i >= 0 && k.Int64() != int64(i)) {
			continue
		}
		for _, r := range *ia.Referrers() {
			if st, ok := r.(*ssa.Store); ok && st.Addr == ia {
				if v := beforeAny(st.Val); mcpapi.IsError(v.Type()) {
					c.add(t.value(v))
				}
			}
		}
	}
	return c
}

// beforeAny is the value stored in an argument slice before it became an
// any: fmt.Errorf's arguments are stored as any.
func beforeAny(v ssa.Value) ssa.Value {
	switch x := v.(type) {
	case *ssa.MakeInterface:
		return x.X
	case *ssa.ChangeInterface:
		return x.X
	}
	return v
}
