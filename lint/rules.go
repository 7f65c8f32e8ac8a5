package lint

import "github.com/seed417024ea/mcpcore/lint/internal/rules"

// A Level is how much a finding matters: an error fails mcplint, a warning
// fails it only with -strict. As a vet tool, every finding fails, as vet's
// convention is.
type Level = rules.Level

// The levels of the rules.
const (
	Warning = rules.Warning
	Error   = rules.Error
	Info    = rules.Info
)

// A Rule is one check of mcplint. Every diagnostic's message begins with
// its rule's ID and a colon.
type Rule = rules.Rule

// Rules lists every rule, in the order of the table of docs/linting.md.
var Rules = rules.All

// RuleByID returns the rule with the given ID.
func RuleByID(id string) (Rule, bool) { return rules.ByID(id) }

// LevelOf returns the level of a diagnostic message, read from the rule ID
// it begins with; a message of no known rule is an error.
func LevelOf(message string) Level { return rules.LevelOf(message) }
