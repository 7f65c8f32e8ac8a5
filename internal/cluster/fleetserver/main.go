// Command fleetserver is the replica the cluster test (package cluster)
// runs three of behind haproxy: tools that say which replica answered,
// stream progress for a while, raise a change of a resource, count
// against a rate limit, and run as tasks (tasks.go), on mcpcore's public
// API only. MCPCORE_REPLICA
// names the replica.
package main

import (
	"fmt"
	"os"
	"time"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/app"
	"github.com/seed417024ea/mcpcore/redis"
)

type none struct{}

// Answer names the replica that answered.
type Answer struct {
	Replica string `json:"replica"`
}

type streamIn struct {
	Seconds int `json:"seconds,omitempty" jsonschema:"how long to stream progress, default 5" maximum:"60"`
}

var replica = os.Getenv("MCPCORE_REPLICA")

const watchedURI = "fleet://watched"

// grace is how long a SIGTERM waits for the calls and tasks in flight:
// short, so that the cluster test's rolling restart with a task longer
// than it takes seconds.
const grace = 3 * time.Second

var definitions = []mcpcore.Definition{
	mcpcore.Tool[none, Answer]{
		Name: "whoami", Description: "Says which replica answered.",
		Handler: func(*mcpcore.Context, none) (Answer, error) { return Answer{replica}, nil },
	},
	mcpcore.Tool[streamIn, Answer]{
		Name: "stream", Description: "Reports progress every 250 ms for a few seconds, naming the replica.",
		Handler: func(ctx *mcpcore.Context, in streamIn) (Answer, error) {
			if in.Seconds <= 0 {
				in.Seconds = 5
			}
			steps := in.Seconds * 4
			tick := time.NewTicker(250 * time.Millisecond)
			defer tick.Stop()
			for i := range steps {
				ctx.Progress(float64(i), float64(steps), "replica "+replica)
				select {
				case <-ctx.Done():
					return Answer{}, ctx.Err()
				case <-tick.C:
				}
			}
			return Answer{replica}, nil
		},
	},
	mcpcore.Tool[none, Answer]{
		Name: "touch", Description: "Tells the subscribers of fleet://watched, on every replica, that it changed.",
		Handler: func(ctx *mcpcore.Context, _ none) (Answer, error) {
			return Answer{replica}, ctx.NotifyResourceUpdated(watchedURI)
		},
	},
	mcpcore.Tool[none, Answer]{
		Name: "limited", Description: "Admits 10 calls a second from each caller, across the fleet.",
		RateLimit: mcpcore.RateLimit{Calls: 10, Per: time.Second},
		Handler:   func(*mcpcore.Context, none) (Answer, error) { return Answer{replica}, nil },
	},
	mcpcore.Resource[struct{}, string]{
		Name: "watched", Description: "Changes when touch is called.", URITemplate: watchedURI, MIMEType: "text/plain",
		Subscribe: true,
		Handler:   func(*mcpcore.Context, struct{}) (string, error) { return fmt.Sprintf("as seen by %s", replica), nil },
	},
}

func main() {
	opts := &app.Options{OpenRedis: redis.Open, Server: &mcpcore.ServerOptions{ShutdownTimeout: grace}}
	app.Main(mcpcore.Info{Name: "fleet", Version: "1.0.0"}, opts, append(definitions, taskTools...)...)
}
