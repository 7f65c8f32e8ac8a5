package main

import (
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// None is the input and output of a tool that takes and returns nothing.
type None struct{}

// Message is the output of the tools whose result is one text.
type Message struct {
	Text string `json:"text"`
}

func text(out Message) ([]mcp.Content, error) { return []mcp.Content{mcpcore.Text(out.Text)}, nil }

func media(blocks ...mcp.Content) func(None) ([]mcp.Content, error) {
	return func(None) ([]mcp.Content, error) { return blocks, nil }
}

var simpleText = mcpcore.Tool[None, Message]{
	Name:        "test_simple_text",
	Description: "Returns a simple text response.",
	Handler: func(*mcpcore.Context, None) (Message, error) {
		return Message{"This is a simple text response for testing."}, nil
	},
	Format: text,
}

var imageContent = mcpcore.Tool[None, None]{
	Name:        "test_image_content",
	Description: "Returns an image.",
	Handler:     func(*mcpcore.Context, None) (None, error) { return None{}, nil },
	Format:      media(mcpcore.Image(pngPixel, "image/png")),
}

var audioContent = mcpcore.Tool[None, None]{
	Name:        "test_audio_content",
	Description: "Returns audio.",
	Handler:     func(*mcpcore.Context, None) (None, error) { return None{}, nil },
	Format:      media(mcpcore.Audio(wavSilence, "audio/wav")),
}

var embeddedResource = mcpcore.Tool[None, None]{
	Name:        "test_embedded_resource",
	Description: "Returns an embedded resource.",
	Handler:     func(*mcpcore.Context, None) (None, error) { return None{}, nil },
	Format:      media(mcpcore.EmbeddedText("test://embedded-resource", "text/plain", "This is an embedded resource")),
}

var multipleContent = mcpcore.Tool[None, None]{
	Name:        "test_multiple_content_types",
	Description: "Returns text, an image and an embedded resource.",
	Handler:     func(*mcpcore.Context, None) (None, error) { return None{}, nil },
	Format: media(
		mcpcore.Text("This is text content"),
		mcpcore.Image(pngPixel, "image/png"),
		mcpcore.EmbeddedText("test://embedded-in-multiple", "text/plain", "This is an embedded resource"),
	),
}

var toolWithLogging = mcpcore.Tool[None, Message]{
	Name:        "test_tool_with_logging",
	Description: "Sends three log messages to the client while it runs.",
	Handler: func(ctx *mcpcore.Context, _ None) (Message, error) {
		for i, step := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
			if i > 0 {
				time.Sleep(50 * time.Millisecond)
			}
			ctx.Logger().Info(step)
		}
		return Message{"Tool with logging executed successfully"}, nil
	},
	Format: text,
}

var toolWithProgress = mcpcore.Tool[None, Message]{
	Name:        "test_tool_with_progress",
	Description: "Reports progress three times while it runs.",
	Handler: func(ctx *mcpcore.Context, _ None) (Message, error) {
		for i, done := range []float64{0, 50, 100} {
			if i > 0 {
				time.Sleep(50 * time.Millisecond)
			}
			ctx.Progress(done, 100, fmt.Sprintf("Completed step %.0f of 100", done))
		}
		return Message{"Progress reported: 0, 50 and 100 of 100."}, nil
	},
	Format: text,
}

var alwaysFails = mcpcore.Failure{
	Reason:   "always_fails",
	Code:     mcperr.CodeServiceUnavailable,
	When:     "Always: the tool exists to show how a client renders a failed call.",
	Recovery: "Nothing to fix: this failure is the expected result of this test tool.",
}

var errorHandling = mcpcore.Tool[None, None]{
	Name:        "test_error_handling",
	Description: "Always fails, to test error results.",
	Errors:      []mcpcore.Failure{alwaysFails},
	Handler: func(ctx *mcpcore.Context, _ None) (None, error) {
		return None{}, ctx.Fail(alwaysFails, "This tool intentionally returns an error for testing.", ctx.RecoveryFor(alwaysFails))
	},
}

// SamplingInput is the input of test_sampling.
type SamplingInput struct {
	Prompt string `json:"prompt" jsonschema:"The prompt to send to the client's model"`
}

