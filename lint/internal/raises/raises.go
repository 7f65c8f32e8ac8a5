package raises

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/seed417024ea/mcpcore/lint/internal/mcpapi"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// Analyzer computes, for every function of a package, the codes it can
// return and the reasons it can raise, and exports them as *Raises facts.
// It reports nothing. Its result is a *Result, through which analyzers that
// require it query functions and func literals without importing the facts
// themselves (facts belong to the analyzer that declares them).
var Analyzer = &analysis.Analyzer{
	Name:       "mcpraises",
	Doc:        doc,
	Run:        run,
	FactTypes:  []analysis.Fact{(*Raises)(nil), (*Failure)(nil)},
	ResultType: reflect.TypeFor[*Result](),
}

const doc = `compute the error codes and contract reasons each function can return

The mcpraises analyzer reports nothing. It exports a fact on every function
whose errors can carry an mcperr code or a contract reason to its caller,
and a fact on every package-level mcpcore.Failure variable, for the
conformance rules of mcplint to use across packages.`

// A Raises is what the errors a function returns can carry: the codes, the
// contract reasons, the mcperr.FromResponse calls, and the parameters whose
// errors it hands back. It is the fact on functions and the answer of
// [Result.Func] and [Result.Of]. Its methods accept a nil *Raises, which
// raises nothing.
//
// What it holds errs towards saying less: a code is listed only when an
// error with that code can be returned, so that a rule never reports a code
// the function cannot give. The analysis does not see through interface
// method calls, calls of function values, goroutines or deferred calls, and
// it is flow-insensitive within a function: an error variable returned
// anywhere carries everything ever assigned to it.
//
// FromResponse is kept apart from Codes: its code depends on the upstream's
// HTTP status at run time, so any of [ResponseCodes] may come, and none is
// certain. Rules should treat it so: conformance must not report a code as
// undeclared because of a FromResponse alone (a false finding would be a
// guess at the upstream's statuses), and unthrown must not count it as
// raising a reason, because the error it builds has no data.reason unless
// its options attach one, in which case that reason is in Reasons.
type Raises struct {
	Codes        []Code
	Reasons      []Reason
	FromResponse []Source
	// Params are the indexes of the parameters whose errors can be
	// returned, as they are or wrapped (with %w, errors.Join or
	// mcperr.From), so that a caller adds what it passes in.
	Params []int
	// ParamReasons are the reasons stamped from a string parameter
	// (mcperr.WithData(map[string]any{"reason": reason}), or through a
	// helper that builds the map): a caller that passes a constant
	// raises it.
	ParamReasons []ParamReason
	// ParamCodes are the codes taken from an mcperr.Code parameter
	// (mcperr.New(code, …)), each with the constant reason the same
	// error stamps: a caller that passes a constant raises that code,
	// and the reason with it.
	ParamCodes []ParamCode
	// Unfollowed are the function values whose errors can be returned
	// and whose functions the analysis cannot tell (a map element, a
	// helper of another package's result): the reason it is Opaque.
	Unfollowed []Unfollowed
	// Opaque says that the function can also return an error the
	// analysis cannot see into (an interface method, a function value),
	// which may carry any code or reason: a rule that judges by what is
	// absent (unthrown) must stay silent.
	Opaque bool
}

// AFact marks Raises as an analysis fact.
func (*Raises) AFact() {}

// A Source says where an item of a [Raises] comes from.
type Source struct {
	// Via names the function the item was called through, such as
	// "ncbi.Client.Fetch"; "" when the function raises it itself.
	Via string
	// Origin names the function that raises it itself, at the end of the
	// chain of calls that starts with Via; "" when Via is "".
	Origin string
	// If is what the function that raises the item tests first, when it
	// raises it only if a parameter equals a constant.
	If Cond
	// Hinted says the error is built with a recovery hint, or with an
	// option that may set one (see mcpapi.ForwardsRecovery): ctx.FailFrom
	// keeps it, so a handler that maps the error sends a hint.
	Hinted bool

	// pos is, in a function of the package being analyzed, the call that
	// builds the error or the call of Via (the first one in the file, when
	// there are several). It is not part of the fact: a position means
	// nothing in another package.
	pos token.Pos
}

