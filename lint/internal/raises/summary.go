package raises

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"

	"github.com/seed417024ea/mcpcore/lint/internal/mcpapi"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// A value is what an expression can carry to a return, as far as the
// function's own text tells: items raised right there, calls whose callee's
// summary decides what they add, and parameters. Values are resolved into a
// Raises once the callees are known, so that the package's functions can be
// summarized once and resolved as often as the fixpoint needs.
type value []atom

type atom interface{ isAtom() }

type (
	codeAtom     struct{ Code }
	reasonAtom   struct{ Reason }
	responseAtom struct{ Source }
	paramAtom    int
	opaqueAtom   struct{}
	callAtom     struct {
		fn   *types.Func // its origin, for a generic function
		pos  token.Pos
		args []value // by parameter index; nil when they cannot be matched
		// consts are the constants (or the caller's parameters) passed,
		// by parameter index, for the callee's conditions.
		consts []Arg
		// funcs are what the functions passed to it return (a closure
		// given to a queue or a retry helper), by argument; the callee
		// is taken to hand their errors back.
		funcs []value
	}
	// litCallAtom is a call of a func literal held in a variable, a
	// field or a helper's result: what its returns carry, with its
	// parameters bound to the call's arguments.
	litCallAtom struct {
		ret    value
		pos    token.Pos
		args   []value
		consts []Arg
	}
	// unfollowedAtom is a function value whose functions the analysis
	// cannot tell.
	unfollowedAtom struct{ Unfollowed }
	// paramReasonAtom is a reason stamped from a parameter.
	paramReasonAtom struct{ ParamReason }
	// paramCodeAtom is a code taken from a parameter.
	paramCodeAtom struct{ ParamCode }
	// failFromAtom is ctx.FailFrom(err, entries...): which of err's codes
	// it maps depends on what err carries, known only once resolved.
	failFromAtom struct {
		err     value
		entries []*Failure // nil when they cannot be read (spread, computed)
		pos     token.Pos
	}
)

func (codeAtom) isAtom()     {}
func (reasonAtom) isAtom()   {}
func (responseAtom) isAtom() {}
func (paramAtom) isAtom()    {}
func (opaqueAtom) isAtom()   {}

// An Arg is what an argument is, for a callee's Cond: a constant
// (known, value), a parameter of the caller (param is 1 + its index), or
// neither. ArgConsts computes them for a call.
type Arg struct {
	known bool
	value string
	param int
	// keys are the constants of a slice's elements ("[i]") or a struct's
	// fields (".F"), as Cond.Key names them.
	keys map[string]string
}

// code returns the mcperr.Code constant a is, false when a is not one.
func (a Arg) code() (mcperr.Code, bool) {
	if !a.known {
		return 0, false
	}
	n, err := strconv.ParseInt(a.value, 10, 32)
	if err != nil || n == 0 {
		return 0, false
	}
	return mcperr.Code(n), true
}

func (callAtom) isAtom()        {}
func (litCallAtom) isAtom()     {}
func (unfollowedAtom) isAtom()  {}
func (paramReasonAtom) isAtom() {}
func (paramCodeAtom) isAtom()   {}
func (failFromAtom) isAtom()    {}

// A summarizer reads one function's text.
type summarizer struct {
	r    *Result
	info *types.Info
	// params maps the function's parameters to their indexes.
	params map[*types.Var]int
	// locals maps each variable assigned in the function to every
	// expression assigned to it (the whole call, for a tuple assignment
	// such as x, err := f()). Order is ignored: a variable carries all.
	locals map[*types.Var][]ast.Expr
	memo   map[*types.Var]value
	busy   map[*types.Var]bool
	// conds are the conditions the calls of the body stand under (see
	// Cond), innermost first.
	conds map[*ast.CallExpr]Cond
	// cut counts the times a variable was met again while being
	// evaluated; a value computed across such a cut may lack what the
	// variable on the cycle carries, and is not kept.
	cut int
}

