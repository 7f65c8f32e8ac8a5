// Command typed is the go-sdk server written with the SDK's typed API, the
// peer a user of the SDK alone would most likely write: the tools echo and
// fetch_articles of bench/baseline, registered with the generic
// [mcp.AddTool], so that the SDK infers their input and output schemas from
// Go types and validates every call's arguments and result against them.
//
// Its tools answer with the same bytes as bench/baseline and
// examples/articles: a result's text is its indented JSON (set here, since
// the SDK would write it compact) and the SDK fills structuredContent from
// the typed output; the no_match failure is the same isError result, its
// its error the typed output (the SDK puts the output in structuredContent
// and validates it, failed or not).
// It is served as bench/baseline is (package bench/internal/peer).
package main

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore/bench/internal/peer"
)

func main() { peer.Main("typed", newServer()) }

// fetchResult is the tool's output: its articles, or the error of a failed
// call. Failures are typed output too, as mcpcore advertises them (the
// output schema widened with an error member), since the typed API puts
// the output in structuredContent whatever the result says.
type fetchResult struct {
	Articles []string          `json:"articles,omitempty"`
	Error    *peer.ErrorObject `json:"error,omitempty"`
}

func newServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "typed", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Send back the message it is given."}, echo)
	mcp.AddTool(s, &mcp.Tool{Name: "fetch_articles", Description: "Fetch articles by PMID."}, fetchArticles)
	return s
}

func echo(_ context.Context, _ *mcp.CallToolRequest, in peer.EchoArgs) (*mcp.CallToolResult, peer.EchoArgs, error) {
	res, err := indented(in)
	return res, in, err
}

func fetchArticles(_ context.Context, _ *mcp.CallToolRequest, in peer.FetchArgs) (*mcp.CallToolResult, fetchResult, error) {
	if len(in.PMIDs) == 0 {
		e, text := peer.NoMatch(len(in.PMIDs))
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, IsError: true},
			fetchResult{Error: &e}, nil
	}
	out := fetchResult{Articles: in.PMIDs}
	res, err := indented(out)
	return res, out, err
}

// indented is a result whose text is out as indented JSON; the SDK adds
// out as its structuredContent.
func indented(out any) (*mcp.CallToolResult, error) {
	text, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(text)}}}, nil
}
