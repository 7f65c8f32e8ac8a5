// Command conformance is an mcpcore server that exposes everything the
// official MCP conformance suite (@modelcontextprotocol/conformance) checks:
// content of every kind, logging, progress, sampling, elicitation, input
// over several rounds, resources with a template and a subscription,
// prompts and completion, tool calls that run as tasks, and the hooks that
// change the tool and prompt lists. It is built only
// on mcpcore's public API; the interop tests run the suite against it.
//
// It serves stdio by default; MCP_TRANSPORT_TYPE=http serves Streamable HTTP
// (MCP_SESSION_MODE=stateless for the stateless protocol).
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/app"
	"github.com/seed417024ea/mcpcore/redis"
)

var info = mcpcore.Info{
	Name:    "mcp-conformance-test-server",
	Version: "1.0.0",
	Title:   "mcpcore conformance server",
}

func definitions() []mcpcore.Definition {
	return []mcpcore.Definition{
		simpleText, imageContent, audioContent, embeddedResource, multipleContent,
		toolWithLogging, toolWithProgress, errorHandling, sampling,
		elicitation, elicitationDefaults, elicitationEnums,
		jsonSchema202012, xMCPHeader, missingCapability, streamingElicitation, loggingTool,
		inputElicitation, inputSampling, inputRoots, inputRequestState, inputMultiple,
		inputMultiRound, inputTamperedState, inputCapabilities,
		staticText, staticBinary, templateResource, watchedResource,
		simplePrompt, promptWithArguments, promptWithEmbeddedResource, promptWithImage, inputPrompt,
		greet, slowCompute, failingJob, protocolErrorJob, confirmDelete, multiInput, toolWithTask,
		triggerToolChange, triggerPromptChange, changingToolDef, changingPromptDef,
	}
}

// main does what app.Main does, with the server in hand: watch and the
// list change hooks need it.
func main() {
	cfg, err := app.ConfigFromEnv(nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	a, err := app.New(info, cfg, &app.Options{OpenRedis: redis.Open}, definitions()...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	served.Store(a.Server())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go watch(ctx, a.Server())
	if err := a.Run(ctx); err != nil {
		a.Server().Logger().Error("mcpcore: server stopped with an error", "error", err)
		os.Exit(1)
	}
}

// watch tells the subscribers of test://watched-resource that it changed,
// every few seconds, as the suite's reference server does.
func watch(ctx context.Context, srv *mcpcore.Server) {
	tick := time.NewTicker(3 * time.Second)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			if err := srv.NotifyResourceUpdated(ctx, watchedURI); err != nil {
				srv.Logger().Warn("notifying the watched resource failed", "error", err)
			}
		}
	}
}
