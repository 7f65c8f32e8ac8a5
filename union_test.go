package mcpcore_test

import (
	"context"
	"strings"
	"testing"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// A note is addressed by path, or the active file, or a periodic note.
type unionByPath struct {
	Path string `json:"path" minLength:"1"`
}

type unionActive struct{}

type unionPeriodic struct {
	Period string `json:"period" enum:"daily,weekly"`
}

type unionTarget struct {
	Path     *unionByPath   `variant:"path"`
	Active   *unionActive   `variant:"active"`
	Periodic *unionPeriodic `variant:"periodic"`
}

type unionReadInput struct {
	Target unionTarget `json:"target"`
}

// The output is a union too: what was found.
type unionFound struct {
	_    struct{}       `discriminator:"kind"`
	Note *unionNoteBody `variant:"note"`
	None *struct{}      `variant:"none"`
}

type unionNoteBody struct {
	Text string `json:"text"`
}

type unionReadOutput struct {
	Found unionFound `json:"found"`
}

// A union input is published as oneOf with a const discriminator and
// per-variant required, decoded into the variant's type; a bad variant's
// issues name it; a union output reaches the wire in its wire form.
func TestUnionOnTheWire(t *testing.T) {
	t.Parallel()
	read := mcpcore.Tool[unionReadInput, unionReadOutput]{
		Name: "read_note", Description: "d",
		Handler: func(_ *mcpcore.Context, in unionReadInput) (unionReadOutput, error) {
			switch t := in.Target; {
			case t.Path != nil:
				return unionReadOutput{Found: unionFound{Note: &unionNoteBody{Text: "at " + t.Path.Path}}}, nil
			case t.Periodic != nil:
				return unionReadOutput{Found: unionFound{Note: &unionNoteBody{Text: t.Periodic.Period}}}, nil
			}
			return unionReadOutput{Found: unionFound{None: &struct{}{}}}, nil
		},
	}
	cs, _ := connect(t, read)
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	target := dig(t, wiretest.JSON(t, list.Tools[0].InputSchema), "properties", "target")
	wiretest.AssertJSON(t, "inputSchema.properties.target", target, `{"type": "object", "oneOf": [
		{"type": "object", "properties": {"type": {"type": "string", "const": "path"}, "path": {"type": "string", "minLength": 1}}, "required": ["type", "path"]},
		{"type": "object", "properties": {"type": {"type": "string", "const": "active"}}, "required": ["type"]},
		{"type": "object", "properties": {"type": {"type": "string", "const": "periodic"}, "period": {"type": "string", "enum": ["daily", "weekly"]}}, "required": ["type", "period"]}
	]}`)
	found := dig(t, wiretest.JSON(t, list.Tools[0].OutputSchema), "properties", "found")
	if !strings.Contains(string(mustJSON(found)), `"const":"note"`) {
		t.Errorf("outputSchema.properties.found = %s, want the oneOf of its variants", mustJSON(found))
	}

	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"target": map[string]any{"type": "path"}},
			`[{"path": ["target", "path"], "keyword": "required", "message": "variant \"path\": missing required property \"path\""}]`},
		{map[string]any{"target": map[string]any{"type": "periodic", "period": "monthly"}},
			`[{"path": ["target", "period"], "keyword": "enum", "message": "variant \"periodic\": expected one of \"daily\", \"weekly\", received \"monthly\""}]`},
		{map[string]any{"target": map[string]any{"type": "file"}},
			`[{"path": ["target", "type"], "keyword": "const", "message": "unknown variant: expected one of \"path\", \"active\", \"periodic\", received \"file\""}]`},
		{map[string]any{"target": map[string]any{"path": "a.md"}},
			`[{"path": ["target", "type"], "keyword": "required", "message": "missing required property \"type\", the variant: one of \"path\", \"active\", \"periodic\""}]`},
	} {
		e := errorResult(t, wiretest.CallTool(t, cs, "read_note", tc.args))
		if e["code"] != float64(mcperr.CodeValidationError) {
			t.Errorf("%v: code = %v, want ValidationError", tc.args, e["code"])
		}
		wiretest.AssertJSON(t, "data.issues", dig(t, e, "data", "issues"), tc.want)
	}

	res := wiretest.CallTool(t, cs, "read_note", map[string]any{"target": map[string]any{"type": "path", "path": "a.md"}})
	wiretest.AssertJSON(t, "structuredContent", res.StructuredContent, `{"found": {"kind": "note", "text": "at a.md"}}`)
	res = wiretest.CallTool(t, cs, "read_note", map[string]any{"target": map[string]any{"type": "active"}})
	wiretest.AssertJSON(t, "structuredContent", res.StructuredContent, `{"found": {"kind": "none"}}`)
}

// A handler that sets no variant of an output union, or two, fails the
// call as the bug it is, rather than sending a shape the schema refuses.
func TestUnionOutputWithoutOneVariant(t *testing.T) {
	t.Parallel()
	for name, out := range map[string]unionReadOutput{
		"none": {},
		"two":  {Found: unionFound{Note: &unionNoteBody{}, None: &struct{}{}}},
	} {
		tool := mcpcore.Tool[okOutput, unionReadOutput]{
			Name: "t", Description: "d",
			Handler: func(*mcpcore.Context, okOutput) (unionReadOutput, error) { return out, nil },
		}
		cs, _ := connect(t, tool)
		e := errorResult(t, wiretest.CallTool(t, cs, "t", map[string]any{"ok": true}))
		if e["code"] != float64(mcperr.CodeInternalError) {
			t.Errorf("%s: code = %v, want InternalError", name, e["code"])
		}
	}
}

// A union type that is not one stops NewServer, saying why.
func TestNewServerRefusesBadUnion(t *testing.T) {
	t.Parallel()
	type notPointer struct {
		A unionByPath `variant:"a"`
	}
	type clash struct {
		A *struct {
			Type string `json:"type"`
		} `variant:"a"`
	}
	type untagged struct {
		A *unionByPath `variant:"a"`
		B *unionByPath
	}
	type in[U any] struct {
		U U `json:"u"`
	}
	for _, tc := range []struct {
		def  mcpcore.Definition
		want string
	}{
		{mcpcore.Tool[in[notPointer], okOutput]{Name: "t", Handler: func(*mcpcore.Context, in[notPointer]) (okOutput, error) { return okOutput{}, nil }},
			"a variant is a pointer to a struct"},
		{mcpcore.Tool[in[clash], okOutput]{Name: "t", Handler: func(*mcpcore.Context, in[clash]) (okOutput, error) { return okOutput{}, nil }},
			`named as the discriminator "type"`},
		{mcpcore.Tool[in[untagged], okOutput]{Name: "t", Handler: func(*mcpcore.Context, in[untagged]) (okOutput, error) { return okOutput{}, nil }},
			"field B has no variant tag"},
	} {
		e := newServerErr(t, tc.def)
		if !strings.Contains(e.Message(), tc.want) {
			t.Errorf("message %q does not contain %q", e.Message(), tc.want)
		}
	}
}