// Pos returns the position of the call that builds the error, or of the
// call of Via, in the function the item belongs to; token.NoPos when that
// function was analyzed in another package.
func (s Source) Pos() token.Pos { return s.pos }

// String returns " via <Via>", with " from <Origin>" when the chain is
// longer than one call, or "" for an item raised in the function itself;
// then " if <condition>" when one is known.
func (s Source) String() string {
	var str string
	switch s.Via {
	case "":
	case s.Origin:
		str = " via " + s.Via
	default:
		str = " via " + s.Via + " from " + s.Origin
	}
	if s.If.Text != "" {
		str += " if " + s.If.Text
	}
	return str
}

// A Cond is a test a function makes before it raises an item: a
// parameter compared with a non-empty string constant, such as op ==
// "catalog.Deposit" (a mode switch; a test against "" is a check of the
// input, and is not kept). A caller that passes another constant cannot
// get the item, and one that passes the constant always can.
type Cond struct {
	// Text is the condition as written, for messages; "" for none.
	Text string
	// Param is 1 + the index of the parameter tested, of the function
	// the item belongs to; 0 once the condition is no longer on one of
	// its parameters (the caller passed something the analysis cannot
	// read), and only Text says it.
	Param int
	// Value is the constant, as constant.Value.ExactString gives it.
	Value string
	// Key is the part of the parameter tested: "" for the parameter
	// itself, "[i]" for the element at a constant index of a slice or
	// variadic parameter (args[0] == "push"), ".F" for the field F of a
	// struct parameter (op.Verb == "push").
	Key string
}

// A Code is a code a function can return.
type Code struct {
	Code mcperr.Code
	Source
}

// String returns the code's name and its source, such as "RateLimited via
// ncbi.Client.Fetch".
func (c Code) String() string { return c.Code.String() + c.Source.String() }

// A Reason is a contract reason a function can raise: data.reason set by
// ctx.Fail or an mcperr.WithData option, or a reason whose recovery is
// attached with mcpcore.RecoveryFor(ctx, entry) or ctx.RecoveryFor(entry).
type Reason struct {
	Reason string
	// Code is the code of the error that carries the reason; 0 when it is
	// not a constant (mcperr.New with a variable code, FromResponse, an
	// entry whose Code is computed).
	Code mcperr.Code
	Source
}

// String returns the reason, ":" and the code's name when known, and its
// source, such as "no_match:NotFound via ncbi.Client.Fetch".
func (r Reason) String() string {
	s := r.Reason
	if r.Code != 0 {
		s += ":" + r.Code.String()
	}
	return s + r.Source.String()
}

// A ParamReason is a reason a function stamps from its parameter Param.
type ParamReason struct {
	Param int
	// Code is the code of the error that carries it, 0 when not known.
	Code mcperr.Code
	// CodeParam is 1 + the index of the parameter the error's code is
	// taken from (mcperr.New(code, …)), 0 when Code says it.
	CodeParam int
	Source
}

// A ParamCode is a code a function takes from its parameter Param.
type ParamCode struct {
	Param int
	// Reason is the constant reason the error with that code stamps, ""
	// for none (a reason from a parameter is a ParamReason's).
	Reason string
	Source
}

// Bind returns the code p raises in a call that passes consts, false
// when the call passes no constant there.
func (p ParamCode) Bind(consts []Arg) (mcperr.Code, bool) {
	if p.Param >= len(consts) {
		return 0, false
	}
	return consts[p.Param].code()
}

// String returns "param N", the reason stamped with it when there is
// one, and its source.
func (p ParamCode) String() string {
	s := fmt.Sprintf("param %d", p.Param)
	if p.Reason != "" {
		s += " " + p.Reason
	}
	return s + p.Source.String()
}

// An Unfollowed is a function value called, or handed to a helper, whose
// functions the analysis cannot tell.
type Unfollowed struct {
	// What is the expression as written, such as "c.hooks[name]".
	What string
	Source
}

// String returns the expression and where it comes from.
func (u Unfollowed) String() string { return u.What + u.Source.String() }

