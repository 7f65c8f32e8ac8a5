package mcpcore_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/mcperr"
)

type idParams struct {
	ID string `json:"id" jsonschema:"the item's ID"`
}

type item struct {
	ID  string `json:"id"`
	URI string `json:"uri"`
}

var itemGone = mcpcore.Failure{
	Reason:   "item_gone",
	Code:     mcperr.CodeNotFound,
	When:     "The item was deleted.",
	Recovery: "List the items again with the list_items tool.",
}

var itemResource = mcpcore.Resource[idParams, any]{
	Name:        "item",
	Description: "One item by ID; some IDs fail on purpose.",
	URITemplate: "test://items/{id}",
	Errors:      []mcpcore.Failure{itemGone},
	Handler: func(ctx *mcpcore.Context, p idParams) (any, error) {
		switch p.ID {
		case "missing":
			return nil, mcperr.NotFound("Item missing not found", mcperr.WithData(map[string]any{"itemId": p.ID}))
		case "plain":
			return nil, errors.New("Item not found in the store")
		case "panic":
			panic("resource exploded")
		case "gone":
			return nil, ctx.Fail(itemGone, "", ctx.RecoveryFor(itemGone))
		case "undeclared":
			return nil, ctx.Fail(noMatch, "")
		case "string":
			return "hello", nil
		}
		return item{ID: p.ID, URI: ctx.URI()}, nil
	},
}

var noteResource = mcpcore.Resource[idParams, string]{
	Name:        "note",
	URITemplate: "test://notes/{id}",
	MIMEType:    "text/plain",
	Handler: func(_ *mcpcore.Context, p idParams) (string, error) {
		return "Note " + p.ID + ":\n  \"as is\"", nil
	},
}

var blobResource = mcpcore.Resource[idParams, []byte]{
	Name:        "blob",
	URITemplate: "test://blobs/{id}",
	MIMEType:    "application/octet-stream",
	Handler: func(_ *mcpcore.Context, p idParams) ([]byte, error) {
		return []byte{0, 1, 2, 0xff}, nil
	},
}

func readResource(t *testing.T, cs *mcp.ClientSession, uri string) (*mcp.ReadResourceResult, error) {
	t.Helper()
	return cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
}

