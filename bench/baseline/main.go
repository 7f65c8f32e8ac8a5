// Command baseline is the bare-SDK server that bench/load measures mcpcore
// against: the go-sdk's own server with the two tools the load calls, echo
// and fetch_articles, registered with the raw [mcp.Server.AddTool]. It does
// what a careful server written on the SDK alone would do, and no more: no
// schema inference, no input or output validation, no logs, no telemetry.
//
// Its tools answer with the same bytes as examples/articles:
//
//   - echo {"message": m} sends back m, as the text of its indented JSON
//     and as structuredContent {"message": m};
//   - fetch_articles {"pmids": []} fails as the example's no_match failure:
//     isError, the text "Error: None of 0 PMIDs returned data\n\nRecovery: …"
//     and structuredContent {"error": {"code": -32001, "message": …,
//     "data": {"reason": "no_match", "recovery": {"hint": …}}}};
//   - fetch_articles with PMIDs sends them back as {"articles": […]}.
//
// It reads the environment as mcpcore does: stdio by default;
// MCP_TRANSPORT_TYPE=http serves Streamable HTTP on
// MCP_HTTP_HOST:MCP_HTTP_PORT (default 127.0.0.1:3010) at /mcp, stateless
// with MCP_SESSION_MODE=stateless. Any other MCP_ variable is ignored.
package main

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore/bench/internal/peer"
)

func main() { peer.Main("baseline", newServer()) }

// newServer is the SDK server with the two tools, registered raw.
func newServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "baseline", Version: "1.0.0"}, nil)
	s.AddTool(&mcp.Tool{
		Name:        "echo",
		Description: "Send back the message it is given.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`),
	}, echo)
	s.AddTool(&mcp.Tool{
		Name:        "fetch_articles",
		Description: "Fetch articles by PMID.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"pmids":{"type":"array","items":{"type":"string"}}},"required":["pmids"]}`),
	}, fetchArticles)
	return s
}

func echo(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var in peer.EchoArgs
	if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
		return invalidArguments(err), nil
	}
	return structured(in)
}

type fetchResult struct {
	Articles []string `json:"articles"`
}

// errorContent is the structuredContent of a failed call.
type errorContent struct {
	Error peer.ErrorObject `json:"error"`
}

func fetchArticles(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var in peer.FetchArgs
	if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
		return invalidArguments(err), nil
	}
	if len(in.PMIDs) == 0 {
		e, text := peer.NoMatch(len(in.PMIDs))
		return &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: text}},
			StructuredContent: errorContent{Error: e},
			IsError:           true,
		}, nil
	}
	return structured(fetchResult{Articles: in.PMIDs})
}

// structured is a successful result: out as indented JSON text, as
// examples/articles writes it, and as structuredContent.
func structured(out any) (*mcp.CallToolResult, error) {
	text, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: string(text)}},
		StructuredContent: out,
	}, nil
}

// invalidArguments is the answer to arguments that do not decode; the load
// never sends any.
func invalidArguments(err error) *mcp.CallToolResult {
	return &mcp.CallToolResult{
		Content: []mcp.Content{&mcp.TextContent{Text: "Error: invalid arguments: " + err.Error()}},
		IsError: true,
	}
}