// Stamp returns the reason p stamps in a call that passes consts, ""
// when the call passes no constant there.
func (p ParamReason) Stamp(consts []Arg) string {
	if p.Param >= len(consts) || !consts[p.Param].known {
		return ""
	}
	reason, err := strconv.Unquote(consts[p.Param].value)
	if err != nil {
		return ""
	}
	return reason
}

// ErrCode returns the code of the error that stamps p in a call that
// passes consts, 0 when not known.
func (p ParamReason) ErrCode(consts []Arg) mcperr.Code {
	if p.CodeParam == 0 {
		return p.Code
	}
	c, _ := ParamCode{Param: p.CodeParam - 1}.Bind(consts)
	return c
}

// String returns "reason(param N)" and the code's name when known.
func (p ParamReason) String() string {
	s := fmt.Sprintf("param %d", p.Param)
	switch {
	case p.Code != 0:
		s += ":" + p.Code.String()
	case p.CodeParam > 0:
		s += fmt.Sprintf(":param %d", p.CodeParam-1)
	}
	return s + p.Source.String()
}

// HasCode reports whether the function can return code, by any route.
func (r *Raises) HasCode(code mcperr.Code) bool {
	return r != nil && slices.ContainsFunc(r.Codes, func(c Code) bool { return c.Code == code })
}

// HasReason reports whether the function can raise reason, by any route.
func (r *Raises) HasReason(reason string) bool {
	return r != nil && slices.ContainsFunc(r.Reasons, func(x Reason) bool { return x.Reason == reason })
}

// CallsFromResponse reports whether an error built by mcperr.FromResponse
// can be returned.
func (r *Raises) CallsFromResponse() bool { return r != nil && len(r.FromResponse) > 0 }

// Empty reports whether the function raises nothing the analysis can see.
func (r *Raises) Empty() bool {
	return r == nil || len(r.Codes)+len(r.Reasons)+len(r.FromResponse)+len(r.Params)+len(r.ParamReasons)+len(r.ParamCodes) == 0 && !r.Opaque
}

// String lists the items in a stable order, for analysistest's
// `// want f:"…"` expectations, such as
//
//	codes NotFound, RateLimited via b.Client.Fetch from c.Get; reasons no_match:NotFound; fromResponse direct, via c.Get; params 0
//
// Sections with no items are left out.
func (r *Raises) String() string {
	if r.Empty() {
		return "raises nothing"
	}
	var parts []string
	add := func(name string, items []string) {
		if len(items) > 0 {
			parts = append(parts, name+" "+strings.Join(items, ", "))
		}
	}
	add("codes", strs(r.Codes))
	add("reasons", strs(r.Reasons))
	var resp []string
	for _, s := range r.FromResponse {
		if s.Via == "" {
			resp = append(resp, "direct")
		} else {
			resp = append(resp, strings.TrimPrefix(s.String(), " "))
		}
	}
	add("fromResponse", resp)
	add("params", strs(r.Params))
	add("paramReasons", strs(r.ParamReasons))
	add("paramCodes", strs(r.ParamCodes))
	if r.Opaque {
		parts = append(parts, "opaque")
	}
	add("unfollowed", strs(r.Unfollowed))
	return strings.Join(parts, "; ")
}

func strs[T any](xs []T) []string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return s
}

// A Failure is the fact on a package-level variable initialised with an
// mcpcore.Failure literal, so that a package naming it (ctx.Fail(b.NoMatch,
// …), a contract listing it) can read the entry. A field is empty when the
// literal does not set it to a constant.
type Failure struct {
	Reason   string
	Code     mcperr.Code
	When     string
	Recovery string
	Severity string
	ThrownBy string
}

// AFact marks Failure as an analysis fact.
func (*Failure) AFact() {}

// String returns "failure <reason>:<code>", and " thrownBy <ThrownBy>" when
// set.
func (f *Failure) String() string {
	s := "failure " + f.Reason + ":" + f.Code.String()
	if f.ThrownBy != "" {
		s += " thrownBy " + f.ThrownBy
	}
	return s
}

func failureOf(f *mcpapi.Failure) *Failure {
	return &Failure{Reason: f.Reason, Code: f.Code, When: f.When, Recovery: f.Recovery, Severity: f.Severity, ThrownBy: f.ThrownBy}
}

