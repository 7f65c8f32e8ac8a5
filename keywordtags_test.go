package mcpcore_test

import (
	"context"
	"strings"
	"testing"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// signupInput declares its constraints in struct tags, nested ones too.
type signupInput struct {
	Email   string   `json:"email" format:"email" jsonschema:"where to write"`
	Age     int      `json:"age" minimum:"13" maximum:"130"`
	Tags    []string `json:"tags,omitempty" maxItems:"3" minLength:"1"`
	Address struct {
		Zip string `json:"zip" pattern:"^[0-9]{5}$"`
	} `json:"address"`
}

// A tool's keyword tags are published in tools/list and enforced on every
// call, every broken constraint an issue of the ValidationError.
func TestKeywordTagsOnTheWire(t *testing.T) {
	t.Parallel()
	signup := mcpcore.Tool[signupInput, okOutput]{
		Name: "signup", Description: "d",
		Handler: func(*mcpcore.Context, signupInput) (okOutput, error) { return okOutput{OK: true}, nil },
	}
	cs, _ := connect(t, signup)
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	props := dig(t, wiretest.JSON(t, list.Tools[0].InputSchema), "properties")
	wiretest.AssertJSON(t, "inputSchema.properties", props, `{
		"email": {"type": "string", "format": "email", "description": "where to write"},
		"age": {"type": "integer", "minimum": 13, "maximum": 130},
		"tags": {"type": "array", "items": {"type": "string", "minLength": 1}, "maxItems": 3},
		"address": {"type": "object", "properties": {"zip": {"type": "string", "pattern": "^[0-9]{5}$"}}, "required": ["zip"]}
	}`)

	res := wiretest.CallTool(t, cs, "signup", map[string]any{
		"email": "ada@example.com", "age": 12, "tags": []string{"a", ""}, "address": map[string]any{"zip": "1234"},
	})
	e := errorResult(t, res)
	if e["code"] != float64(mcperr.CodeValidationError) {
		t.Errorf("code = %v, want ValidationError", e["code"])
	}
	wiretest.AssertJSON(t, "data.issues", dig(t, e, "data", "issues"), `[
		{"path": ["address", "zip"], "keyword": "pattern", "message": "expected a string matching the pattern \"^[0-9]{5}$\""},
		{"path": ["age"], "keyword": "minimum", "message": "expected a number >= 13, received 12"},
		{"path": ["tags", 1], "keyword": "minLength", "message": "expected a string of at least 1 character, received 0"}
	]`)

	res = wiretest.CallTool(t, cs, "signup", map[string]any{"email": "ada@example.com", "age": 36, "address": map[string]any{"zip": "12345"}})
	wiretest.AssertJSON(t, "structuredContent", res.StructuredContent, `{"ok":true}`)
}

// A keyword tag that does not parse or does not fit its field stops
// NewServer, naming the tool, the type, the field and the tag.
func TestNewServerRefusesBadKeywordTags(t *testing.T) {
	t.Parallel()
	type lengthOnInt struct {
		N int `json:"n" minLength:"1"`
	}
	type nested struct {
		Inner struct {
			S string `json:"s" maxLength:"many"`
		} `json:"inner"`
	}
	for _, tc := range []struct {
		def  mcpcore.Definition
		want []string
	}{
		{mcpcore.Tool[lengthOnInt, okOutput]{Name: "t", Handler: func(*mcpcore.Context, lengthOnInt) (okOutput, error) { return okOutput{}, nil }},
			[]string{`tool "t": input type`, "lengthOnInt.N", "minLength tag needs a string field", "not int"}},
		{mcpcore.Tool[nested, okOutput]{Name: "t", Handler: func(*mcpcore.Context, nested) (okOutput, error) { return okOutput{}, nil }},
			[]string{`tool "t": input type`, ".S", `maxLength "many": want a non-negative integer`}},
	} {
		e := newServerErr(t, tc.def)
		if e.Code() != mcperr.CodeInitializationFailed {
			t.Errorf("code = %v, want InitializationFailed", e.Code())
		}
		for _, w := range tc.want {
			if !strings.Contains(e.Message(), w) {
				t.Errorf("message %q does not contain %q", e.Message(), w)
			}
		}
	}
}
