// Package rules is mcplint's rule table: every rule with its level, what it
// catches and how to fix it. The analyzers read it (a suppression must name a
// known rule), and package lint exports it.
package rules

import (
	"slices"
	"strings"
)

// A Level is how much a finding matters: an error fails mcplint, a warning
// fails it only with -strict. As a vet tool, every finding fails, as vet's
// convention is.
type Level int

// The levels of the rules.
const (
	Warning Level = iota
	Error
	// Info is a note on what mcplint could not check: listed, and never
	// a failure, not even with -strict.
	Info
)

// String returns "warning", "error" or "info".
func (l Level) String() string {
	switch l {
	case Error:
		return "error"
	case Info:
		return "info"
	}
	return "warning"
}

// A Rule is one check of mcplint. Every diagnostic's message begins with
// its rule's ID and a colon.
type Rule struct {
	ID      string
	Level   Level
	Catches string // what it reports, for the table of docs/linting.md and -help
	Fix     string // how to fix it
	// Analyzer is the name of the package under lint/ whose analyzer
	// reports the rule, and whose documentation has a section on it,
	// headed by the rule's ID.
	Analyzer string
}

// DocBase is where the analyzers' packages are documented: the rule of
// analyzer package p is documented at DocBase + p + "#" + anchor.
const DocBase = "https://pkg.go.dev/github.com/seed417024ea/mcpcore/lint/"

// URL is the address of the rule's documentation: the section of its
// analyzer's package documentation headed by the rule's ID. It is stable:
// it changes only if the rule is renamed or moves to another analyzer.
func (r Rule) URL() string {
	return DocBase + r.Analyzer + "#" + Anchor(r.ID)
}

// Anchor is the fragment pkg.go.dev gives a doc comment's "# heading"
// line: "hdr-" and the heading, each character other than an ASCII letter,
// digit or underscore made an underscore, as go/doc/comment's
// Heading.DefaultID does.
func Anchor(heading string) string {
	b := []byte("hdr-" + heading)
	for i := len("hdr-"); i < len(b); i++ {
		c := b[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			b[i] = '_'
		}
	}
	return string(b)
}

// URL returns the documentation address of the rule with the given ID, or
// "" for an ID of no rule.
func URL(id string) string {
	if r, ok := ByID(id); ok {
		return r.URL()
	}
	return ""
}

// A row is a line of the table below: a rule without its analyzer, which
// in gives to a group of rows.
type row struct {
	id           string
	level        Level
	catches, fix string
}

// in returns the rules of rows, reported by analyzer.
func in(analyzer string, rows []row) []Rule {
	rules := make([]Rule, len(rows))
	for i, r := range rows {
		rules[i] = Rule{ID: r.id, Level: r.level, Catches: r.catches, Fix: r.fix, Analyzer: analyzer}
	}
	return rules
}

