package handlerbody

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

var noMatch = mcpcore.Failure{Reason: "no_match", Code: mcperr.CodeNotFound, When: "No item matched.", Recovery: "Try the search tool to find valid IDs first."}

type in struct{ ID string }
type out struct{}

func lookup(id string) (string, error) { return id, nil }

var plain = mcpcore.Tool[in, out]{
	Name:   "plain",
	Errors: []mcpcore.Failure{noMatch},
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		switch i.ID {
		case "a":
			return out{}, errors.New("no such item") // want `prefer-mcp-error-in-handler: tool plain returns errors.New`
		case "b":
			return out{}, fmt.Errorf("no item %s", i.ID) // want `prefer-mcp-error-in-handler: tool plain returns fmt.Errorf`
		case "c":
			return out{}, mcperr.New(mcperr.CodeNotFound, "no item") // want `prefer-error-factory: mcperr.New\(mcperr.CodeNotFound, …\) has a factory; use mcperr.NotFound\(…\)`
		case "d":
			// Codes without a factory are fine with New.
			return out{}, mcperr.New(mcperr.CodeMethodNotFound, "no method")
		case "e":
			return out{}, ctx.Fail(noMatch, "No item "+i.ID, ctx.RecoveryFor(noMatch))
		}
		// A nested func literal is not the handler's body.
		_ = func() error { return errors.New("not the handler's") }
		return out{}, nil
	},
}

// A named handler is read too.
func rethrow(ctx *mcpcore.Context, i in) (out, error) {
	v, err := lookup(i.ID)
	if err != nil {
		return out{}, mcperr.NotFound("lookup failed") // want `preserve-cause-on-rethrow: the error returned when err != nil drops it`
	}
	if err != nil {
		return out{}, mcperr.NotFound("lookup failed", mcperr.WithCause(err))
	}
	if err != nil {
		return out{}, fmt.Errorf("lookup %s: %w", v, err)
	}
	if err != nil {
		return out{}, ctx.Fail(noMatch, "No item", mcperr.WithCause(err), ctx.RecoveryFor(noMatch))
	}
	if err != nil {
		return out{}, ctx.Fail(noMatch, "No item", ctx.RecoveryFor(noMatch)) // want `preserve-cause-on-rethrow`
	}
	if err != nil {
		// Within the error branch, a nested condition does not make err
		// nil: the cause is still dropped.
		if errors.Is(err, errStale) {
			return out{}, mcperr.ValidationError("stale item " + v) // want `preserve-cause-on-rethrow: the error returned when err != nil drops it`
		}
		return out{}, err
	}
	// A comparison with a sentinel is no check for an error.
	if err != errStale {
		return out{}, fmt.Errorf("lookup: %w", err)
	}
	return out{}, nil
}

var errStale = errors.New("stale")

var named = mcpcore.Tool[in, out]{Name: "named", Errors: []mcpcore.Failure{noMatch}, Handler: rethrow}

func stringify(ctx *mcpcore.Context, i in) (string, error) {
	resp, err := http.Get("https://example.com/" + i.ID)
	if err != nil {
		return "", mcperr.ServiceUnavailable("upstream: "+err.Error(), mcperr.WithCause(err)) // want `no-stringify-upstream-error: the message is built from err.Error\(\)`
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		return "", mcperr.ServiceUnavailable("upstream said " + string(body)) // want `no-stringify-upstream-error: the message is built from string\(body\)`
	}
	if len(body) == 0 {
		b, _ := json.Marshal(resp.Header)
		return "", mcperr.ServiceUnavailable("upstream headers: " + string(b)) // want `no-stringify-upstream-error: the message is built from string\(b\)`
	}
	if resp.ContentLength > 5 {
		return "", mcperr.ServiceUnavailable(fmt.Sprint(json.Marshal(resp.Header))) // want `no-stringify-upstream-error: the message is built from json.Marshal`
	}
	if resp.ContentLength > 10 {
		return "", mcperr.ServiceUnavailable(fmt.Sprintf("upstream failed: %v", err)) // want `no-stringify-upstream-error: the message is built from %v of err`
	}
	if resp.ContentLength > 20 {
		// The type of an error says nothing an upstream said.
		return "", fmt.Errorf("unexpected reader %T: %w", err, err)
	}
	return "", mcperr.ServiceUnavailable("The upstream service is down.", mcperr.WithCause(err))
}

var item = mcpcore.Resource[in, string]{Name: "item", URITemplate: "test://items/{id}", Handler: stringify}

// A suppressed finding, with its reason.
var legacy = mcpcore.Tool[in, out]{
	Name: "legacy",
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		return out{}, errors.New("legacy") //mcplint:ignore prefer-mcp-error-in-handler the legacy client parses this text
	},
}
