package contract_test

import (
	"encoding/json"
	"fmt"

	"github.com/seed417024ea/mcpcore/contract"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// A failed tool call says the same thing twice: as an error object for
// programs, and as text for models. ParseText reads the text back.
func ExampleParseText() {
	text := contract.Text("No requested PMID returned data", "Try pubmed_search_articles first.")
	fmt.Printf("%q\n", text)

	message, hint := contract.ParseText(text)
	fmt.Println("message:", message)
	fmt.Println("hint:", hint)
	// Output:
	// "Error: No requested PMID returned data\n\nRecovery: Try pubmed_search_articles first."
	// message: No requested PMID returned data
	// hint: Try pubmed_search_articles first.
}

// What a server publishes under MetaKey, a client reads back with
// ParseMeta: the same entries, without the server's private Severity.
func ExamplePublish() {
	declared := []contract.Failure{{
		Reason:    "queue_full",
		Code:      mcperr.CodeRateLimited,
		When:      "The upstream queue is full",
		Recovery:  "Wait 30 seconds, then call again.",
		Retryable: contract.Retryable,
		Severity:  contract.SeverityNotice,
	}}
	wire, _ := json.Marshal(map[string]any{contract.MetaKey: contract.Publish(declared)})
	fmt.Println(string(wire))

	var meta map[string]any // as a client decodes a tool's _meta
	json.Unmarshal(wire, &meta)
	read, err := contract.ParseMeta(meta)
	fmt.Printf("%s %v %v %q %v\n", read[0].Reason, read[0].Code, read[0].Retryable, read[0].Severity, err)
	// Output:
	// {"mcpcore/errors":[{"reason":"queue_full","code":-32003,"when":"The upstream queue is full","recovery":"Wait 30 seconds, then call again.","retryable":true}]}
	// queue_full RateLimited Retryable "" <nil>
}
