package mcpclient_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore/mcpclient"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// want is an expected error: its code, its message and its data as JSON
// ("" for no data at all).
type want struct {
	code    mcperr.Code
	message string
	data    string
}

// check compares got with w: code, message, and data as JSON decodes it.
func check(t *testing.T, got *mcperr.Error, w *want) {
	t.Helper()
	if w == nil {
		if got != nil {
			t.Fatalf("error = %v (code %v, data %v), want nil", got, got.Code(), got.Data())
		}
		return
	}
	if got == nil {
		t.Fatalf("error = nil, want %v %q", w.code, w.message)
	}
	if got.Code() != w.code || got.Message() != w.message {
		t.Errorf("error = %v %q, want %v %q", got.Code(), got.Message(), w.code, w.message)
	}
	var data map[string]any
	if w.data != "" {
		if err := json.Unmarshal([]byte(w.data), &data); err != nil {
			t.Fatalf("bad want.data %s: %v", w.data, err)
		}
	}
	if !reflect.DeepEqual(got.Data(), data) {
		t.Errorf("data = %#v, want %#v", got.Data(), data)
	}
}

// TestErrorOf reads tool results as a client receives them (wire JSON
// decoded by the SDK) into the error the server raised.
func TestErrorOf(t *testing.T) {
	for _, tc := range []struct {
		name string
		wire string
		want *want
	}{
		{
			name: "success",
			wire: `{"content":[{"type":"text","text":"{}"}],"structuredContent":{"articles":[]}}`,
		},
		{
			name: "success whose output has an error key",
			wire: `{"content":[],"structuredContent":{"error":{"code":-32001,"message":"m"}}}`,
		},
		{
			name: "declared failure with recovery",
			wire: `{"isError":true,
				"content":[{"type":"text","text":"Error: None of 0 PMIDs returned data\n\nRecovery: Try pubmed_search_articles to discover valid PMIDs first."}],
				"structuredContent":{"error":{"code":-32001,"message":"None of 0 PMIDs returned data",
					"data":{"recovery":{"hint":"Try pubmed_search_articles to discover valid PMIDs first."},"reason":"no_match"}}}}`,
			want: &want{mcperr.CodeNotFound, "None of 0 PMIDs returned data",
				`{"recovery":{"hint":"Try pubmed_search_articles to discover valid PMIDs first."},"reason":"no_match"}`},
		},
		{
			name: "retryable flag",
			wire: `{"isError":true,"content":[{"type":"text","text":"Error: Queue at capacity"}],
				"structuredContent":{"error":{"code":-32003,"message":"Queue at capacity","data":{"retryable":true,"reason":"queue_full"}}}}`,
			want: &want{mcperr.CodeRateLimited, "Queue at capacity", `{"retryable":true,"reason":"queue_full"}`},
		},
		{
			name: "no data",
			wire: `{"isError":true,"content":[{"type":"text","text":"Error: Item not found in upstream"}],
				"structuredContent":{"error":{"code":-32001,"message":"Item not found in upstream"}}}`,
			want: &want{mcperr.CodeNotFound, "Item not found in upstream", ""},
		},
		{
			name: "empty data stays present",
			wire: `{"isError":true,"content":[],"structuredContent":{"error":{"code":-32603,"message":"m","data":{}}}}`,
			want: &want{mcperr.CodeInternalError, "m", `{}`},
		},
		{
			name: "numbers are float64, nested values decoded",
			wire: `{"isError":true,"content":[],"structuredContent":{"error":{"code":-32007,"message":"bad",
				"data":{"issues":[{"path":["pmids",0],"keyword":"type"}],"issuesOmitted":3,"retryAfter":1.5}}}}`,
			want: &want{mcperr.CodeValidationError, "bad", `{"issues":[{"path":["pmids",0],"keyword":"type"}],"issuesOmitted":3,"retryAfter":1.5}`},
		},
		{
			name: "auth key removed",
			wire: `{"isError":true,"content":[],"structuredContent":{"error":{"code":-32006,"message":"no","data":{"auth":{"token":"t"},"reason":"expired"}}}}`,
			want: &want{mcperr.CodeUnauthorized, "no", `{"reason":"expired"}`},
		},
		{
			name: "data that is not an object is dropped",
			wire: `{"isError":true,"content":[],"structuredContent":{"error":{"code":-32000,"message":"down","data":["a"]}}}`,
			want: &want{mcperr.CodeServiceUnavailable, "down", ""},
		},
		{
			name: "a code this package does not know is kept",
			wire: `{"isError":true,"content":[],"structuredContent":{"error":{"code":-31999,"message":"odd"}}}`,
			want: &want{-31999, "odd", ""},
		},
		{
			name: "empty message is kept",
			wire: `{"isError":true,"content":[{"type":"text","text":"Error: "}],"structuredContent":{"error":{"code":-32001,"message":""}}}`,
			want: &want{mcperr.CodeNotFound, "", ""},
		},
		{
			name: "no structured content: the text, with its recovery line",
			wire: `{"isError":true,"content":[{"type":"text","text":"Error: Soft limit exceeded\n\nRecovery: Reduce the request size and try again later."}]}`,
			want: &want{mcperr.CodeUnknownError, "Soft limit exceeded", `{"recovery":{"hint":"Reduce the request size and try again later."}}`},
		},
		{
			name: "no structured content: a text of another server",
			wire: `{"isError":true,"content":[{"type":"image","data":"AA==","mimeType":"image/png"},{"type":"text","text":"upstream exploded"}]}`,
			want: &want{mcperr.CodeUnknownError, "upstream exploded", ""},
		},
		{
			name: "no structured content and no text",
			wire: `{"isError":true,"content":[]}`,
			want: &want{mcperr.CodeUnknownError, "The tool reported an error without a message.", ""},
		},
		{
			name: "structured error with a string code: the text",
			wire: `{"isError":true,"content":[{"type":"text","text":"Error: x"}],"structuredContent":{"error":{"code":"-32001","message":"m"}}}`,
			want: &want{mcperr.CodeUnknownError, "x", ""},
		},
		{
			name: "structured error with a fractional code: the text",
			wire: `{"isError":true,"content":[{"type":"text","text":"Error: x"}],"structuredContent":{"error":{"code":-32001.5,"message":"m"}}}`,
			want: &want{mcperr.CodeUnknownError, "x", ""},
		},
		{
			name: "structured error with a code beyond int32: the text",
			wire: `{"isError":true,"content":[{"type":"text","text":"Error: x"}],"structuredContent":{"error":{"code":4294967296,"message":"m"}}}`,
			want: &want{mcperr.CodeUnknownError, "x", ""},
		},
		{
			name: "structured error without a message: the text",
			wire: `{"isError":true,"content":[{"type":"text","text":"Error: x"}],"structuredContent":{"error":{"code":-32001}}}`,
			want: &want{mcperr.CodeUnknownError, "x", ""},
		},
		{
			name: "structured error that is a string: the text",
			wire: `{"isError":true,"content":[{"type":"text","text":"Error: x"}],"structuredContent":{"error":"it broke"}}`,
			want: &want{mcperr.CodeUnknownError, "x", ""},
		},
		{
			name: "structured content that is a list: the text",
			wire: `{"isError":true,"content":[{"type":"text","text":"Error: x"}],"structuredContent":[1,2]}`,
			want: &want{mcperr.CodeUnknownError, "x", ""},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var res mcp.CallToolResult
			if err := json.Unmarshal([]byte(tc.wire), &res); err != nil {
				t.Fatalf("decoding the wire result: %v", err)
			}
			check(t, mcpclient.ErrorOf(&res), tc.want)
		})
	}
}

func TestErrorOfNil(t *testing.T) {
	if e := mcpclient.ErrorOf(nil); e != nil {
		t.Errorf("ErrorOf(nil) = %v, want nil", e)
	}
}

// TestErrorOfRawMessage reads a result as the server side of a session holds
// it, with its structured content still encoded.
func TestErrorOfRawMessage(t *testing.T) {
	res := &mcp.CallToolResult{
		IsError:           true,
		Content:           []mcp.Content{&mcp.TextContent{Text: "Error: Queue at capacity\n\nRecovery: Wait."}},
		StructuredContent: json.RawMessage(`{"error":{"code":-32003,"message":"Queue at capacity","data":{"retryable":true,"recovery":{"hint":"Wait."}}}}`),
	}
	e := mcpclient.ErrorOf(res)
	check(t, e, &want{mcperr.CodeRateLimited, "Queue at capacity", `{"retryable":true,"recovery":{"hint":"Wait."}}`})
	if got := e.RecoveryHint(); got != "Wait." {
		t.Errorf("RecoveryHint() = %q, want %q", got, "Wait.")
	}
	if e.Cause() != nil {
		t.Errorf("Cause() = %v, want nil: the server's causes stay on the server", e.Cause())
	}
}
