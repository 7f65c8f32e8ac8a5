package mcpotel

import (
	"github.com/seed417024ea/mcpcore"

	"errors"
	"strings"
	"testing"

	"github.com/seed417024ea/mcpcore/internal/redact"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// spanSecret is kept by the tests below; nothing else here writes it.
const spanSecret = "telemetry-test-secret-8Rw"

func init() {
	if err := redact.Keep(spanSecret); err != nil {
		panic(err)
	}
}

// TestSpanMasksKeptSecrets: the span of a failure whose message quotes a
// kept secret has it masked in its status and exception event, and so
// does a resource URI that holds one; with a provider of the program's
// own (a recorder here), as with one built from the environment.
func TestSpanMasksKeptSecrets(t *testing.T) {
	h := newHarness(t)
	quote := "the key `" + spanSecret + "` is not allowed to read this file"
	h.call(toolCall, mcpcore.CallOutcome{Failed: true, Code: mcperr.CodeInvalidParams, Message: quote, Cause: errors.New(quote)})
	h.call(mcpcore.CallInfo{Kind: "resource", Name: "note", URI: "notes://" + spanSecret + "/1", Transport: "stdio"}, mcpcore.CallOutcome{})
	spans := h.ended()
	if len(spans) != 2 {
		t.Fatalf("%d spans", len(spans))
	}
	want := "the key `[REDACTED]` is not allowed to read this file"
	if s := spans[0]; s.Status != "Error: "+want || len(s.Events) != 1 || !strings.Contains(s.Events[0], "exception.message="+want) {
		t.Errorf("failure span: %+v", s)
	}
	if s := spans[1]; strings.Contains(s.Attrs, spanSecret) || !strings.Contains(s.Attrs, "mcp.resource.uri=notes://[REDACTED]/1") {
		t.Errorf("resource span: %+v", s)
	}
}
