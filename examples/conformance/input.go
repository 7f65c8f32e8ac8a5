package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/seed417024ea/mcpcore"
)

// The tools of the multi-round input scenarios (SEP-2322): under protocol
// 2026-07-28 each question travels in the call's result and the client
// calls again with the answers; under older versions the same handlers ask
// the client during the call.

// Name is the answer to "What is your name?".
type Name struct {
	Name string `json:"name"`
}

// Confirmation is the answer to "Please confirm".
type Confirmation struct {
	OK bool `json:"ok"`
}

// Color is the answer to "What is your favorite color?".
type Color struct {
	Color string `json:"color"`
}

// Context is the answer to "Please provide context for the prompt".
type Context struct {
	Context string `json:"context"`
}

var inputElicitation = mcpcore.Tool[None, Message]{
	Name:        "test_input_required_result_elicitation",
	Description: "Asks for the caller's name, then greets them.",
	Errors:      []mcpcore.Failure{consentDeclined},
	Handler: func(ctx *mcpcore.Context, _ None) (Message, error) {
		n, err := mcpcore.Elicit[Name](ctx, "What is your name?", mcpcore.QuestionKey("user_name"), mcpcore.OnDecline(consentDeclined, ctx.RecoveryFor(consentDeclined)))
		if err != nil {
			return Message{}, err
		}
		return Message{fmt.Sprintf("Hello, %s!", n.Name)}, nil
	},
	Format: text,
}

var inputSampling = mcpcore.Tool[None, Message]{
	Name:        "test_input_required_result_sampling",
	Description: "Asks the client's model a question.",
	Handler: func(ctx *mcpcore.Context, _ None) (Message, error) {
		s, err := ctx.Sample(mcpcore.SamplingRequest{Prompt: "What is the capital of France?", MaxTokens: 100}, mcpcore.QuestionKey("capital_question"))
		if err != nil {
			return Message{}, err
		}
		return Message{"Sampling response: " + s.Text}, nil
	},
	Format: text,
}

var inputRoots = mcpcore.Tool[None, Message]{
	Name:        "test_input_required_result_list_roots",
	Description: "Lists the client's roots.",
	Handler: func(ctx *mcpcore.Context, _ None) (Message, error) {
		roots, err := ctx.Roots(mcpcore.QuestionKey("client_roots"))
		if err != nil {
			return Message{}, err
		}
		uris := make([]string, len(roots))
		for i, r := range roots {
			uris[i] = r.URI
		}
		return Message{fmt.Sprintf("Client exposed %d root(s): %s", len(roots), strings.Join(uris, ", "))}, nil
	},
	Format: text,
}

// confirmed asks for a confirmation carried across rounds by the request
// state, which the framework signs and verifies.
func confirmed(ctx *mcpcore.Context, done string) (Message, error) {
	ctx.SetRequestState("awaiting confirmation")
	if _, err := mcpcore.Elicit[Confirmation](ctx, "Please confirm", mcpcore.QuestionKey("confirm")); err != nil {
		return Message{}, err
	}
	if ctx.RequestState() != "awaiting confirmation" {
		// Under older protocol versions there is one round and no state.
		return Message{done + " (confirmed in one round)"}, nil
	}
	return Message{done}, nil
}

var inputRequestState = mcpcore.Tool[None, Message]{
	Name:        "test_input_required_result_request_state",
	Description: "Asks for a confirmation and checks the request state the client echoes.",
	Errors:      []mcpcore.Failure{consentDeclined},
	Handler: func(ctx *mcpcore.Context, _ None) (Message, error) {
		return confirmed(ctx, "state-ok: requestState received and confirmation accepted")
	},
	Format: text,
}

var inputTamperedState = mcpcore.Tool[None, Message]{
	Name:        "test_input_required_result_tampered_state",
	Description: "Asks for a confirmation; a request state the client altered is refused.",
	Errors:      []mcpcore.Failure{consentDeclined},
	Handler: func(ctx *mcpcore.Context, _ None) (Message, error) {
		return confirmed(ctx, "state-ok: requestState verified")
	},
	Format: text,
}

