package main

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore"
)

const watchedURI = "test://watched-resource"

var staticText = mcpcore.Resource[struct{}, string]{
	Name:        "static-text",
	Description: "A static text resource.",
	URITemplate: "test://static-text",
	MIMEType:    "text/plain",
	Handler: func(*mcpcore.Context, struct{}) (string, error) {
		return "This is the content of the static text resource.", nil
	},
}

var staticBinary = mcpcore.Resource[struct{}, []byte]{
	Name:        "static-binary",
	Description: "A static binary resource (a PNG image).",
	URITemplate: "test://static-binary",
	MIMEType:    "image/png",
	Handler:     func(*mcpcore.Context, struct{}) ([]byte, error) { return pngPixel, nil },
}

// TemplateParams are the variables of test://template/{id}/data.
type TemplateParams struct {
	ID string `json:"id" pattern:"^[A-Za-z0-9_-]+$"`
}

// TemplateData is the content of test://template/{id}/data.
type TemplateData struct {
	ID           string `json:"id"`
	TemplateTest bool   `json:"templateTest"`
	Data         string `json:"data"`
}

var templateResource = mcpcore.Resource[TemplateParams, TemplateData]{
	Name:        "template",
	Description: "A resource template with one variable.",
	URITemplate: "test://template/{id}/data",
	Complete: map[string]mcpcore.CompleteFunc{
		"id": func(_ context.Context, value string, _ map[string]string) ([]string, error) {
			return withPrefix([]string{"123", "456", "789"}, value), nil
		},
	},
	Handler: func(_ *mcpcore.Context, p TemplateParams) (TemplateData, error) {
		return TemplateData{ID: p.ID, TemplateTest: true, Data: "Data for ID: " + p.ID}, nil
	},
}

var watchedResource = mcpcore.Resource[struct{}, string]{
	Name:        "watched-resource",
	Description: "A resource that changes every 3 seconds; subscribe to hear of it.",
	URITemplate: watchedURI,
	MIMEType:    "text/plain",
	Subscribe:   true,
	Handler:     func(*mcpcore.Context, struct{}) (string, error) { return "Watched resource content", nil },
}

func withPrefix(values []string, prefix string) []string {
	var out []string
	for _, v := range values {
		if strings.HasPrefix(v, prefix) {
			out = append(out, v)
		}
	}
	return out
}

// Prompts.

var simplePrompt = mcpcore.Prompt[struct{}]{
	Name:        "test_simple_prompt",
	Title:       "Simple Test Prompt",
	Description: "A prompt without arguments.",
	Handler: func(*mcpcore.Context, struct{}) ([]*mcp.PromptMessage, error) {
		return []*mcp.PromptMessage{mcpcore.UserMessage(mcpcore.Text("This is a simple prompt for testing."))}, nil
	},
}

// PromptArgs are the arguments of test_prompt_with_arguments.
type PromptArgs struct {
	Arg1 string `json:"arg1" jsonschema:"First test argument"`
	Arg2 string `json:"arg2" jsonschema:"Second test argument"`
}

var promptWithArguments = mcpcore.Prompt[PromptArgs]{
	Name:        "test_prompt_with_arguments",
	Title:       "Prompt With Arguments",
	Description: "A prompt with two required arguments.",
	Complete: map[string]mcpcore.CompleteFunc{
		"arg1": func(_ context.Context, value string, _ map[string]string) ([]string, error) {
			return withPrefix([]string{"test", "testing", "tested", "other"}, value), nil
		},
	},
	Handler: func(_ *mcpcore.Context, a PromptArgs) ([]*mcp.PromptMessage, error) {
		return []*mcp.PromptMessage{mcpcore.UserMessage(mcpcore.Text("Prompt with arguments: arg1='" + a.Arg1 + "', arg2='" + a.Arg2 + "'"))}, nil
	},
}

// EmbedArgs are the arguments of test_prompt_with_embedded_resource.
type EmbedArgs struct {
	ResourceURI string `json:"resourceUri" jsonschema:"URI of the resource to embed"`
}

var promptWithEmbeddedResource = mcpcore.Prompt[EmbedArgs]{
	Name:        "test_prompt_with_embedded_resource",
	Title:       "Prompt With Embedded Resource",
	Description: "A prompt that embeds a resource.",
	Handler: func(_ *mcpcore.Context, a EmbedArgs) ([]*mcp.PromptMessage, error) {
		return []*mcp.PromptMessage{
			mcpcore.UserMessage(mcpcore.EmbeddedText(a.ResourceURI, "text/plain", "Embedded resource content for testing.")),
			mcpcore.UserMessage(mcpcore.Text("Please process the embedded resource above.")),
		}, nil
	},
}

var promptWithImage = mcpcore.Prompt[struct{}]{
	Name:        "test_prompt_with_image",
	Title:       "Prompt With Image",
	Description: "A prompt that holds an image.",
	Handler: func(*mcpcore.Context, struct{}) ([]*mcp.PromptMessage, error) {
		return []*mcp.PromptMessage{
			mcpcore.UserMessage(mcpcore.Image(pngPixel, "image/png")),
			mcpcore.UserMessage(mcpcore.Text("Please analyze the image above.")),
		}, nil
	},
}

var inputPrompt = mcpcore.Prompt[struct{}]{
	Name:        "test_input_required_result_prompt",
	Description: "Asks the user for context, then builds the prompt from it (SEP-2322).",
	Handler: func(ctx *mcpcore.Context, _ struct{}) ([]*mcp.PromptMessage, error) {
		c, err := mcpcore.Elicit[Context](ctx, "Please provide context for the prompt", mcpcore.QuestionKey("user_context"))
		if err != nil {
			return nil, err
		}
		return []*mcp.PromptMessage{mcpcore.UserMessage(mcpcore.Text("Context: " + c.Context))}, nil
	},
}
