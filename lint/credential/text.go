package credential

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
	"unicode/utf8"

	"github.com/seed417024ea/mcpcore/internal/redact"
	"github.com/seed417024ea/mcpcore/lint/internal/mcpapi"
)

// placeholder stands, in a text, for a part known only at run time. It is
// not a credential in any shape, so that a secret the runtime scrubs only
// arrives with a run-time part ("token=" + tok) is not taken for one
// written in the source.
const placeholder = "…"

// minLiteral is the fewest bytes of a word written in the source that make
// a finding in a text with run-time parts: what the scrubber replaces
// there must hold one of the author's words, not only the run-time part
// and the name before it ("Bearer " + tok).
const minLiteral = 8

// A text is what the source says of a string expression: the constant
// parts, with a placeholder for each part known only at run time.
type text struct {
	s string
	// whole says that the expression is a constant: s is all of it.
	whole bool
	// literal says that some part of s is written in the source.
	literal bool
}

// textOf reads a string expression: a constant (a literal, a constant of
// any package, a concatenation of constants); a concatenation with
// run-time parts; fmt.Sprintf with a constant format, whose verbs stand
// for their constant string arguments or for placeholders.
func textOf(info *types.Info, e ast.Expr) text {
	if s, ok := mcpapi.ConstString(info, e); ok {
		return text{s: s, whole: true, literal: true}
	}
	var a assembly
	a.add(info, e)
	return text{s: a.b.String(), literal: a.literal}
}

// An assembly is a text with run-time parts, while it is read.
type assembly struct {
	b       strings.Builder
	literal bool
}

func (a *assembly) add(info *types.Info, e ast.Expr) {
	if s, ok := mcpapi.ConstString(info, e); ok {
		a.b.WriteString(s)
		a.literal = true
		return
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.BinaryExpr:
		if x.Op == token.ADD && isString(info.TypeOf(x)) {
			a.add(info, x.X)
			a.add(info, x.Y)
			return
		}
	case *ast.CallExpr:
		if mcpapi.IsFunc(mcpapi.Callee(info, x), "fmt", "Sprintf") && len(x.Args) > 0 {
			if format, ok := mcpapi.ConstString(info, x.Args[0]); ok {
				a.format(info, format, x.Args[1:])
				return
			}
		}
	}
	a.b.WriteString(placeholder)
}

// format adds a format's text, each %s or %v of a constant string argument
// as the argument, each other verb as a placeholder.
func (a *assembly) format(info *types.Info, format string, args []ast.Expr) {
	arg := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			run := strings.IndexByte(format[i:], '%')
			if run < 0 {
				run = len(format) - i
			}
			a.b.WriteString(format[i : i+run])
			a.literal = true
			i += run - 1
			continue
		}
		i++
		start := i
		for i < len(format) && strings.IndexByte("+-# 0123456789.*[]", format[i]) >= 0 {
			i++
		}
		if i >= len(format) {
			a.b.WriteString(placeholder)
			return
		}
		if format[i] == '%' {
			a.b.WriteByte('%')
			continue
		}
		if i > start {
			// Flags, widths and argument indexes: what the verb prints
			// is not worth working out.
			a.b.WriteString(placeholder)
			arg = len(args)
			continue
		}
		if arg < len(args) && (format[i] == 's' || format[i] == 'v') {
			if s, ok := mcpapi.ConstString(info, args[arg]); ok {
				a.b.WriteString(s)
				a.literal = true
				arg++
				continue
			}
		}
		a.b.WriteString(placeholder)
		arg++
	}
}

func isString(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// credential returns the part of the text that the runtime's scrubber,
// redact.String, would replace, and whether it would replace one: the
// rules that decide what a server must not send decide here what an author
// must not write. In a text with run-time parts, the part replaced must
// hold a word of the author's of minLiteral bytes or more.
func (t text) credential() (string, bool) {
	if !t.literal {
		return "", false
	}
	out := redact.String(t.s)
	if out == t.s {
		return "", false
	}
	found := changed(t.s, out)
	if t.whole {
		return found, true
	}
	for _, w := range strings.Fields(strings.ReplaceAll(found, placeholder, " ")) {
		if len(w) >= minLiteral {
			return found, true
		}
	}
	return "", false
}

// changed returns the part of s that differs from out: what lies between
// their common prefix and their common suffix, at rune boundaries.
func changed(s, out string) string {
	i := 0
	for i < len(s) && i < len(out) && s[i] == out[i] {
		i++
	}
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	j := 0
	for j < len(s)-i && j < len(out)-i && s[len(s)-1-j] == out[len(out)-1-j] {
		j++
	}
	for j > 0 && !utf8.RuneStart(s[len(s)-j]) {
		j--
	}
	return s[i : len(s)-j]
}

// maskedPrefix is how many characters of a credential a finding shows,
// when the credential is at least minMasked bytes long: enough to find it
// by its prefix (ghp_, sk_l, AKIA), too few to use it.
const (
	maskedPrefix = 4
	minMasked    = 20
)

// describe says what a finding shows of the credential found: its length,
// and, for a long one, its first characters.
func describe(found string) string {
	found = strings.TrimSpace(found)
	if found == "" {
		return ""
	}
	if len(found) >= minMasked {
		prefix, n := "", 0
		for _, r := range found {
			if n == maskedPrefix {
				break
			}
			prefix += string(r)
			n++
		}
		if !strings.Contains(prefix, placeholder) && !strings.ContainsAny(prefix, " \t\r\n") {
			return fmt.Sprintf(" (%d bytes, beginning %q)", len(found), prefix+"…")
		}
	}
	return fmt.Sprintf(" (%d bytes)", len(found))
}