var inputMultiple = mcpcore.Tool[None, Message]{
	Name:        "test_input_required_result_multiple_inputs",
	Description: "Asks for a name, a greeting from the model and the roots, in one round.",
	Errors:      []mcpcore.Failure{consentDeclined},
	Handler: func(ctx *mcpcore.Context, _ None) (Message, error) {
		// Ask all three before returning, so that they travel together.
		n, errName := mcpcore.Elicit[Name](ctx, "What is your name?", mcpcore.QuestionKey("user_name"), mcpcore.OnDecline(consentDeclined, ctx.RecoveryFor(consentDeclined)))
		g, errGreeting := ctx.Sample(mcpcore.SamplingRequest{Prompt: "Generate a greeting", MaxTokens: 50}, mcpcore.QuestionKey("greeting"))
		roots, errRoots := ctx.Roots(mcpcore.QuestionKey("client_roots"))
		if err := errors.Join(errName, errGreeting, errRoots); err != nil {
			return Message{}, err
		}
		return Message{fmt.Sprintf("%s %s — %d root(s) visible", g.Text, n.Name, len(roots))}, nil
	},
	Format: text,
}

var inputMultiRound = mcpcore.Tool[None, Message]{
	Name:        "test_input_required_result_multi_round",
	Description: "Asks for a name, then a color, in two rounds.",
	Errors:      []mcpcore.Failure{consentDeclined},
	Handler: func(ctx *mcpcore.Context, _ None) (Message, error) {
		name, ok := strings.CutPrefix(ctx.RequestState(), "name=")
		if !ok {
			n, err := mcpcore.Elicit[Name](ctx, "Step 1: What is your name?", mcpcore.QuestionKey("step1"), mcpcore.OnDecline(consentDeclined, ctx.RecoveryFor(consentDeclined)))
			if err != nil {
				return Message{}, err
			}
			name = n.Name
			ctx.SetRequestState("name=" + name)
		}
		c, err := mcpcore.Elicit[Color](ctx, "Step 2: What is your favorite color?", mcpcore.QuestionKey("step2"), mcpcore.OnDecline(consentDeclined, ctx.RecoveryFor(consentDeclined)))
		if err != nil {
			return Message{}, err
		}
		return Message{fmt.Sprintf("Multi-round complete: %s likes %s", name, c.Color)}, nil
	},
	Format: text,
}

var inputCapabilities = mcpcore.Tool[None, Message]{
	Name:        "test_input_required_result_capabilities",
	Description: "Asks only for the kinds of input the client declared it can give.",
	Errors:      []mcpcore.Failure{consentDeclined},
	Handler: func(ctx *mcpcore.Context, _ None) (Message, error) {
		var errName, errGreeting, errRoots error
		asked := 0
		if ctx.ClientSupports(mcpcore.CapabilityElicitation) {
			_, errName = mcpcore.Elicit[Name](ctx, "What is your name?", mcpcore.QuestionKey("user_name"), mcpcore.OnDecline(consentDeclined, ctx.RecoveryFor(consentDeclined)))
			asked++
		}
		if ctx.ClientSupports(mcpcore.CapabilitySampling) {
			_, errGreeting = ctx.Sample(mcpcore.SamplingRequest{Prompt: "Generate a short greeting", MaxTokens: 50}, mcpcore.QuestionKey("greeting"))
			asked++
		}
		if ctx.ClientSupports(mcpcore.CapabilityRoots) {
			_, errRoots = ctx.Roots(mcpcore.QuestionKey("client_roots"))
			asked++
		}
		if err := errors.Join(errName, errGreeting, errRoots); err != nil {
			return Message{}, err
		}
		if asked == 0 {
			return Message{"No declared client capability supports an input request"}, nil
		}
		return Message{"Capability-aware input requests fulfilled"}, nil
	},
	Format: text,
}