// summarize returns what the returns of fn, a *ast.FuncDecl or
// *ast.FuncLit with a body, can carry.
func (r *Result) summarize(fn ast.Node) value {
	var ftype *ast.FuncType
	var body *ast.BlockStmt
	switch fn := fn.(type) {
	case *ast.FuncDecl:
		ftype, body = fn.Type, fn.Body
	case *ast.FuncLit:
		ftype, body = fn.Type, fn.Body
	}
	if body == nil {
		return nil
	}
	return r.summarizer(ftype, body).returns(ftype, body)
}

// summarizer returns the summarizer of a function with a body, made once.
func (r *Result) summarizer(ftype *ast.FuncType, body *ast.BlockStmt) *summarizer {
	if s, ok := r.sums[body]; ok {
		return s
	}
	s := r.newSummarizer(nil)
	s.bindParams(ftype)
	s.collectLocals(body)
	s.collectConds(body)
	r.sums[body] = s
	return s
}

func (r *Result) newSummarizer(locals map[*types.Var][]ast.Expr) *summarizer {
	if locals == nil {
		locals = map[*types.Var][]ast.Expr{}
	}
	return &summarizer{
		r:      r,
		info:   r.pass.TypesInfo,
		params: map[*types.Var]int{},
		locals: locals,
		memo:   map[*types.Var]value{},
		busy:   map[*types.Var]bool{},
		conds:  map[*ast.CallExpr]Cond{},
	}
}

// litSummarizer returns the summarizer of a func literal read in s: its
// parameters are its own, and the variables it captures carry what s
// says they do.
func (s *summarizer) litSummarizer(lit *ast.FuncLit) *summarizer {
	if c, ok := s.r.litSums[lit]; ok {
		return c
	}
	c := s.r.newSummarizer(s.locals)
	c.bindParams(lit.Type)
	c.collectConds(lit.Body)
	s.r.litSums[lit] = c
	return c
}

// litReturns is what the returns of a func literal read in s carry, its
// parameters as its own; a literal that reaches itself adds nothing the
// second time round.
func (s *summarizer) litReturns(lit *ast.FuncLit) value {
	if v, ok := s.r.litRets[lit]; ok {
		return v
	}
	if s.r.litBusy[lit] {
		return nil
	}
	s.r.litBusy[lit] = true
	v := s.litSummarizer(lit).returns(lit.Type, lit.Body)
	delete(s.r.litBusy, lit)
	s.r.litRets[lit] = v
	return v
}

// bindParams records the indexes of the function's parameters.
func (s *summarizer) bindParams(ftype *ast.FuncType) {
	i := 0
	for _, field := range ftype.Params.List {
		if len(field.Names) == 0 {
			i++
			continue
		}
		for _, name := range field.Names {
			if v, ok := s.info.Defs[name].(*types.Var); ok {
				s.params[v] = i
			}
			i++
		}
	}
}

// collectLocals records every assignment of the body, those in func
// literals included (a closure may set an error its function returns),
// except in the literals of go and defer statements, which run at another
// time.
func (s *summarizer) collectLocals(body *ast.BlockStmt) {
	add := s.addLocal
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt, *ast.DeferStmt:
			return false
		case *ast.AssignStmt:
			if n.Tok != token.ASSIGN && n.Tok != token.DEFINE {
				return true
			}
			for i, lhs := range n.Lhs {
				switch {
				case len(n.Lhs) == len(n.Rhs):
					add(lhs, n.Rhs[i])
				case len(n.Rhs) == 1:
					add(lhs, n.Rhs[0])
				}
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				switch {
				case len(n.Names) == len(n.Values):
					add(name, n.Values[i])
				case len(n.Values) == 1:
					add(name, n.Values[0])
				}
			}
		}
		return true
	})
}

// addLocal records that rhs is assigned to lhs, when lhs names a
// variable (not a field).
func (s *summarizer) addLocal(lhs ast.Expr, rhs ast.Expr) {
	id, ok := ast.Unparen(lhs).(*ast.Ident)
	if !ok {
		return
	}
	obj := s.info.Defs[id]
	if obj == nil {
		obj = s.info.Uses[id]
	}
	if v, ok := obj.(*types.Var); ok && !v.IsField() {
		s.locals[v] = append(s.locals[v], rhs)
	}
}