// ResponseCodes are the codes mcperr.FromResponse can give without
// mcperr.WithCodeOverride: those of mcperr.CodeForHTTPStatus, and
// InternalError for a status below 400 or no response.
var ResponseCodes = responseCodes()

func responseCodes() []mcperr.Code {
	codes := []mcperr.Code{mcperr.CodeInternalError}
	for status := 400; status < 600; status++ {
		if c, ok := mcperr.CodeForHTTPStatus(status); ok && !slices.Contains(codes, c) {
			codes = append(codes, c)
		}
	}
	slices.Sort(codes)
	return codes
}

// A Result answers, for the package being analyzed, what its functions and
// func literals raise, and what the functions of other packages raise
// through the facts Analyzer imported. Get it with
// pass.ResultOf[raises.Analyzer].(*raises.Result), or use [Of].
//
// Its methods are safe for concurrent use: the analyzers that require
// Analyzer may run at the same time on the same package, and share one
// Result. What they return is shared too, and must not be modified.
type Result struct {
	pass *analysis.Pass

	// mu guards the maps, which fill as questions come; the exported
	// methods lock it, the unexported ones expect it held (or Run).
	mu       sync.Mutex
	funcs    map[*types.Func]*Raises  // the package's functions
	imported map[*types.Func]*Raises  // facts of other packages' functions
	lits     map[*ast.FuncLit]*Raises // func literals asked about
	decls    map[*types.Func]*ast.FuncDecl
	// failures are the Failure literals of the package's variables, and
	// the facts of other packages' Failure variables, once read.
	failures map[*types.Var]*Failure

	// sums are the summarizers of the package's functions, litSums those
	// of func literals called through a variable, and litRets what
	// these return; litBusy guards a literal that reaches itself.
	sums    map[*ast.BlockStmt]*summarizer
	litSums map[*ast.FuncLit]*summarizer
	litRets map[*ast.FuncLit]value
	litBusy map[*ast.FuncLit]bool
	// assigns are the package's assignments to fields and package
	// variables of function type (see indexAssigns), and pkgSummarizer
	// reads those at package level.
	assigns       map[*types.Var][]assign
	pkgSummarizer *summarizer
}

// Func returns what fn can raise: fn of this package, or of another
// through its fact. It never returns nil: a function that raises nothing
// the analysis can see, or has no body, gets an empty Raises.
func (r *Result) Func(fn *types.Func) *Raises {
	r.mu.Lock()
	defer r.mu.Unlock()
	return orEmpty(r.fn(fn))
}

// fn is Func, but nil when fn raises nothing.
func (r *Result) fn(fn *types.Func) *Raises {
	if fn == nil {
		return nil
	}
	fn = fn.Origin()
	if fn.Pkg() == r.pass.Pkg {
		return r.funcs[fn]
	}
	if rs, ok := r.imported[fn]; ok {
		return rs
	}
	rs := new(Raises)
	if !r.pass.ImportObjectFact(fn, rs) {
		rs = nil
	}
	r.imported[fn] = rs
	return rs
}

func orEmpty(rs *Raises) *Raises {
	if rs == nil {
		return new(Raises)
	}
	return rs
}

// Of returns what the function fn of this package can raise: a
// *ast.FuncDecl, or a *ast.FuncLit such as a handler given inline in a
// composite literal. A func literal's summary counts only its own returns,
// and uses the facts of what it calls. Like Func, it never returns nil; a
// node of any other kind raises nothing.
func (r *Result) Of(fn ast.Node) *Raises {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch fn := fn.(type) {
	case *ast.FuncDecl:
		obj, _ := r.pass.TypesInfo.Defs[fn.Name].(*types.Func)
		return orEmpty(r.fn(obj))
	case *ast.FuncLit:
		rs, ok := r.lits[fn]
		if !ok {
			rs = orEmpty(r.resolveAlone(r.summarize(fn), nil))
			r.lits[fn] = rs
		}
		return rs
	}
	return new(Raises)
}

// Of returns what fn can raise, as [Result.Of], for an analyzer that
// requires Analyzer.
func Of(pass *analysis.Pass, fn ast.Node) *Raises {
	return pass.ResultOf[Analyzer].(*Result).Of(fn)
}