func TestResourceSuccess(t *testing.T) {
	t.Parallel()
	cs, logs := connect(t, itemResource, noteResource, blobResource)
	for _, tc := range []struct{ uri, contents string }{
		{"test://items/42", `[{"uri":"test://items/42","mimeType":"application/json",
			"text":"{\n  \"id\": \"42\",\n  \"uri\": \"test://items/42\"\n}"}]`},
		// A string is JSON under a JSON MIME type...
		{"test://items/string", `[{"uri":"test://items/string","mimeType":"application/json","text":"\"hello\""}]`},
		// ... and sent as it is otherwise.
		{"test://notes/7", `[{"uri":"test://notes/7","mimeType":"text/plain","text":"Note 7:\n  \"as is\""}]`},
		{"test://blobs/7", `[{"uri":"test://blobs/7","mimeType":"application/octet-stream","blob":"AAEC/w=="}]`},
	} {
		t.Run(tc.uri, func(t *testing.T) {
			res, err := readResource(t, cs, tc.uri)
			if err != nil {
				t.Fatal(err)
			}
			wiretest.AssertJSON(t, "contents", res.Contents, tc.contents)
		})
	}
	if f := logs.Failures(t, "resource:item"); len(f) != 0 {
		t.Errorf("failure records on success: %v", f)
	}

	list, err := cs.ListResourceTemplates(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	mimes := map[string]string{}
	for _, rt := range list.ResourceTemplates {
		mimes[rt.URITemplate] = rt.MIMEType
	}
	wiretest.AssertJSON(t, "templates", mimes, `{"test://items/{id}":"application/json","test://notes/{id}":"text/plain","test://blobs/{id}":"application/octet-stream"}`)
}

func TestResourceFailures(t *testing.T) {
	t.Parallel()
	cs, logs := connect(t, itemResource)
	undeclared := "ctx.Fail() called with unknown reason 'no_match' — not declared in the Errors of resource \"item\"."
	for _, tc := range []struct{ uri, err string }{
		// An *mcperr.Error: exactly its code, message and data.
		{"test://items/missing", `{"code":-32001,"message":"Item missing not found","data":{"itemId":"missing"}}`},
		// A plain error: classified, no data.
		{"test://items/plain", `{"code":-32001,"message":"Item not found in the store"}`},
		// A panic: generic, nothing of the value.
		{"test://items/panic", `{"code":-32603,"message":"An internal error occurred in resource item."}`},
		// The contract works for resources too.
		{"test://items/gone", `{"code":-32001,"message":"The item was deleted.",
			"data":{"reason":"item_gone","recovery":{"hint":"List the items again with the list_items tool."}}}`},
		{"test://items/undeclared", `{"code":-32603,"message":` + quote(undeclared) + `,
			"data":{"reason":"no_match","declaredReasons":["item_gone"]}}`},
	} {
		t.Run(tc.uri, func(t *testing.T) {
			res, err := readResource(t, cs, tc.uri)
			if res != nil {
				t.Errorf("result = %v, want none", res)
			}
			wiretest.AssertJSON(t, "JSON-RPC error", wireErr(t, err), tc.err)
		})
	}
	// The panic is logged with its value and stack, once.
	var panics int
	for _, r := range logs.Failures(t, "resource:item") {
		if r["panic"] == "resource exploded" {
			panics++
			if s, _ := r["stack"].(string); !strings.Contains(s, "goroutine") {
				t.Errorf("panic record without a stack: %v", r)
			}
		}
	}
	if panics != 1 {
		t.Errorf("%d panic records, want 1:\n%s", panics, logs)
	}
}

func TestResourceNotFound(t *testing.T) {
	t.Parallel()
	cs, _ := connect(t, itemResource)
	const uri = "test://nothing/here"
	_, err := readResource(t, cs, uri)
	got := rpcError(t, err)
	want := rpcError(t, mcp.ResourceNotFoundError(uri))
	if got.Code != want.Code || got.Message != want.Message {
		t.Errorf("error = %d %q, want the SDK's resource-not-found error %d %q", got.Code, got.Message, want.Code, want.Message)
	}
}

func TestResourceVariablesAreDecodedAndControlCharactersRefused(t *testing.T) {
	t.Parallel()
	echo := func(_ *mcpcore.Context, p idParams) (string, error) { return p.ID, nil }
	strict := mcpcore.Resource[idParams, string]{Name: "strict", URITemplate: "test://strict/{id}", MIMEType: "text/plain", Handler: echo}
	lax := mcpcore.Resource[idParams, string]{Name: "lax", URITemplate: "test://lax/{id}", MIMEType: "text/plain", Handler: echo, AllowControlCharacters: true}
	cs, _ := connect(t, strict, lax)

	// Percent-encoding is decoded before the handler sees the value: a
	// handler that builds a path from it must check it.
	res, err := readResource(t, cs, "test://strict/..%2F..%2Fetc%2Fpasswd")
	if err != nil || res.Contents[0].Text != "../../etc/passwd" {
		t.Fatalf("decoded variable: %v, %v", res, err)
	}
	for _, tc := range []struct{ uri, char string }{
		{"test://strict/a%00b", "U+0000"},
		{"test://strict/a%0Ab", "U+000A"},
		{"test://strict/a%0Db", "U+000D"},
		{"test://strict/%7F", "U+007F"},
		{"test://strict/%C2%85", "U+0085"},
	} {
		_, err := readResource(t, cs, tc.uri)
		var werr *jsonrpc.Error
		if !errors.As(err, &werr) || werr.Code != int64(mcperr.CodeValidationError) ||
			werr.Message != `URI variable "id" holds a control character (`+tc.char+`); control characters are not allowed` ||
			string(werr.Data) != `{"variable":"id"}` {
			t.Errorf("%s: err = %#v", tc.uri, err)
		}
	}
	// Opting out passes them through.
	res, err = readResource(t, cs, "test://lax/a%00b")
	if err != nil || res.Contents[0].Text != "a\x00b" {
		t.Errorf("AllowControlCharacters: %v, %v", res, err)
	}
}

// A pattern tag on a Params field is how a variable is kept to a safe
// alphabet: the decoded "../../etc" never reaches the handler.
func TestResourceVariablePattern(t *testing.T) {
	t.Parallel()
	type numbered struct {
		ID string `json:"id" pattern:"^[0-9]+$" jsonschema:"a numeric ID"`
	}
	r := mcpcore.Resource[numbered, string]{
		Name:        "numbered",
		URITemplate: "test://numbered/{id}",
		MIMEType:    "text/plain",
		Handler:     func(_ *mcpcore.Context, p numbered) (string, error) { return "item " + p.ID, nil },
	}
	cs, _ := connect(t, r)
	if res, err := readResource(t, cs, "test://numbered/42"); err != nil || res.Contents[0].Text != "item 42" {
		t.Fatalf("valid ID: %v, %v", res, err)
	}
	_, err := readResource(t, cs, "test://numbered/..%2F..%2Fetc%2Fpasswd")
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) || werr.Code != int64(mcperr.CodeValidationError) ||
		werr.Message != `at id: expected a string matching the pattern "^[0-9]+$"` {
		t.Errorf("err = %#v", err)
	}
}

func TestResourceVariablesMustMatchParams(t *testing.T) {
	t.Parallel()
	type params struct {
		ID   string `json:"id"`
		Lang string `json:"lang"`
	}
	type optional struct {
		ID   string `json:"id"`
		Lang string `json:"lang,omitempty"`
	}
	read := func(*mcpcore.Context, params) (string, error) { return "", nil }
	for _, tc := range []struct {
		template string
		want     []string
	}{
		{"test://items/{id}/{idd}", []string{"variable {idd} has no field in Params", `the Params field "lang" is required, but no variable {lang} fills it`}},
		{"test://items/{id}", []string{`the Params field "lang" is required`}},
	} {
		_, err := mcpcore.NewServer(mcpcore.Info{Name: "s"}, &mcpcore.ServerOptions{},
			mcpcore.Resource[params, string]{Name: "item", URITemplate: tc.template, Handler: read})
		for _, w := range tc.want {
			if err == nil || !strings.Contains(err.Error(), w) || !strings.Contains(err.Error(), tc.template) {
				t.Errorf("%s: NewServer = %v, want an error naming the template and %q", tc.template, err, w)
			}
		}
	}
	ok := []mcpcore.Definition{
		mcpcore.Resource[optional, string]{Name: "a", URITemplate: "test://a/{id}", Handler: func(*mcpcore.Context, optional) (string, error) { return "", nil }},
		mcpcore.Resource[optional, string]{Name: "b", URITemplate: "test://b/{id}{?lang}", Handler: func(*mcpcore.Context, optional) (string, error) { return "", nil }},
		mcpcore.Resource[map[string]string, string]{Name: "c", URITemplate: "test://c/{any}", Handler: func(*mcpcore.Context, map[string]string) (string, error) { return "", nil }},
	}
	if _, err := mcpcore.NewServer(mcpcore.Info{Name: "s"}, &mcpcore.ServerOptions{}, ok...); err != nil {
		t.Errorf("NewServer refused matching templates: %v", err)
	}
}