// returns returns what the return statements of a function body can carry
// in their error results; those of func literals inside it are not the
// function's.
func (s *summarizer) returns(ftype *ast.FuncType, body *ast.BlockStmt) value {
	var named []*types.Var
	if ftype.Results != nil {
		for _, field := range ftype.Results.List {
			for _, name := range field.Names {
				if v, ok := s.info.Defs[name].(*types.Var); ok && isError(v.Type()) {
					named = append(named, v)
				}
			}
		}
	}
	var val value
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(n.Results) == 0 {
				for _, v := range named {
					val = append(val, s.varValue(v)...)
				}
				return false
			}
			if len(n.Results) == 1 {
				if _, ok := s.info.TypeOf(n.Results[0]).(*types.Tuple); ok {
					val = append(val, s.eval(n.Results[0])...) // return f()
					return false
				}
			}
			for _, e := range n.Results {
				if isError(s.info.TypeOf(e)) {
					val = append(val, s.eval(e)...)
				}
			}
			return false
		}
		return true
	})
	return val
}

// isError reports whether a value of type t can be returned as an error.
func isError(t types.Type) bool { return mcpapi.IsError(t) }

// eval returns what the error expression e can carry.
func (s *summarizer) eval(e ast.Expr) value {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if v, ok := s.info.Uses[e].(*types.Var); ok {
			return s.varValue(v)
		}
	case *ast.CallExpr:
		return s.evalCall(e)
	}
	return nil
}

// varValue returns what variable v can carry: its parameter, if it is one,
// and everything assigned to it in the function. A variable whose value
// depends on itself (err = fmt.Errorf("…: %w", err)) adds nothing more the
// second time round.
func (s *summarizer) varValue(v *types.Var) value {
	if val, ok := s.memo[v]; ok {
		return val
	}
	if s.busy[v] {
		s.cut++
		return nil
	}
	s.busy[v] = true
	cut := s.cut
	var val value
	if i, ok := s.params[v]; ok {
		val = append(val, paramAtom(i))
	}
	for _, src := range s.locals[v] {
		val = append(val, s.eval(src)...)
	}
	delete(s.busy, v)
	// Complete unless a cycle through another variable, still being
	// evaluated, was cut short; a cycle back to v itself adds nothing.
	if s.cut == cut || len(s.busy) == 0 {
		s.memo[v] = val
	}
	return val
}

// evalCall returns what the error a call returns can carry.
func (s *summarizer) evalCall(call *ast.CallExpr) value {
	if tv, ok := s.info.Types[call.Fun]; ok && tv.IsType() {
		if len(call.Args) == 1 {
			return s.eval(call.Args[0]) // error(e)
		}
		return nil
	}
	fn := mcpapi.Callee(s.info, call)
	if fn == nil || fn.Pkg() == nil {
		return s.evalDynamic(call)
	}
	fn = fn.Origin()
	src := Source{pos: call.Pos(), If: s.conds[call], Hinted: hinted(s.info, fn, call)}
	switch {
	case mcpapi.IsContextMethod(fn, "Fail"):
		// Fail writes the entry's reason last, over any option's.
		if len(call.Args) == 0 {
			return nil
		}
		return s.entryValue(call.Args[0], src)
	case mcpapi.IsFailFrom(fn):
		return s.evalFailFrom(call)
	case fn.Pkg().Path() == mcpapi.ErrPath:
		return s.evalErrCall(fn, call, src)
	case mcpapi.IsFunc(fn, "fmt", "Errorf"):
		return s.evalErrorf(call)
	case mcpapi.IsFunc(fn, "errors", "Join"):
		if call.Ellipsis.IsValid() {
			return nil
		}
		var val value
		for _, a := range call.Args {
			val = append(val, s.eval(a)...)
		}
		return val
	}
	sig := fn.Type().(*types.Signature)
	return value{callAtom{fn: fn, pos: call.Pos(), args: s.callArgs(sig, call), funcs: s.funcArgs(sig, call), consts: s.callConsts(sig, call)}}
}

