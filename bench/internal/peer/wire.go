package peer

import "fmt"

// The tools' arguments and output, as every peer takes and sends them.
type (
	// EchoArgs are echo's arguments, and its output.
	EchoArgs struct {
		Message string `json:"message"`
	}
	// FetchArgs are fetch_articles' arguments.
	FetchArgs struct {
		PMIDs []string `json:"pmids"`
	}
)

// ErrorObject is structuredContent.error of examples/articles' no_match
// failure, its members in the order mcpcore writes them.
type ErrorObject struct {
	Code    int       `json:"code"`
	Message string    `json:"message"`
	Data    errorData `json:"data"`
}

type errorData struct {
	Reason   string   `json:"reason"`
	Recovery recovery `json:"recovery"`
}

type recovery struct {
	Hint string `json:"hint"`
}

// NoMatch is the no_match failure of fetch_articles given n PMIDs: its
// error object and the text of its content, "Error: …\n\nRecovery: …".
func NoMatch(n int) (ErrorObject, string) {
	const hint = "Try pubmed_search_articles to discover valid PMIDs first."
	msg := fmt.Sprintf("None of %d PMIDs returned data", n)
	return ErrorObject{Code: -32001, Message: msg, Data: errorData{Reason: "no_match", Recovery: recovery{Hint: hint}}},
		"Error: " + msg + "\n\nRecovery: " + hint
}
