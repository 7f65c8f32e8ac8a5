package mcpcore_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
)

// NoteTarget addresses a note: by path, or the active file. Each variant
// is a pointer, tagged with the name its "type" holds on the wire.
type NoteTarget struct {
	Path   *NoteByPath `variant:"path"`
	Active *struct{}   `variant:"active"`
}

// NoteByPath is the variant that names a file.
type NoteByPath struct {
	Path string `json:"path" minLength:"1"`
}

type noteInput struct {
	Target NoteTarget `json:"target"`
}

type noteOutput struct {
	Read string `json:"read"`
}

// A union of types is a struct of pointers: published as oneOf with a
// const discriminator, its issues naming the variant the input claimed,
// and decoded into the variant's Go type.
func Example_union() {
	read := mcpcore.Tool[noteInput, noteOutput]{
		Name: "read_note",
		Handler: func(_ *mcpcore.Context, in noteInput) (noteOutput, error) {
			if p := in.Target.Path; p != nil {
				return noteOutput{Read: p.Path}, nil
			}
			return noteOutput{Read: "the active file"}, nil
		},
	}
	cs, err := exampleClient(read)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cs.Close()
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	var schema struct {
		Properties struct {
			Target struct {
				OneOf []struct {
					Properties struct {
						Type struct{ Const string }
					}
					Required []string
				}
			}
		}
	}
	b, _ := json.Marshal(list.Tools[0].InputSchema)
	json.Unmarshal(b, &schema)
	for _, v := range schema.Properties.Target.OneOf {
		fmt.Printf("variant %q requires %v\n", v.Properties.Type.Const, v.Required)
	}
	for _, target := range []map[string]any{
		{"type": "path", "path": "notes/a.md"},
		{"type": "active"},
		{"type": "path"},
	} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "read_note", Arguments: map[string]any{"target": target}})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	}
	// Output:
	// variant "path" requires [type path]
	// variant "active" requires [type]
	// {
	//   "read": "notes/a.md"
	// }
	// {
	//   "read": "the active file"
	// }
	// Error: at target: variant "path": missing required property "path"
}