// evalDynamic returns what the error of a call of a function value or an
// interface method can carry: what the functions the value can hold
// return (see targets), or unknown, which rules that judge by absence
// must know.
func (s *summarizer) evalDynamic(call *ast.CallExpr) value {
	ts, ok := s.targets(call.Fun, 0)
	if !ok {
		if !mcpapi.Opaque(s.info, s.r.pass.Pkg, call) {
			return nil
		}
		if _, isFunc := s.info.TypeOf(call.Fun).Underlying().(*types.Signature); isFunc && !isInterfaceMethod(s.info, call.Fun) {
			return value{opaqueAtom{}, unfollowedAtom{Unfollowed{What: types.ExprString(call.Fun), Source: Source{pos: call.Pos()}}}}
		}
		return value{opaqueAtom{}}
	}
	sig, _ := s.info.TypeOf(call.Fun).Underlying().(*types.Signature)
	var val value
	for _, t := range ts {
		val = append(val, s.callTarget(t, call, sig)...)
	}
	return val
}

// callTarget is what a call of the function value call.Fun returns when
// it holds t.
func (s *summarizer) callTarget(t target, call *ast.CallExpr, sig *types.Signature) value {
	if t.fn != nil {
		return value{callAtom{fn: t.fn, pos: call.Pos(), args: s.callArgs(sig, call), funcs: s.funcArgs(sig, call), consts: s.callConsts(sig, call)}}
	}
	return value{litCallAtom{ret: t.s.litReturns(t.lit), pos: call.Pos(), args: s.callArgs(sig, call), consts: s.callConsts(sig, call)}}
}

// isInterfaceMethod reports whether e is a method value of an interface.
func isInterfaceMethod(info *types.Info, e ast.Expr) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	x, ok := info.Selections[sel]
	return ok && x.Kind() == types.MethodVal && types.IsInterface(x.Recv())
}

// evalFailFrom returns what ctx.FailFrom(err, entries...) carries: it
// turns err into one of the entries passed when the codes match, and
// returns it unchanged otherwise, which is known only once err is
// resolved.
func (s *summarizer) evalFailFrom(call *ast.CallExpr) value {
	if len(call.Args) == 0 {
		return nil
	}
	ff := failFromAtom{err: s.eval(call.Args[0]), pos: call.Pos()}
	if !call.Ellipsis.IsValid() {
		ff.entries = []*Failure{}
		for _, a := range call.Args[1:] {
			f := s.r.entry(a)
			if f == nil {
				ff.entries = nil
				break
			}
			ff.entries = append(ff.entries, f)
		}
	}
	return value{ff}
}

// evalErrorf returns what fmt.Errorf's %w arguments carry.
func (s *summarizer) evalErrorf(call *ast.CallExpr) value {
	args := call.Args
	if len(args) == 0 {
		return nil
	}
	format, ok := mcpapi.ConstString(s.info, args[0])
	if !ok || call.Ellipsis.IsValid() {
		return nil
	}
	var val value
	for _, i := range wrappedArgs(format) {
		if 1+i < len(args) {
			val = append(val, s.eval(args[1+i])...)
		}
	}
	return val
}

// collectConds records, for each call of the body, the condition on a
// parameter it stands under, if any (see Cond): the innermost if whose
// body holds it and whose condition is, or has as a conjunct, a parameter
// compared with == to a non-empty string constant.
func (s *summarizer) collectConds(body *ast.BlockStmt) {
	s.conds = map[*ast.CallExpr]Cond{}
	var visit func(n ast.Node, c Cond)
	visit = func(n ast.Node, c Cond) {
		if n == nil {
			return
		}
		ast.Inspect(n, func(m ast.Node) bool {
			switch m := m.(type) {
			case *ast.IfStmt:
				visit(m.Init, c)
				visit(m.Cond, c)
				inner := c
				if cond, ok := s.condOf(m.Cond); ok {
					inner = cond
				}
				visit(m.Body, inner)
				if m.Else != nil {
					visit(m.Else, c)
				}
				return false
			case *ast.CallExpr:
				if c.Text != "" {
					s.conds[m] = c
				}
			}
			return true
		})
	}
	visit(body, Cond{})
}