// All lists every rule, in the order of the table of docs/linting.md, each with the
// analyzer that reports it.
var All = slices.Concat(in("contract", []row{
	// Structural, per contract entry.
	{"error-contract-empty", Warning, "a declared but empty Errors", "declare the failures, or drop Errors"},
	{"error-contract-code-unknown", Error, "a Code that is not an mcperr code", "use an mcperr.Code constant"},
	{"error-contract-code-unknown-error", Warning, "CodeUnknownError, a give-up code", "pick the code that says what failed"},
	{"error-contract-reason-required", Error, "an empty Reason", "name the failure in snake_case"},
	{"error-contract-reason-format", Warning, "a Reason not in snake_case", "rename it (mcplint -fix does)"},
	{"error-contract-reason-unique", Error, "a Reason declared twice in one contract", "rename or merge the entries"},
	{"error-contract-when-required", Error, "an empty When", "say when the failure happens"},
	{"error-contract-recovery-required", Error, "a missing or blank Recovery", "tell the caller its next move"},
	{"error-contract-recovery-min-words", Warning, "a Recovery under 5 words, or a placeholder such as \"Try again.\"", "name a capability the caller can use"},
	{"error-contract-severity-level", Error, "a Severity that is not debug, info, notice, warning or error", "use an mcpcore.Severity constant"},
}), in("conformance", []row{
	// Conformance, each handler against its contract.
	{"error-contract-conformance", Warning, "a handler (or a service it calls) can return a code neither declared nor baseline", "declare the failure, or map the error to a declared one"},
	{"error-contract-failfrom-unmapped", Warning, "a declared code that ctx.FailFrom passes on without its entry (none given has it, or several do)", "pass the entry for that code to FailFrom"},
	{"error-contract-prefer-fail", Warning, "a declared code (baseline ones too) built with a factory or mcperr.New instead of ctx.Fail", "use ctx.Fail with the declared entry and its RecoveryFor (mcplint -fix does)"},
	{"error-contract-unthrown", Warning, "a declared entry nothing raises", "raise it, drop it, or mark it ThrownBy: mcpcore.ThrownByService"},
	{"error-contract-recovery-unforwarded", Warning, "a ctx.Fail or an OnDecline that carries neither RecoveryFor nor a hint of its own, a ctx.FailFrom mapping a service's error raised without a hint, or an Elicit without OnDecline where consent_declined is declared", "add ctx.RecoveryFor(entry), or OnDecline(entry, ctx.RecoveryFor(entry)) (mcplint -fix does); raise the service's error with mcpcore.RecoveryFor(ctx, entry)"},
	{"error-contract-unanalyzable", Info, "an Errors whose entries mcplint cannot compute (a call it cannot evaluate, a variable assigned again), which skips the contract checks; or a function value whose functions it cannot tell (a map element), which skips unthrown", "write the contract as a literal, a package variable, append, slices.Concat or a helper returning one; keep the function in a variable, a field or a helper's result"},
	{"error-contract-reason-undeclared", Warning, "a reason a service stamps (data.reason, RecoveryFor) that no tool its errors reach declares", "fix the reason, or declare it"},
	{"error-contract-undeclared", Error, "ctx.Fail with a Failure that is not in this definition's Errors", "declare it in Errors, or fail with a declared entry"},
}), in("handlerbody", []row{
	// Handler body.
	{"prefer-mcp-error-in-handler", Warning, "a handler returns errors.New or fmt.Errorf without a wrapped *mcperr.Error", "return ctx.Fail or an mcperr factory"},
	{"prefer-error-factory", Warning, "mcperr.New with a code that has a named factory", "use the factory (mcplint -fix does)"},
	{"preserve-cause-on-rethrow", Warning, "inside if err != nil, a new error that drops err", "wrap with %w or pass mcperr.WithCause(err)"},
	{"no-stringify-upstream-error", Warning, "a message built by marshalling or %v-formatting an upstream error or body", "say what failed; keep the upstream error as the cause"},
}), in("credential", []row{
	// Text the server sends as the author wrote it.
	{"no-credential-literal", Error, "a credential-shaped value (token, key, password in a URL, private key) written into a When, a Recovery, a message given to Fail or a factory, a hint, data, an elicitation or a log record", "remove it, read the secret from configuration, and rotate it"},
}), in("contract", []row{
	// Suppression, which the contract analyzer reports for the suite,
	// once per directive.
	{"mcplint-ignore-reason", Warning, "a //mcplint:ignore without a reason", "say why the rule does not apply"},
}))

// ByID returns the rule with the given ID.
func ByID(id string) (Rule, bool) {
	for _, r := range All {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}

// LevelOf returns the level of a diagnostic message, read from the rule ID
// it begins with; a message of no known rule is an error.
func LevelOf(message string) Level {
	id, _, ok := strings.Cut(message, ":")
	if !ok {
		return Error
	}
	if r, ok := ByID(id); ok {
		return r.Level
	}
	return Error
}
