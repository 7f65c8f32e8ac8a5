package main

// The task tools: each runs only as a task from its first moment, and
// writes to its standard error, for the cluster test to read in the
// replica's log, when it starts, when its context ends (with the cause)
// and when it resumes with answers, each line with the task's id, the
// replica and the time in nanoseconds since the epoch (the test and the
// replicas share the machine's clock).

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/seed417024ea/mcpcore"
)

// event writes one line of what a task's handler saw.
func event(ctx *mcpcore.Context, what string) {
	fmt.Fprintf(os.Stderr, "fleet: task %s %s on %s at %d\n", ctx.TaskID(), what, replica, time.Now().UnixNano())
}

// ended writes that the handler's context ended, and why.
func ended(ctx *mcpcore.Context) error {
	event(ctx, fmt.Sprintf("context ended (%v)", context.Cause(ctx)))
	return ctx.Err()
}

type sleepIn struct {
	Seconds float64 `json:"seconds" jsonschema:"how long to sleep" maximum:"120"`
}

// sleepFor is the handler of sleep and short_lived: the replica's name
// after in.Seconds, or the context's end.
func sleepFor(ctx *mcpcore.Context, in sleepIn) (Answer, error) {
	event(ctx, "started")
	select {
	case <-ctx.Done():
		return Answer{}, ended(ctx)
	case <-time.After(time.Duration(in.Seconds * float64(time.Second))):
	}
	event(ctx, "returned")
	return Answer{replica}, nil
}

// shortTTL is short_lived's TTL: a task read after it has passed is
// unknown once the retention (a minute) has passed too.
const shortTTL = 4 * time.Second

// Confirmation is the answer ask asks for.
type Confirmation struct {
	OK bool `json:"ok"`
}

var taskTools = []mcpcore.Definition{
	mcpcore.Tool[none, Answer]{
		Name: "hold", Description: "Runs as a task until it is cancelled.",
		Task: mcpcore.TaskSupport{Mode: mcpcore.TaskRequired, After: mcpcore.TaskAtOnce},
		Handler: func(ctx *mcpcore.Context, _ none) (Answer, error) {
			event(ctx, "started")
			<-ctx.Done()
			return Answer{}, ended(ctx)
		},
	},
	mcpcore.Tool[sleepIn, Answer]{
		Name: "sleep", Description: "Runs as a task for a number of seconds, then names the replica.",
		Task:    mcpcore.TaskSupport{Mode: mcpcore.TaskRequired, After: mcpcore.TaskAtOnce},
		Handler: sleepFor,
	},
	mcpcore.Tool[sleepIn, Answer]{
		Name: "optional_sleep", Description: "As sleep, but a task only when the client takes one and it runs past 250 ms.",
		Task:    mcpcore.TaskSupport{Mode: mcpcore.TaskOptional},
		Handler: sleepFor,
	},
	mcpcore.Tool[sleepIn, Answer]{
		Name: "short_lived", Description: "As sleep, with a TTL of 4 seconds.",
		Task:    mcpcore.TaskSupport{Mode: mcpcore.TaskRequired, After: mcpcore.TaskAtOnce, TTL: shortTTL},
		Handler: sleepFor,
	},
	mcpcore.Tool[none, Answer]{
		Name: "ask", Description: "Runs as a task that asks the client to confirm, then names the replica.",
		Task: mcpcore.TaskSupport{Mode: mcpcore.TaskRequired, After: mcpcore.TaskAtOnce},
		Handler: func(ctx *mcpcore.Context, _ none) (Answer, error) {
			c, err := mcpcore.Elicit[Confirmation](ctx, "Go on?", mcpcore.QuestionKey("ok"))
			if err != nil {
				event(ctx, "asked")
				return Answer{}, err
			}
			event(ctx, fmt.Sprintf("resumed (ok=%v)", c.OK))
			return Answer{replica}, nil
		},
	},
}