// condOf returns the Cond of an if's condition.
func (s *summarizer) condOf(e ast.Expr) (Cond, bool) {
	switch e := ast.Unparen(e).(type) {
	case *ast.BinaryExpr:
		switch e.Op {
		case token.LAND:
			if c, ok := s.condOf(e.X); ok {
				return c, true
			}
			return s.condOf(e.Y)
		case token.EQL:
			for _, pair := range [][2]ast.Expr{{e.X, e.Y}, {e.Y, e.X}} {
				id, key := s.paramPart(pair[0])
				if id == nil {
					continue
				}
				v, ok := s.info.Uses[id].(*types.Var)
				if !ok {
					continue
				}
				i, param := s.params[v]
				tv := s.info.Types[pair[1]]
				if !param || tv.Value == nil || tv.Value.Kind() != constant.String || constant.StringVal(tv.Value) == "" {
					continue
				}
				return Cond{Text: types.ExprString(e), Param: i + 1, Value: tv.Value.ExactString(), Key: key}, true
			}
		}
	}
	return Cond{}, false
}

// paramPart splits what a condition tests into the identifier it reads
// and the Cond.Key of the part: x itself, x[i] with a constant index of a
// slice, or x.F, a field of a struct or of a pointer to one.
func (s *summarizer) paramPart(e ast.Expr) (*ast.Ident, string) {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return e, ""
	case *ast.IndexExpr:
		id, ok := ast.Unparen(e.X).(*ast.Ident)
		tv := s.info.Types[e.Index]
		if _, slice := s.info.TypeOf(e.X).Underlying().(*types.Slice); !ok || !slice || tv.Value == nil || tv.Value.Kind() != constant.Int {
			return nil, ""
		}
		return id, "[" + tv.Value.ExactString() + "]"
	case *ast.SelectorExpr:
		id, ok := ast.Unparen(e.X).(*ast.Ident)
		sel, isSel := s.info.Selections[e]
		if !ok || !isSel || sel.Kind() != types.FieldVal || len(sel.Index()) != 1 {
			return nil, ""
		}
		return id, "." + e.Sel.Name
	}
	return nil, ""
}

// callConsts returns, by fn's parameter index, what each argument of a
// call is for fn's conditions, or nil when arguments and parameters cannot
// be matched.
func (s *summarizer) callConsts(sig *types.Signature, call *ast.CallExpr) []Arg {
	return argsOf(s.info, sig, call, func(a ast.Expr) int {
		if j, ok := s.param(a); ok {
			return j + 1
		}
		return 0
	})
}

// param returns the index of the function's parameter that e names.
func (s *summarizer) param(e ast.Expr) (int, bool) {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return 0, false
	}
	v, ok := s.info.Uses[id].(*types.Var)
	if !ok {
		return 0, false
	}
	i, ok := s.params[v]
	return i, ok
}

// argsOf returns, by parameter index of sig, what each argument of call
// is for the callee's conditions: a constant, a slice (the variadic
// arguments among them) or a struct literal with constant elements, or
// the caller's parameter (1 + its index, as param gives it) passed on,
// through * or & too. It is nil when arguments and parameters cannot be
// matched.
func argsOf(info *types.Info, sig *types.Signature, call *ast.CallExpr, param func(ast.Expr) int) []Arg {
	if sig == nil {
		return nil
	}
	n := sig.Params().Len()
	spread := sig.Variadic() && !call.Ellipsis.IsValid()
	if len(call.Args) > n && !spread {
		return nil
	}
	if len(call.Args) == 1 {
		if _, tuple := info.TypeOf(call.Args[0]).(*types.Tuple); tuple {
			return nil // f(g())
		}
	}
	consts := make([]Arg, n)
	for i, a := range call.Args {
		if spread && i >= n-1 {
			break
		}
		consts[i] = argOf(info, a, param)
	}
	if spread {
		keys := map[string]string{}
		for i, a := range call.Args[n-1:] {
			if tv := info.Types[a]; tv.Value != nil {
				keys[fmt.Sprintf("[%d]", i)] = tv.Value.ExactString()
			}
		}
		consts[n-1] = Arg{keys: keys}
	}
	return consts
}

