package schema

import (
	"encoding/binary"
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
)

// Patterns.
//
// Go's regular expressions (RE2) match in time linear in the input: each
// character steps each live thread of the program once, some 5 to 9 ns a
// step. How many threads may be live at once is the pattern's cost per
// character, and it is not its length: `^[a-z]{1,64}$` compiles to 129
// instructions but keeps two threads live, while an unanchored
// `.{1,1000}z` starts a thread at every character and keeps a thousand
// (matching it against a 4 MiB string took 18 s), as does `(a|aa){1,1000}`,
// which reaches each offset in many ways. compilePattern finds the most
// threads that may be live at once (see liveThreads); the walk counts that
// per character matched (what FuzzValidationWork holds to the input's
// size), and a pattern that may keep more than maxLiveThreads live makes
// the validator unbounded (see Validator.Bounded), which NewServer refuses
// for what a client sends. A pattern is matched only against a string
// that maxLength has not already refused.

// maxLiveThreads is the most threads a pattern may keep live at once for
// its validator to stay bounded: up to about 3 s for the worst 4 MiB
// string.
const maxLiveThreads = 100

// pattern is a compiled pattern and its cost per character.
type pattern struct {
	*regexp.Regexp
	steps int // the most threads live at once: the steps of a character
}

// compilePattern compiles an RE2 pattern and measures its cost.
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
	return &pattern{Regexp: re, steps: liveThreads(prog, maxLiveThreads)}, nil
}

// costly says why p's cost per character is beyond the bound, "" when it
// is not.
func (p *pattern) costly() string {
	if p.steps <= maxLiveThreads {
		return ""
	}
	return fmt.Sprintf("pattern %q may keep over %d threads of the matcher live at once, each stepped per character of the input: write a long repetition such as {1,1000} as + and bound the length with maxLength, or anchor the pattern with ^", p.String(), maxLiveThreads)
}

// liveThreads returns the most threads of prog that Go's matcher may keep
// live at once on any input, or more than limit when that is above limit.
// It runs the matcher on every input at once: each character class taken
// to match any character and each empty-width assertion to hold, the set of
// instructions live after n characters holds every instruction live after
// n characters of any input. An unanchored program starts a thread at every
// character, as Go's matcher does until it finds a match. The sets follow
// one another by a function of the set, so the walk ends when a set is
// empty or repeats one seen, or when one is over limit; past a number of
// sets that no pattern a schema writes comes near, it answers over limit.
func liveThreads(prog *syntax.Prog, limit int) int {
	anchored := prog.StartCond()&syntax.EmptyBeginText != 0
	start := closure(prog, nil, []uint32{uint32(prog.Start)})
	live, most := start, len(start)
	seen := map[string]bool{}
	for range 16 * (len(prog.Inst) + limit) {
		if most > limit {
			return most
		}
		key := setKey(live)
		if len(live) == 0 || seen[key] {
			return most
		}
		seen[key] = true
		var next []uint32
		for _, pc := range live {
			next = append(next, prog.Inst[pc].Out)
		}
		if !anchored {
			next = append(next, uint32(prog.Start))
		}
		live = closure(prog, live[:0:0], next)
		most = max(most, len(live))
	}
	return limit + 1
}

// closure returns the instructions that consume a character, reached from
// pcs through those that do not (alternations, captures, empty-width
// assertions taken to hold), each once, sorted, appended to into.
func closure(prog *syntax.Prog, into []uint32, pcs []uint32) []uint32 {
	on := make(map[uint32]bool, len(pcs))
	stack := append([]uint32(nil), pcs...)
	for len(stack) > 0 {
		pc := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if on[pc] {
			continue
		}
		on[pc] = true
		switch i := prog.Inst[pc]; i.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			stack = append(stack, i.Out, i.Arg)
		case syntax.InstCapture, syntax.InstEmptyWidth, syntax.InstNop:
			stack = append(stack, i.Out)
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			into = append(into, pc)
		}
	}
	slices.Sort(into)
	return into
}

// setKey names a sorted set of instructions.
func setKey(pcs []uint32) string {
	b := make([]byte, 0, 4*len(pcs))
	for _, pc := range pcs {
		b = binary.LittleEndian.AppendUint32(b, pc)
	}
	return string(b)
}

// match matches s against p, counting its cost.
func (w *walker) match(p *pattern, s string) bool {
	w.spend(len(s) * p.steps)
	return p.MatchString(s)
}