// Failure returns the entry a Failure variable is initialised with: a
// package-level variable of this package or another, or a local variable of
// this package defined once. It returns nil when the variable is none of
// these.
func (r *Result) Failure(v *types.Var) *Failure {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.failure(v)
}

func (r *Result) failure(v *types.Var) *Failure {
	if v == nil {
		return nil
	}
	if f, ok := r.failures[v]; ok || v.Pkg() == r.pass.Pkg {
		return f
	}
	f := new(Failure)
	if !r.pass.ImportObjectFact(v, f) {
		f = nil
	}
	r.failures[v] = f
	return f
}

// Entry returns the entry an expression given to ctx.Fail or
// ctx.RecoveryFor stands for: an mcpcore.Failure literal, or a variable
// [Result.Failure] can read. It returns nil for anything else.
func (r *Result) Entry(e ast.Expr) *Failure {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.entry(e)
}

func (r *Result) entry(e ast.Expr) *Failure {
	info := r.pass.TypesInfo
	switch e := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		if f := mcpapi.ReadFailure(info, e); f != nil {
			return failureOf(f)
		}
	case *ast.Ident:
		v, _ := info.Uses[e].(*types.Var)
		return r.failure(v)
	case *ast.SelectorExpr:
		if _, ok := info.Selections[e]; ok {
			return nil // a field: its value is not known
		}
		v, _ := info.Uses[e.Sel].(*types.Var) // pkg.Var
		return r.failure(v)
	}
	return nil
}

func run(pass *analysis.Pass) (any, error) {
	r := &Result{
		pass:     pass,
		funcs:    map[*types.Func]*Raises{},
		imported: map[*types.Func]*Raises{},
		lits:     map[*ast.FuncLit]*Raises{},
		decls:    map[*types.Func]*ast.FuncDecl{},
		failures: map[*types.Var]*Failure{},
		sums:     map[*ast.BlockStmt]*summarizer{},
		litSums:  map[*ast.FuncLit]*summarizer{},
		litRets:  map[*ast.FuncLit]value{},
		litBusy:  map[*ast.FuncLit]bool{},
	}
	r.pkgSummarizer = r.newSummarizer(nil)

	// Failure variables first: the summaries read them.
	r.readFailures()
	r.importUsed()
	order := r.collectDecls()
	r.resolvePackage(order)

	for _, fn := range order {
		if rs := r.funcs[fn]; !rs.Empty() {
			pass.ExportObjectFact(fn, rs.withoutPos())
		}
	}
	return r, nil
}

// readFailures reads the package's Failure variables, exporting a fact for
// each one at package level.
func (r *Result) readFailures() {
	scope := r.pass.Pkg.Scope()
	vars := mcpapi.FailureVars(r.pass.TypesInfo, r.pass.Files)
	for _, v := range sortedVars(vars) {
		f := failureOf(vars[v])
		r.failures[v] = f
		if v.Parent() == scope {
			r.pass.ExportObjectFact(v, f)
		}
	}
}

// importUsed imports the facts of what the package uses now, while Run
// may still import: a rule may ask about them after Run has returned.
func (r *Result) importUsed() {
	for _, obj := range r.pass.TypesInfo.Uses {
		if obj.Pkg() == nil || obj.Pkg() == r.pass.Pkg {
			continue
		}
		switch obj := obj.(type) {
		case *types.Func:
			r.fn(obj)
		case *types.Var:
			if !obj.IsField() && mcpapi.IsFailureType(obj.Type()) {
				r.failure(obj)
			}
		}
	}
}

// collectDecls records the package's function declarations with a body,
// and returns their functions in source order.
func (r *Result) collectDecls() []*types.Func {
	var order []*types.Func
	for _, file := range r.pass.Files {
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if fn, ok := r.pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
				r.decls[fn] = fd
				order = append(order, fn)
			}
		}
	}
	return order
}