// argOf is what one argument is for the callee's conditions (see argsOf).
func argOf(info *types.Info, a ast.Expr, param func(ast.Expr) int) Arg {
	if tv := info.Types[a]; tv.Value != nil {
		return Arg{known: true, value: tv.Value.ExactString()}
	}
	switch e := ast.Unparen(a).(type) {
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			return argOf(info, e.X, param)
		}
	case *ast.StarExpr:
		return argOf(info, e.X, param)
	case *ast.CompositeLit:
		keys := map[string]string{}
		st, isStruct := info.TypeOf(e).Underlying().(*types.Struct)
		for i, elt := range e.Elts {
			key := fmt.Sprintf("[%d]", i)
			if isStruct && i < st.NumFields() {
				key = "." + st.Field(i).Name()
			}
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				id, isID := kv.Key.(*ast.Ident)
				if !isID {
					return Arg{} // an indexed slice or a map: not read
				}
				key, elt = "."+id.Name, kv.Value
			}
			if tv := info.Types[elt]; tv.Value != nil {
				keys[key] = tv.Value.ExactString()
			}
		}
		if isStruct && (len(e.Elts) == 0 || isKeyed(e.Elts[0])) {
			// A field a keyed literal leaves out is its zero value.
			for f := range st.Fields() {
				if _, set := keys["."+f.Name()]; !set {
					if z := zeroString(f.Type()); z != "" {
						keys["."+f.Name()] = z
					}
				}
			}
		}
		return Arg{keys: keys}
	}
	return Arg{param: param(a)}
}

func isKeyed(e ast.Expr) bool {
	_, ok := e.(*ast.KeyValueExpr)
	return ok
}

// zeroString is the ExactString of a string type's zero value, "" for
// another type.
func zeroString(t types.Type) string {
	if b, ok := t.Underlying().(*types.Basic); ok && b.Info()&types.IsString != 0 {
		return constant.MakeString("").ExactString()
	}
	return ""
}

// funcArgs returns what the functions passed to fn return, by argument,
// when fn returns an error: a helper that runs a closure and returns an
// error (a queue, a retry loop, a once) is taken to hand the closure's
// errors back, whether it calls it itself or through a worker.
func (s *summarizer) funcArgs(sig *types.Signature, call *ast.CallExpr) []value {
	if sig == nil || !mcpapi.ReturnsError(sig.Results()) {
		return nil
	}
	var funcs []value
	for _, a := range call.Args {
		sig, ok := s.info.TypeOf(a).Underlying().(*types.Signature)
		if !ok || !mcpapi.ReturnsError(sig.Results()) {
			continue
		}
		if v := s.evalFunc(a); v != nil {
			funcs = append(funcs, v)
		}
	}
	return funcs
}

// entryValue is what a contract entry raised at src carries: its code and
// its reason.
func (s *summarizer) entryValue(e ast.Expr, src Source) value {
	f := s.r.entry(e)
	if f == nil {
		return nil
	}
	var val value
	if f.Code != 0 {
		val = append(val, codeAtom{Code{f.Code, src}})
	}
	if f.Reason != "" {
		val = append(val, reasonAtom{Reason{f.Reason, f.Code, src}})
	}
	return val
}

// evalErrCall returns what the error a call of an mcperr function can
// carry.
func (s *summarizer) evalErrCall(fn *types.Func, call *ast.CallExpr, src Source) value {
	args := call.Args
	if code, ok := mcpapi.FactoryCode(s.info, call); ok {
		opts := args[min(len(args), 1):]
		if fn.Name() == "New" {
			opts = args[min(len(args), 2):]
		}
		return append(value{codeAtom{Code{code, src}}}, s.options(opts, code, 0, src)...)
	}
	switch {
	case fn.Name() == "New" && len(args) > 0:
		// A code that is not a constant: the caller's, when it is a
		// parameter (see ParamCode).
		if i, ok := s.param(args[0]); ok {
			return append(value{paramCodeAtom{ParamCode{Param: i, Source: src}}}, s.options(args[min(len(args), 2):], 0, i+1, src)...)
		}
		return s.options(args[min(len(args), 2):], 0, 0, src)
	case fn.Name() == "FromResponse":
		return append(value{responseAtom{src}}, s.options(args[min(len(args), 1):], 0, 0, src)...)
	case fn.Name() == "From" && len(args) == 1:
		// From returns the *Error in err's chain as it is.
		return s.eval(args[0])
	case (fn.Name() == "Retry" || fn.Name() == "TryCatch") && len(args) == 3:
		// Both return fn's error, or one with its code.
		return s.evalFunc(args[2])
	}
	return nil
}

