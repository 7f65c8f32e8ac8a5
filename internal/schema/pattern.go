package schema

import (
	"fmt"
	"regexp"
	"regexp/syntax"
)

// Patterns.
//
// Go's regular expressions (RE2) match in time linear in the input, but
// the constant is the size of the compiled program: each character may
// step every instruction once, some 5 to 9 ns each. A counted repetition
// writes its operand that many times, so `.{1,1000}z` is some 2,000
// instructions, and matching it against a 4 MiB string took 18 s. So a
// pattern's cost is taken as its program's size per character (what the
// walk's work counts), and a pattern over maxPatternSteps instructions
// makes the validator unbounded (see Validator.Bounded), which NewServer
// refuses for what a client sends. A pattern is matched only against a
// string that maxLength has not already refused.

// maxPatternSteps is the largest program, in instructions, a pattern may
// compile to for its validator to stay bounded: up to about 3 s for the
// worst 4 MiB string. `^[0-9]+$` takes 6, a UUID's 40, `[a-z]{1,64}` 129:
// a long repetition is better written with + or *, its length bounded by
// maxLength, which costs a count of the characters.
const maxPatternSteps = 100

// pattern is a compiled pattern and the size of its program.
type pattern struct {
	*regexp.Regexp
	steps int // instructions of its program: its cost per character
}

// compilePattern compiles an RE2 pattern and measures its program.
func compilePattern(expr string) (*pattern, error) {
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, err
	}
	parsed, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, err
	}
	prog, err := syntax.Compile(parsed.Simplify())
	if err != nil {
		return nil, err
	}
	return &pattern{Regexp: re, steps: len(prog.Inst)}, nil
}

// costly says why p's cost per character is beyond the bound, "" when it
// is not.
func (p *pattern) costly() string {
	if p.steps <= maxPatternSteps {
		return ""
	}
	return fmt.Sprintf("pattern %q compiles to %d instructions, and matching it costs up to that much per character of the input (at most %d are bounded): write a long repetition such as {1,1000} as + and bound the length with maxLength", p.String(), p.steps, maxPatternSteps)
}

// match matches s against p, counting its cost.
func (w *walker) match(p *pattern, s string) bool {
	w.spend(len(s) * p.steps)
	return p.MatchString(s)
}
