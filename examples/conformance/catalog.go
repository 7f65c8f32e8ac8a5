package main

import (
	"errors"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore"
)

// served is the server whose definitions the hooks below switch; main (and
// the test) set it once the server is built.
var served atomic.Pointer[mcpcore.Server]

// The definitions the hooks switch on and off, and nothing else touches.
const (
	changingTool   = "test_changing_tool"
	changingPrompt = "test_changing_prompt"
)

var changingToolDef = mcpcore.Tool[None, Message]{
	Name:        changingTool,
	Description: "Listed or not, as test_trigger_tool_change switches it.",
	Handler:     func(*mcpcore.Context, None) (Message, error) { return Message{"still here"}, nil },
	Format:      text,
}

var changingPromptDef = mcpcore.Prompt[struct{}]{
	Name:        changingPrompt,
	Description: "Listed or not, as test_trigger_prompt_change switches it.",
	Handler: func(*mcpcore.Context, struct{}) ([]*mcp.PromptMessage, error) {
		return []*mcp.PromptMessage{mcpcore.UserMessage(mcpcore.Text("still here"))}, nil
	},
}

// The server-stateless scenario's hooks: each call changes the list of its
// kind (the changing definition switched off if on, on if off), for every
// replica of the fleet, so that every subscriptions/listen stream that
// asked hears list_changed.
var (
	triggerToolChange = mcpcore.Tool[None, Message]{
		Name:        "test_trigger_tool_change",
		Description: "Changes the tool list: switches test_changing_tool off if it is on, on if it is off.",
		Handler: func(ctx *mcpcore.Context, _ None) (Message, error) {
			return toggle(ctx, mcpcore.KindTool, changingTool)
		},
		Format: text,
	}
	triggerPromptChange = mcpcore.Tool[None, Message]{
		Name:        "test_trigger_prompt_change",
		Description: "Changes the prompt list: switches test_changing_prompt off if it is on, on if it is off.",
		Handler: func(ctx *mcpcore.Context, _ None) (Message, error) {
			return toggle(ctx, mcpcore.KindPrompt, changingPrompt)
		},
		Format: text,
	}
)

func toggle(ctx *mcpcore.Context, kind mcpcore.DefinitionKind, name string) (Message, error) {
	srv := served.Load()
	if srv == nil {
		return Message{}, errors.New("the server is not built yet")
	}
	on := !srv.Enabled(kind, name)
	if err := srv.SetEnabled(ctx, kind, name, on); err != nil {
		return Message{}, err
	}
	if on {
		return Message{name + " is listed again."}, nil
	}
	return Message{name + " is no longer listed."}, nil
}
