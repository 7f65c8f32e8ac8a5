package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// The fixtures of the suite's tasks-* scenarios (the extension
// io.modelcontextprotocol/tasks): a tool that never runs as a task, one
// that may, two that always do and end in a tool error or a protocol error,
// two that ask inside their task, and one that asks before it.

// GreetInput is greet's input.
type GreetInput struct {
	Name string `json:"name" jsonschema:"Who to greet."`
}

var greet = mcpcore.Tool[GreetInput, Message]{
	Name:        "greet",
	Description: "Greets someone, at once (never a task).",
	Handler: func(_ *mcpcore.Context, in GreetInput) (Message, error) {
		return Message{"Hello, " + in.Name + "!"}, nil
	},
	Format: text,
}

// ComputeInput is slow_compute's input.
type ComputeInput struct {
	Seconds float64 `json:"seconds" minimum:"0" maximum:"3600" jsonschema:"How long the computation takes."`
	Label   string  `json:"label,omitempty" jsonschema:"A label, echoed in the result."`
}

var slowCompute = mcpcore.Tool[ComputeInput, Message]{
	Name:        "slow_compute",
	Description: "Computes for the given number of seconds; a task when it takes longer than a moment and the client allows it.",
	Task:        mcpcore.TaskSupport{Mode: mcpcore.TaskOptional},
	Handler: func(ctx *mcpcore.Context, in ComputeInput) (Message, error) {
		select {
		case <-time.After(time.Duration(in.Seconds * float64(time.Second))):
		case <-ctx.Done():
			return Message{}, ctx.Err()
		}
		return Message{"computed " + in.Label}, nil
	},
	Format: text,
}

var jobFailed = mcpcore.Failure{
	Reason:   "job_failed",
	Code:     mcperr.CodeInternalError,
	When:     "The job fails, as this fixture always does.",
	Recovery: "Nothing to do: the fixture tests how a failed job is reported.",
}

var failingJob = mcpcore.Tool[None, Message]{
	Name:        "failing_job",
	Description: "Runs only as a task, and fails after about a second with a tool error.",
	Errors:      []mcpcore.Failure{jobFailed},
	Task:        mcpcore.TaskSupport{Mode: mcpcore.TaskRequired},
	Handler: func(ctx *mcpcore.Context, _ None) (Message, error) {
		select {
		case <-time.After(time.Second):
		case <-ctx.Done():
			return Message{}, ctx.Err()
		}
		return Message{}, ctx.Fail(jobFailed, "The job failed.", ctx.RecoveryFor(jobFailed))
	},
	Format: text,
}

var protocolErrorJob = mcpcore.Tool[None, Message]{
	Name:        "protocol_error_job",
	Description: "Runs only as a task, and fails with a protocol error: it needs the client's roots, which the suite does not declare.",
	Task:        mcpcore.TaskSupport{Mode: mcpcore.TaskRequired},
	Handler: func(ctx *mcpcore.Context, _ None) (Message, error) {
		if err := ctx.RequireClient(mcpcore.CapabilityRoots); err != nil {
			return Message{}, err
		}
		return Message{"the client has roots"}, nil
	},
	Format: text,
}

// DeleteInput is confirm_delete's input.
type DeleteInput struct {
	Filename string `json:"filename" jsonschema:"The file to delete."`
}

// DeleteConfirmation is the answer confirm_delete asks for.
type DeleteConfirmation struct {
	Confirm bool `json:"confirm"`
}

var confirmDelete = mcpcore.Tool[DeleteInput, Message]{
	Name:        "confirm_delete",
	Description: "Asks the user to confirm, inside its task, then pretends to delete the file.",
	Task:        mcpcore.TaskSupport{Mode: mcpcore.TaskOptional, After: mcpcore.TaskAtOnce},
	Handler: func(ctx *mcpcore.Context, in DeleteInput) (Message, error) {
		c, err := mcpcore.Elicit[DeleteConfirmation](ctx, fmt.Sprintf("Delete %s?", in.Filename), mcpcore.QuestionKey("confirm"))
		if err != nil {
			return Message{}, err
		}
		if !c.Confirm {
			return Message{"kept " + in.Filename}, nil
		}
		return Message{"deleted " + in.Filename}, nil
	},
	Format: text,
}

// NamedConfirmation is the answer to each of multi_input's questions.
type NamedConfirmation struct {
	Name    string `json:"name"`
	Confirm bool   `json:"confirm"`
}

var multiInput = mcpcore.Tool[None, Message]{
	Name:        "multi_input",
	Description: "Asks two questions at once, inside its task.",
	Task:        mcpcore.TaskSupport{Mode: mcpcore.TaskOptional, After: mcpcore.TaskAtOnce},
	Handler: func(ctx *mcpcore.Context, _ None) (Message, error) {
		first, err1 := mcpcore.Elicit[NamedConfirmation](ctx, "First input?", mcpcore.QuestionKey("first"))
		second, err2 := mcpcore.Elicit[NamedConfirmation](ctx, "Second input?", mcpcore.QuestionKey("second"))
		if err := errors.Join(err1, err2); err != nil {
			return Message{}, err
		}
		return Message{fmt.Sprintf("got %s and %s", first.Name, second.Name)}, nil
	},
	Format: text,
}

var toolWithTask = mcpcore.Tool[None, Message]{
	Name:        "test_tool_with_task",
	Description: "Runs only as a task; asks the user's name first, within the request, then greets them from the task.",
	Errors:      []mcpcore.Failure{consentDeclined},
	Task:        mcpcore.TaskSupport{Mode: mcpcore.TaskRequired},
	Handler: func(ctx *mcpcore.Context, _ None) (Message, error) {
		n, err := mcpcore.Elicit[Name](ctx, "What is your name?", mcpcore.QuestionKey("user_name"),
			mcpcore.OnDecline(consentDeclined, ctx.RecoveryFor(consentDeclined)))
		if err != nil {
			return Message{}, err
		}
		return Message{"Hello, " + n.Name + "!"}, nil
	},
	Format: text,
}