// evalFunc returns what calling the function expression e returns, when
// it is handed to a helper that calls it (see targets): a func literal,
// a function named statically, or a variable, field or helper's result
// holding them. What cannot be followed is unknown.
func (s *summarizer) evalFunc(e ast.Expr) value {
	e = ast.Unparen(e)
	if lit, ok := e.(*ast.FuncLit); ok {
		return s.returns(lit.Type, lit.Body)
	}
	ts, ok := s.targets(e, 0)
	if !ok {
		if mcpapi.CanRaise(s.r.pass.Pkg) {
			return value{opaqueAtom{}, unfollowedAtom{Unfollowed{What: types.ExprString(e), Source: Source{pos: e.Pos()}}}}
		}
		return nil
	}
	var val value
	for _, t := range ts {
		if t.fn != nil {
			if t.fn.Pkg() != nil {
				val = append(val, callAtom{fn: t.fn, pos: e.Pos()})
			}
			continue
		}
		val = append(val, litCallAtom{ret: t.s.litReturns(t.lit), pos: e.Pos()})
	}
	return val
}

// callArgs returns what each argument of a call of fn carries, by fn's
// parameter index, or nil when arguments and parameters cannot be matched
// (f(g()), a method expression).
func (s *summarizer) callArgs(sig *types.Signature, call *ast.CallExpr) []value {
	if sig == nil {
		return nil
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if x, ok := s.info.Selections[sel]; ok && x.Kind() == types.MethodExpr {
			return nil
		}
	}
	n := sig.Params().Len()
	if len(call.Args) == 1 && n > 1 {
		if _, ok := s.info.TypeOf(call.Args[0]).(*types.Tuple); ok {
			return nil
		}
	}
	args := make([]value, n)
	for i, a := range call.Args {
		switch {
		case i < n-1 || (i == n-1 && !sig.Variadic()):
			args[i] = s.eval(a)
		case sig.Variadic() && !call.Ellipsis.IsValid():
			args[n-1] = append(args[n-1], s.eval(a)...)
		}
	}
	return args
}

// options returns the reasons the options of an error-building call raise:
// data.reason set by mcperr.WithData, and the reasons whose recovery
// mcpcore.RecoveryFor or ctx.RecoveryFor attaches. code is the error's
// code, 0 when it is not known; codeParam is 1 + the index of the
// parameter it is taken from, 0 for none.
func (s *summarizer) options(opts []ast.Expr, code mcperr.Code, codeParam int, src Source) value {
	var val value
	stamp := func(reason string) {
		if codeParam > 0 {
			val = append(val, paramCodeAtom{ParamCode{codeParam - 1, reason, src}})
		} else {
			val = append(val, reasonAtom{Reason{reason, code, src}})
		}
	}
	busy := map[*types.Var]bool{}
	var opt func(e ast.Expr)
	opt = func(e ast.Expr) {
		switch e := ast.Unparen(e).(type) {
		case *ast.Ident:
			// An option kept in a variable: whatever was assigned to it.
			v, ok := s.info.Uses[e].(*types.Var)
			if !ok || busy[v] {
				return
			}
			busy[v] = true
			for _, src := range s.locals[v] {
				opt(src)
			}
		case *ast.CallExpr:
			fn := mcpapi.Callee(s.info, e)
			switch {
			case mcpapi.IsFunc(fn, mcpapi.ErrPath, "WithData") && len(e.Args) == 1:
				for _, x := range s.mapReasons(e.Args[0], 0) {
					switch {
					case x.reason != "":
						stamp(x.reason)
					case x.param >= 0:
						val = append(val, paramReasonAtom{ParamReason{x.param, code, codeParam, src}})
					}
				}
			case mcpapi.RecoveryEntry(fn, e) != nil:
				if f := s.r.entry(mcpapi.RecoveryEntry(fn, e)); f != nil && f.Reason != "" {
					stamp(f.Reason)
				}
			}
		}
	}
	for _, e := range opts {
		opt(e)
	}
	return val
}

