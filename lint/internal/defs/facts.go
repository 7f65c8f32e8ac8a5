package defs

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"github.com/seed417024ea/mcpcore/lint/internal/mcpapi"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// A Contract is the fact on an exported package-level variable of type
// mcpcore.Failure or []mcpcore.Failure, and on an exported function that
// returns a []mcpcore.Failure: the entries it stands for, so that a
// definition in another package (Errors: svc.Shared, append(svc.Shared,
// …), svc.WithService(…)) can read its contract as this package's
// definitions do.
type Contract struct {
	// Parts are the entries, in order, for a helper with the parameters
	// standing in the places they are spliced; nil when Why is set.
	Parts []Part
	// Why says, when the value cannot be known, what stopped the
	// analysis, naming the variable or the function: "the variable
	// Shared of package example.com/svc, which is assigned after its
	// declaration".
	Why string
}

// AFact marks Contract as an analysis fact.
func (*Contract) AFact() {}

// A Part is one element of a [Contract]: an entry, or what a helper's
// parameter stands for.
type Part struct {
	// Param is 0 for an entry; for a helper, 1 plus the index of the
	// parameter the part stands for.
	Param int
	// Spread says that the parameter stands for its elements (a
	// []mcpcore.Failure, or the arguments of a variadic parameter), not
	// for one Failure.
	Spread bool
	// Readable says that the entry's Reason and Code are constants; an
	// entry that is not readable makes the contract not fully known.
	Readable bool
	Declared
}

// A Declared is a contract entry read from another package: its fields
// that are constants, the others empty.
type Declared struct {
	Reason                             string
	Code                               mcperr.Code
	When, Recovery, Severity, ThrownBy string
}

// String lists the parts, for analysistest's `// want X:"…"`
// expectations: "contract busy:RateLimited, param 0..., ?" (a part that
// cannot be read is "?"), or "contract unanalyzable: <why>".
func (c *Contract) String() string {
	if c.Why != "" {
		return "contract unanalyzable: " + c.Why
	}
	parts := make([]string, len(c.Parts))
	for i, p := range c.Parts {
		switch {
		case p.Param != 0:
			parts[i] = fmt.Sprintf("param %d", p.Param-1)
			if p.Spread {
				parts[i] += "..."
			}
		case !p.Readable:
			parts[i] = "?"
		default:
			parts[i] = p.Reason + ":" + p.Code.String()
		}
	}
	return "contract " + strings.Join(parts, ", ")
}

// declaredOf reads the constants of a Failure literal, and whether its
// Reason and Code are among them.
func declaredOf(f *mcpapi.Failure) (Declared, bool) {
	d := Declared{Reason: f.Reason, Code: f.Code, When: f.When, Recovery: f.Recovery, Severity: f.Severity, ThrownBy: f.ThrownBy}
	return d, f.Const["Reason"] && f.Const["Code"]
}

// partOf turns an entry read in this package into a part of a fact.
func partOf(e *Entry) Part {
	switch {
	case e.param != 0:
		return Part{Param: e.param, Spread: e.spread}
	case e.Imported != nil:
		return Part{Readable: true, Declared: *e.Imported}
	case e.Failure != nil:
		d, ok := declaredOf(e.Failure)
		return Part{Readable: ok, Declared: d}
	}
	return Part{}
}

// exportContracts exports a Contract fact on each exported package-level
// Failure or []Failure variable and each exported function returning a
// []Failure. It reads them with a reader of its own, so that what it reads
// marks no identifier as a contract's: only the definitions' contracts do.
func exportContracts(cr *contractReader) {
	pass := cr.pass
	r := *cr
	r.res = &Result{Failures: cr.res.Failures, ContractIdents: map[*ast.Ident]bool{}}
	scope := pass.Pkg.Scope()
	for _, name := range scope.Names() {
		switch obj := scope.Lookup(name).(type) {
		case *types.Var:
			if !obj.Exported() {
				continue
			}
			if mcpapi.IsFailureType(obj.Type()) {
				pass.ExportObjectFact(obj, r.failureFact(obj))
			} else if isContractType(obj.Type()) {
				pass.ExportObjectFact(obj, r.varFact(obj))
			}
		case *types.Func:
			sig := obj.Signature()
			if obj.Exported() && sig.Recv() == nil && sig.Results().Len() == 1 && isContractType(sig.Results().At(0).Type()) {
				if fd := r.funcs[obj]; fd != nil {
					pass.ExportObjectFact(obj, r.funcFact(obj, fd))
				}
			}
		}
	}
}

// isContractType reports whether t is a slice of mcpcore.Failure.
func isContractType(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	return ok && mcpapi.IsFailureType(s.Elem())
}

// failureFact is the fact of a Failure variable: its one entry.
func (r *contractReader) failureFact(v *types.Var) *Contract {
	if why := r.unknownVar(v); why != "" {
		return &Contract{Why: why}
	}
	return contractOf([]*Entry{r.element(r.inits[v], nil)})
}

// varFact is the fact of a []Failure variable.
func (r *contractReader) varFact(v *types.Var) *Contract {
	if why := r.unknownVar(v); why != "" {
		return &Contract{Why: why}
	}
	es, why := r.read(r.inits[v], nil, 0)
	if why != "" {
		return &Contract{Why: fmt.Sprintf("the variable %s of package %s, whose value is %s", v.Name(), v.Pkg().Path(), why)}
	}
	return contractOf(es)
}

// funcFact is the fact of a helper: its one return, read with each
// parameter standing for itself.
func (r *contractReader) funcFact(fn *types.Func, fd *ast.FuncDecl) *Contract {
	name := fn.Pkg().Name() + "." + fn.Name()
	ret, ok := oneReturn(fd)
	if !ok {
		return &Contract{Why: fmt.Sprintf("the result of a call to %s, whose body mcplint cannot evaluate", name)}
	}
	sig := fn.Signature()
	params := env{}
	for i := range sig.Params().Len() {
		params[sig.Params().At(i)] = binding{param: i + 1}
	}
	es, why := r.read(ret.Results[0], params, 0)
	if why != "" {
		return &Contract{Why: fmt.Sprintf("the result of a call to %s, which returns %s", name, why)}
	}
	return contractOf(es)
}

// unknownVar says why a package variable's value cannot be known from its
// declaration, or "".
func (r *contractReader) unknownVar(v *types.Var) string {
	if r.assigned[v] {
		return fmt.Sprintf("the variable %s of package %s, which is assigned after its declaration", v.Name(), v.Pkg().Path())
	}
	if _, ok := r.inits[v]; !ok {
		return fmt.Sprintf("the variable %s of package %s, which has no initialiser mcplint can read", v.Name(), v.Pkg().Path())
	}
	return ""
}

func contractOf(es []*Entry) *Contract {
	c := &Contract{Parts: []Part{}}
	for _, e := range es {
		c.Parts = append(c.Parts, partOf(e))
	}
	return c
}

// oneReturn returns the statement of a body that is one return of one
// result.
func oneReturn(fd *ast.FuncDecl) (*ast.ReturnStmt, bool) {
	if fd.Body == nil || len(fd.Body.List) != 1 {
		return nil, false
	}
	ret, ok := fd.Body.List[0].(*ast.ReturnStmt)
	return ret, ok && len(ret.Results) == 1
}
