package mcpcore_test

import (
	"strings"
	"testing"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// unknownCodeError is a service's error type that reports a code mcperr
// does not define.
type unknownCodeError struct{}

func (unknownCodeError) Error() string          { return "quota exceeded for tenant acme" }
func (unknownCodeError) ErrorCode() mcperr.Code { return 12345 }

// A Coder's unknown code never reaches the wire: the client sees an
// InternalError, and the operator's record names the original error.
func TestCoderWithAnUnknownCode(t *testing.T) {
	t.Parallel()
	tool := mcpcore.Tool[caseInput, okOutput]{
		Name: "coder",
		Handler: func(*mcpcore.Context, caseInput) (okOutput, error) {
			return okOutput{}, unknownCodeError{}
		},
	}
	cs, logs := connect(t, tool)
	res := callWithin(t, cs, "coder", map[string]any{})
	if e := structuredError(t, res); e["code"] != float64(mcperr.CodeInternalError) {
		t.Errorf("code %v, want InternalError (-32603)", e["code"])
	}
	found := false
	for _, r := range logs.Failures(t, "coder") {
		if r["originalType"] == "mcpcore_test.unknownCodeError" && strings.Contains(r["original"].(string), "quota exceeded") {
			found = true
		}
	}
	if !found {
		t.Errorf("no failure record names the original error:\n%s", logs)
	}
}
