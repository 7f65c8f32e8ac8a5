package main

import (
	"context"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore"
)

// The suite itself runs in interop/ (make interop); this test checks, with
// Go alone, that the server starts and lists what the suite looks for.
func TestServesWhatTheSuiteNames(t *testing.T) {
	srv, err := mcpcore.NewServer(info, &mcpcore.ServerOptions{Logger: slog.New(slog.DiscardHandler)}, definitions()...)
	if err != nil {
		t.Fatal(err)
	}
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := srv.MCPServer().Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	var tools, resources, prompts []string
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		if tool.Description == "" {
			t.Errorf("tool %s has no description", tool.Name)
		}
		tools = append(tools, tool.Name)
	}
	for r, err := range cs.Resources(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		resources = append(resources, r.URI)
	}
	for p, err := range cs.Prompts(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		prompts = append(prompts, p.Name)
	}
	for _, want := range []string{"test_simple_text", "test_image_content", "test_audio_content", "test_embedded_resource",
		"test_multiple_content_types", "test_tool_with_logging", "test_tool_with_progress", "test_error_handling",
		"test_sampling", "test_elicitation", "test_elicitation_sep1034_defaults", "test_elicitation_sep1330_enums",
		"json_schema_2020_12_tool", "test_missing_capability", "test_input_required_result_elicitation",
		// The tasks-* scenarios'.
		"greet", "slow_compute", "failing_job", "protocol_error_job", "confirm_delete", "multi_input", "test_tool_with_task",
		// server-stateless's list change hooks.
		"test_trigger_tool_change", "test_trigger_prompt_change"} {
		if !slices.Contains(tools, want) {
			t.Errorf("tools/list lacks %s", want)
		}
	}
	for _, want := range []string{"test://static-text", "test://static-binary", "test://watched-resource"} {
		if !slices.Contains(resources, want) {
			t.Errorf("resources/list lacks %s", want)
		}
	}
	for _, want := range []string{"test_simple_prompt", "test_prompt_with_arguments", "test_prompt_with_embedded_resource", "test_prompt_with_image"} {
		if !slices.Contains(prompts, want) {
			t.Errorf("prompts/list lacks %s", want)
		}
	}
}

// Each call of a hook changes its list, and a client hears it.
func TestHooksChangeTheLists(t *testing.T) {
	srv, err := mcpcore.NewServer(info, &mcpcore.ServerOptions{Logger: slog.New(slog.DiscardHandler)}, definitions()...)
	if err != nil {
		t.Fatal(err)
	}
	served.Store(srv)
	changed := make(chan string, 8)
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := srv.MCPServer().Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t"}, &mcp.ClientOptions{
		ToolListChangedHandler:   func(context.Context, *mcp.ToolListChangedRequest) { changed <- "tools" },
		PromptListChangedHandler: func(context.Context, *mcp.PromptListChangedRequest) { changed <- "prompts" },
	}).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	lists := func() (tools, prompts []string) {
		for tool, err := range cs.Tools(ctx, nil) {
			if err != nil {
				t.Fatal(err)
			}
			tools = append(tools, tool.Name)
		}
		for p, err := range cs.Prompts(ctx, nil) {
			if err != nil {
				t.Fatal(err)
			}
			prompts = append(prompts, p.Name)
		}
		return tools, prompts
	}
	for i, listed := range []bool{false, true} {
		for _, hook := range []struct{ tool, list, changing string }{
			{"test_trigger_tool_change", "tools", changingTool}, {"test_trigger_prompt_change", "prompts", changingPrompt}} {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: hook.tool, Arguments: map[string]any{}})
			if err != nil || res.IsError {
				t.Fatalf("call %d of %s: %v %v", i+1, hook.tool, err, res)
			}
			select {
			case got := <-changed:
				if got != hook.list {
					t.Errorf("after %s, heard %s list_changed", hook.tool, got)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("no list_changed after %s", hook.tool)
			}
			tools, prompts := lists()
			if slices.Contains(append(tools, prompts...), hook.changing) != listed {
				t.Errorf("after call %d of %s, %s listed: %v; want %v", i+1, hook.tool, hook.changing, !listed, listed)
			}
		}
	}
}