var sampling = mcpcore.Tool[SamplingInput, Message]{
	Name:        "test_sampling",
	Description: "Asks the client's model to complete a prompt (sampling).",
	Handler: func(ctx *mcpcore.Context, in SamplingInput) (Message, error) {
		s, err := ctx.Sample(mcpcore.SamplingRequest{Prompt: in.Prompt, MaxTokens: 100})
		if err != nil {
			return Message{}, err
		}
		return Message{"LLM response: " + s.Text}, nil
	},
	Format: text,
}

// ElicitationInput is the input of test_elicitation.
type ElicitationInput struct {
	Message string `json:"message" jsonschema:"The message to show the user"`
}

// Account is what test_elicitation asks the user for.
type Account struct {
	Username string `json:"username" jsonschema:"Your preferred username"`
	Email    string `json:"email" jsonschema:"Your email address"`
}

var consentDeclined = mcpcore.Failure{
	Reason:   "consent_declined",
	Code:     mcperr.CodeInvalidRequest,
	When:     "The user declined or dismissed the question.",
	Severity: mcpcore.SeverityNotice,
	Recovery: "Ask the user whether to try again, and call the tool again only if they agree.",
}

var elicitation = mcpcore.Tool[ElicitationInput, Message]{
	Name:        "test_elicitation",
	Description: "Asks the user for a username and an email (elicitation).",
	Errors:      []mcpcore.Failure{consentDeclined},
	Handler: func(ctx *mcpcore.Context, in ElicitationInput) (Message, error) {
		a, err := mcpcore.Elicit[Account](ctx, in.Message, mcpcore.OnDecline(consentDeclined, ctx.RecoveryFor(consentDeclined)))
		if err != nil {
			return Message{}, err
		}
		return Message{fmt.Sprintf("User response: username=%s, email=%s", a.Username, a.Email)}, nil
	},
	Format: text,
}

// Profile asks for one field of each primitive type, each with a default
// (SEP-1034).
type Profile struct {
	Name     string  `json:"name,omitempty" jsonschema:"User name" default:"John Doe"`
	Age      int     `json:"age,omitempty" jsonschema:"User age" default:"30"`
	Score    float64 `json:"score,omitempty" jsonschema:"User score" default:"95.5"`
	Status   string  `json:"status,omitempty" jsonschema:"User status" enum:"active,inactive,pending" default:"active"`
	Verified bool    `json:"verified,omitempty" jsonschema:"Verification status" default:"true"`
}

var elicitationDefaults = mcpcore.Tool[None, Message]{
	Name:        "test_elicitation_sep1034_defaults",
	Description: "Asks the user for a form whose fields have defaults (SEP-1034).",
	Errors:      []mcpcore.Failure{consentDeclined},
	Handler: func(ctx *mcpcore.Context, _ None) (Message, error) {
		p, err := mcpcore.Elicit[Profile](ctx, "Test defaults for primitives", mcpcore.OnDecline(consentDeclined, ctx.RecoveryFor(consentDeclined)))
		if err != nil {
			return Message{}, err
		}
		return Message{fmt.Sprintf("Elicitation result: %+v", p)}, nil
	},
	Format: text,
}

// Choices asks for every kind of enum (SEP-1330).
type Choices struct {
	UntitledSingle string   `json:"untitledSingle,omitempty" enum:"option1,option2,option3"`
	TitledSingle   string   `json:"titledSingle,omitempty" enum:"value1,value2,value3" enumTitles:"First Option,Second Option,Third Option"`
	LegacyEnum     string   `json:"legacyEnum,omitempty" enum:"opt1,opt2,opt3" enumNames:"Option One,Option Two,Option Three"`
	UntitledMulti  []string `json:"untitledMulti,omitempty" enum:"option1,option2,option3"`
	TitledMulti    []string `json:"titledMulti,omitempty" enum:"value1,value2,value3" enumTitles:"First Option,Second Option,Third Option"`
}

var elicitationEnums = mcpcore.Tool[None, Message]{
	Name:        "test_elicitation_sep1330_enums",
	Description: "Asks the user to choose from enums of every kind (SEP-1330).",
	Errors:      []mcpcore.Failure{consentDeclined},
	Handler: func(ctx *mcpcore.Context, _ None) (Message, error) {
		c, err := mcpcore.Elicit[Choices](ctx, "Test enum schemas", mcpcore.OnDecline(consentDeclined, ctx.RecoveryFor(consentDeclined)))
		if err != nil {
			return Message{}, err
		}
		return Message{fmt.Sprintf("Elicitation result: %+v", c)}, nil
	},
	Format: text,
}
