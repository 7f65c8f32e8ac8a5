package driver

import (
	"encoding/json"
	"io"

	"github.com/seed417024ea/mcpcore/lint"
)

// A jsonFinding is a finding as -json prints it: one JSON object a line,
// as go test -json and staticcheck -f json do, so that a tool can read
// the findings as they come, one at a time.
type jsonFinding struct {
	// Posn is file:line:col, as in the text output and in go vet -json.
	Posn    string `json:"posn"`
	Rule    string `json:"rule,omitempty"`
	Level   string `json:"level"`
	Message string `json:"message"`
	// URL is the documentation of the finding's rule, the section of its
	// analyzer's package documentation on pkg.go.dev. go vet -json does
	// not print it (unitchecker's JSON has no such field), hence this
	// format of mcplint's own.
	URL string `json:"url,omitempty"`
}

// printJSON writes fs to w as JSON lines, their files relative to cwd.
func printJSON(w io.Writer, fs []finding, cwd string, level func(string) lint.Level) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false) // messages quote code: keep <, > and & as they are
	for _, f := range fs {
		err := enc.Encode(jsonFinding{
			Posn:    f.where(cwd),
			Rule:    f.Category,
			Level:   level(f.Message).String(),
			Message: f.Message,
			URL:     f.URL,
		})
		if err != nil {
			return err
		}
	}
	return nil
}
