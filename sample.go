//lint:file-ignore SA1019 sampling and roots are deprecated from protocol 2026-07-28 (SEP-2577) but stay in the protocol through its deprecation window, and clients use them.

package mcpcore

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/mcperr"
)

// A SamplingRequest asks the client's model for a completion
// (sampling/createMessage). Give Prompt for a single user message, or
// Messages for a conversation.
type SamplingRequest struct {
	// Prompt is the text of a single user message.
	Prompt string
	// Messages is the conversation to complete, when Prompt is empty.
	Messages []*mcp.SamplingMessage
	// SystemPrompt is an optional system prompt; the client may ignore it.
	SystemPrompt string
	// MaxTokens bounds the completion; zero means 1000.
	MaxTokens int64
	// Temperature, StopSequences and ModelPreferences are hints the client
	// may ignore.
	Temperature      float64
	StopSequences    []string
	ModelPreferences *mcp.ModelPreferences
}

// A SamplingResult is the client's completion.
type SamplingResult struct {
	// Text is the text of the completion: its text blocks, joined.
	Text string
	// Content is every block of the completion.
	Content []mcp.Content
	// Model names the model that answered, as the client reports it.
	Model string
	// StopReason is why the model stopped, such as "endTurn".
	StopReason string
}

// Sample asks the client's model for a completion and returns it. The
// client may show the request to its user, change it, or refuse it.
// Sampling (and roots) are deprecated from protocol 2026-07-28 (SEP-2577),
// and stay in the protocol through their deprecation window: prefer calling
// a model provider from the server where you can.
//
// The outcomes: the client did not declare sampling, the protocol error of
// [Context.RequireClient]; under MCP 2026-07-28 and later, before the client
// has answered, an error wrapping [ErrInputRequired] (see it); under earlier
// versions, the client refusing or failing, ServiceUnavailable with
// data.method. (Under 2026-07-28 a client that refuses does not call again:
// its refusal stays on its side.) A SamplingRequest with neither Prompt nor Messages
// is the handler's bug: InternalError.
func (c *Context) Sample(s SamplingRequest, opts ...AskOption) (*SamplingResult, error) {
	if err := c.RequireClient(CapabilitySampling); err != nil {
		return nil, err
	}
	msgs := s.Messages
	if s.Prompt != "" {
		msgs = []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: s.Prompt}}}
	}
	if len(msgs) == 0 {
		// The handler's bug, not the client's.
		return nil, mcperr.InternalError("Sample: a SamplingRequest needs a Prompt or Messages.")
	}
	maxTokens := s.MaxTokens
	if maxTokens == 0 {
		maxTokens = 1000
	}
	//lint:ignore SA1019 sampling stays in the protocol through its deprecation window, and clients use it.
	params := &mcp.CreateMessageParams{Messages: msgs, SystemPrompt: s.SystemPrompt, MaxTokens: maxTokens,
		Temperature: s.Temperature, StopSequences: s.StopSequences, ModelPreferences: s.ModelPreferences}
	r, err := askClient(c, CapabilitySampling, askOptions(opts).key, "Sample", "sampling/createMessage", params,
		func(ss *mcp.ServerSession) (*mcp.CreateMessageWithToolsResult, error) {
			r, err := ss.CreateMessage(c, params)
			if err != nil {
				return nil, err
			}
			return &mcp.CreateMessageWithToolsResult{Content: []mcp.Content{r.Content}, Model: r.Model, StopReason: r.StopReason}, nil
		})
	if err != nil {
		return nil, err
	}
	return newSample(r.Content, r.Model, r.StopReason), nil
}

func newSample(content []mcp.Content, model, stop string) *SamplingResult {
	s := &SamplingResult{Content: content, Model: model, StopReason: stop}
	for _, b := range content {
		if t, ok := b.(*mcp.TextContent); ok {
			s.Text += t.Text
		}
	}
	return s
}

// Roots returns the client's roots: the directories or other locations
// the user has shared with the server. The outcomes are those of
// [Context.Sample], for the roots capability.
func (c *Context) Roots(opts ...AskOption) ([]*mcp.Root, error) {
	r, err := askClient(c, CapabilityRoots, askOptions(opts).key, "Roots", "roots/list", &mcp.ListRootsParams{},
		func(ss *mcp.ServerSession) (*mcp.ListRootsResult, error) {
			return ss.ListRoots(c, &mcp.ListRootsParams{})
		})
	if err != nil {
		return nil, err
	}
	return r.Roots, nil
}