// withoutPos returns a copy of r without positions, for the fact: a
// position is of no use in another package, and the drivers that serialize
// facts would lose it anyway.
func (r *Raises) withoutPos() *Raises {
	c := &Raises{
		Codes:        slices.Clone(r.Codes),
		Reasons:      slices.Clone(r.Reasons),
		FromResponse: slices.Clone(r.FromResponse),
		Params:       slices.Clone(r.Params),
		ParamReasons: slices.Clone(r.ParamReasons),
		ParamCodes:   slices.Clone(r.ParamCodes),
		Unfollowed:   slices.Clone(r.Unfollowed),
		Opaque:       r.Opaque,
	}
	for i := range c.ParamReasons {
		c.ParamReasons[i].pos = token.NoPos
	}
	for i := range c.ParamCodes {
		c.ParamCodes[i].pos = token.NoPos
	}
	for i := range c.Unfollowed {
		c.Unfollowed[i].pos = token.NoPos
	}
	for i := range c.Codes {
		c.Codes[i].pos = token.NoPos
	}
	for i := range c.Reasons {
		c.Reasons[i].pos = token.NoPos
	}
	for i := range c.FromResponse {
		c.FromResponse[i].pos = token.NoPos
	}
	return c
}

func sortedVars(m map[*types.Var]*mcpapi.Failure) []*types.Var {
	vs := make([]*types.Var, 0, len(m))
	for v := range m {
		vs = append(vs, v)
	}
	slices.SortFunc(vs, func(a, b *types.Var) int { return cmp.Compare(a.Pos(), b.Pos()) })
	return vs
}

// FuncName names fn as the facts' sources do: "pkg.Func", or
// "pkg.Type.Method" for a method, after the package's name.
func FuncName(fn *types.Func) string { return funcName(fn) }

// WrappedArgs returns the indexes of the arguments after an fmt.Errorf
// format that its %w verbs wrap, or nil when the format cannot be read
// with certainty.
func WrappedArgs(format string) []int { return wrappedArgs(format) }

// Built returns what the error a call builds carries of itself: the code
// of an mcperr factory or of mcperr.New with a constant code, with the
// reasons its options stamp; a FromResponse; or the code and reason of the
// entry ctx.Fail is given. It returns nil for a call that builds none of
// these, and an empty Raises for one whose entry or code it cannot read.
// Options held in variables are not followed.
func (r *Result) Built(call *ast.CallExpr) *Raises {
	r.mu.Lock()
	defer r.mu.Unlock()
	fn := mcpapi.Callee(r.pass.TypesInfo, call)
	if fn == nil || fn.Pkg() == nil {
		return nil
	}
	s := &summarizer{r: r, info: r.pass.TypesInfo, locals: map[*types.Var][]ast.Expr{}}
	src := Source{pos: call.Pos(), Hinted: hinted(r.pass.TypesInfo, fn, call)}
	var val value
	switch {
	case mcpapi.IsContextMethod(fn, "Fail"):
		if len(call.Args) > 0 {
			val = s.entryValue(call.Args[0], src)
		}
	case fn.Pkg().Path() == mcpapi.ErrPath && (fn.Name() == "New" || fn.Name() == "FromResponse" || mcpapi.Factories[fn.Name()] != 0):
		val = s.evalErrCall(fn, call, src)
	default:
		return nil
	}
	return orEmpty(r.resolveAlone(val, nil))
}

// Through returns what c becomes in a caller that passes consts, by
// parameter index (nil when not known), and false when the caller cannot
// meet it.
func (c Cond) Through(consts []Arg) (Cond, bool) {
	if c.Param == 0 {
		return c, true
	}
	i := c.Param - 1
	if i >= len(consts) {
		return Cond{Text: c.Text}, true
	}
	a := consts[i]
	known, value := a.known, a.value
	if c.Key != "" {
		value, known = a.keys[c.Key]
	}
	switch {
	case known && value != c.Value:
		return Cond{}, false
	case known:
		return Cond{}, true
	case a.param > 0:
		return Cond{Text: c.Text, Param: a.param, Value: c.Value, Key: c.Key}, true
	}
	return Cond{Text: c.Text}, true
}

// ArgConsts returns, for Cond.Through at a call of another package's or a
// handler's function, what the call's arguments are: constants, slices and
// structs of constants, or nothing known.
func ArgConsts(info *types.Info, call *ast.CallExpr) []Arg {
	sig, _ := info.TypeOf(call.Fun).Underlying().(*types.Signature)
	return argsOf(info, sig, call, func(ast.Expr) int { return 0 })
}