// hinted reports whether the error a call of fn builds may carry a
// recovery hint: the options of ctx.Fail, of an mcperr factory, of
// mcperr.New or of mcperr.FromResponse ask for one.
func hinted(info *types.Info, fn *types.Func, call *ast.CallExpr) bool {
	from := 1 // a factory's message, FromResponse's response
	switch {
	case fn == nil || fn.Pkg() == nil:
		return false
	case mcpapi.IsContextMethod(fn, "Fail"), mcpapi.IsFunc(fn, mcpapi.ErrPath, "New"):
		from = 2
	case fn.Pkg().Path() != mcpapi.ErrPath || (mcpapi.Factories[fn.Name()] == 0 && fn.Name() != "FromResponse"):
		return false
	}
	if call.Ellipsis.IsValid() {
		return true // options spread from a slice: not known
	}
	return mcpapi.ForwardsRecovery(info, call.Args[min(len(call.Args), from):])
}

// A stamped is the "reason" of a data map: a constant, or the parameter
// of the function being read that it is (param is -1 for none).
type stamped struct {
	reason string
	param  int
}

// mapReasons returns the "reason"s a data map can hold: a map literal's
// constant or parameter, a variable's assignments, or what a helper of this
// package (a function, or a func literal held in a variable) returns,
// with its parameters bound to the call's arguments, as in
// mcperr.WithData(data("path_is_dir")).
func (s *summarizer) mapReasons(e ast.Expr, hops int) []stamped {
	if hops > maxHops {
		return nil
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		for _, elt := range e.Elts {
			kv, ok := elt.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			if k, ok := mcpapi.ConstString(s.info, kv.Key); !ok || k != "reason" {
				continue
			}
			if v, ok := mcpapi.ConstString(s.info, kv.Value); ok {
				return []stamped{{reason: v, param: -1}}
			}
			if i, ok := s.param(kv.Value); ok {
				return []stamped{{param: i}}
			}
		}
	case *ast.Ident:
		v, ok := s.info.Uses[e].(*types.Var)
		if !ok {
			return nil
		}
		var out []stamped
		for _, src := range s.locals[v] {
			out = append(out, s.mapReasons(src, hops+1)...)
		}
		return out
	case *ast.CallExpr:
		return s.helperReasons(e, hops)
	}
	return nil
}

// helperReasons is what mapReasons says of a call of a helper that
// returns a data map.
func (s *summarizer) helperReasons(call *ast.CallExpr, hops int) []stamped {
	var ts []target
	if fn := calleeFunc(s.info, call); fn != nil {
		ts = []target{{fn: fn}}
	} else {
		ts, _ = s.targets(call.Fun, hops+1)
	}
	var out []stamped
	for _, t := range ts {
		var hs *summarizer
		var body *ast.BlockStmt
		switch {
		case t.lit != nil:
			hs, body = t.s.litSummarizer(t.lit), t.lit.Body
		case s.r.decls[t.fn] != nil:
			fd := s.r.decls[t.fn]
			hs, body = s.r.summarizer(fd.Type, fd.Body), fd.Body
		default:
			continue
		}
		ast.Inspect(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				for _, res := range n.Results {
					for _, x := range hs.mapReasons(res, hops+1) {
						out = append(out, s.bindArg(x, call))
					}
				}
				return false
			}
			return true
		})
	}
	return out
}

// bindArg turns a helper's stamped reason into the caller's: a parameter
// of the helper becomes what the call passes to it.
func (s *summarizer) bindArg(x stamped, call *ast.CallExpr) stamped {
	if x.reason != "" || x.param < 0 || x.param >= len(call.Args) || call.Ellipsis.IsValid() {
		return stamped{reason: x.reason, param: -1}
	}
	a := call.Args[x.param]
	if v, ok := mcpapi.ConstString(s.info, a); ok {
		return stamped{reason: v, param: -1}
	}
	if i, ok := s.param(a); ok {
		return stamped{param: i}
	}
	return stamped{param: -1}
}
