package credential

import (
	"fmt"
	"log/slog"

	"credential/shared"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

const gitHubToken = "ghp_JvWiVv3jsB9qKdVHW37ZrPxZT6L7Wgxa9Gag"

// A contract entry: a constant expression, a literal, a constant of another
// package.
var expired = mcpcore.Failure{
	Reason:   "token_expired",
	Code:     mcperr.CodeUnauthorized,
	When:     "The session expired",
	Recovery: "Call login with " + gitHubToken + ", then call again.", // want `no-credential-literal: the Recovery of failure token_expired holds a credential-shaped value \(40 bytes, beginning "ghp_…"\): it would reach clients as written`
}

var dbDown = mcpcore.Failure{
	Reason:   "db_down",
	Code:     mcperr.CodeDatabaseError,
	When:     "postgres://admin:hunter2secret@db:5432/items refused the connection", // want `the When of failure db_down holds a credential-shaped value`
	Recovery: "Wait a minute, then call get_item again with the same ID.",
}

// A directive on the entry silences its fields.
//
//mcplint:ignore no-credential-literal the key is the provider's published test key
var testKey = mcpcore.Failure{
	Reason:   "test_key",
	Code:     mcperr.CodeForbidden,
	When:     "The sandbox refused the call",
	Recovery: "Call again with " + shared.StripeKey + " as the sandbox asks.",
}

type in struct{ ID, Note string }
type out struct{}

var getItem = mcpcore.Tool[in, out]{
	Name: "get_item",
	Errors: []mcpcore.Failure{expired, dbDown, testKey, shared.Busy, shared.Clean, {
		Reason:   "locked",
		Code:     mcperr.CodeConflict,
		When:     "The item is locked",
		Recovery: "Unlock it with the key AKIAM2YAQOPLBFGHLBI5, then call again.", // want `the Recovery of failure locked holds a credential-shaped value`
	}},
	Handler: func(ctx *mcpcore.Context, in in) (out, error) {
		switch in.ID {
		case "1":
			return out{}, ctx.Fail(expired, "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl was refused", ctx.RecoveryFor(expired)) // want `the message of ctx.Fail holds a credential-shaped value`
		case "2":
			return out{}, mcperr.NotFound("No item; the sandbox key is " + shared.StripeKey) // want `the message of mcperr.NotFound holds a credential-shaped value`
		case "3":
			return out{}, mcperr.New(mcperr.CodeUnknownError, "Use sk_live_NrIGkvMEsF5RgwXIfMK1wUDR next time") // want `the message of mcperr.New holds`
		case "4":
			return out{}, mcperr.Conflict("The item is locked", mcperr.WithRecovery("Unlock it with ghp_UFxUbvRFdbpufkvkKeE2xfskKeR6iIU0C0Fu first.")) // want `the hint of mcperr.WithRecovery holds`
		case "5":
			return out{}, mcperr.ServiceUnavailable("The database is down", mcperr.WithData(map[string]any{
				"dsn":        "postgres://admin:hunter2secret@db:5432/items", // want `data\["dsn"\] holds a credential-shaped value`
				"retryAfter": 5,
				"upstream": map[string]any{
					"auth": []string{"basic", "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"}, // want `an element of data\["upstream"\]\["auth"\] holds`
				},
				gitHubToken: true, // want `a key of data holds`
			}))
		case "6":
			if _, err := mcpcore.Elicit[out](ctx, "Paste the key AKIAZYCQ369CHV94GEYZ into the form"); err != nil { // want `the message of mcpcore.Elicit holds`
				return out{}, err
			}
		case "7":
			if _, err := ctx.Sample(mcpcore.SamplingRequest{
				SystemPrompt: "You may call the API with ghp_JvWiVv3jsB9qKdVHW37ZrPxZT6L7Wgxa9Gag.", // want `the SystemPrompt of a SamplingRequest holds`
				Prompt:       "Summarise item " + in.ID,
			}); err != nil {
				return out{}, err
			}
		case "8":
			ctx.Progress(1, 2, "Signing with -----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx4bGq\n-----END RSA PRIVATE KEY-----") // want `the message of ctx.Progress holds a credential-shaped value .*: a secret in the source leaks with the source and the binary`
			ctx.Logger().Info("Calling with sk_live_NrIGkvMEsF5RgwXIfMK1wUDR")                                                       // want `the message of a log record holds`
			log := mcpcore.Logger(ctx).With("item", in.ID)
			log.Warn("retrying", "key", "AKIAM2YAQOPLBFGHLBI5") // want `an attribute of a log record holds`
		case "9":
			// Parts known at run time: the source's words are judged.
			return out{}, mcperr.Unauthorized(fmt.Sprintf("Use %s for item %s", gitHubToken, in.ID)) // want `the message of mcperr.Unauthorized holds`
		case "10":
			return out{}, mcperr.DatabaseError("postgres://admin:hunter2secret@db:5432/" + in.ID + " refused") // want `the message of mcperr.DatabaseError holds`
		case "12":
			return out{}, mcperr.RateLimited(fmt.Sprintf("%d%% of the quota of %s is spent", 90, gitHubToken)) // want `the message of mcperr.RateLimited holds`
		case "11":
			//mcplint:ignore no-credential-literal the provider's documented test token
			return out{}, mcperr.Forbidden("Use " + gitHubToken)
		}
		return out{}, nil
	},
}

// A service's errors reach clients through the handlers that return them.
func fetch(id string) error {
	if id == "" {
		return mcperr.Unauthorized("The upstream refused Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl") // want `the message of mcperr.Unauthorized holds`
	}
	return nil
}

// Silence: ordinary sentences, and credentials that arrive at run time.
var quiet = mcpcore.Tool[in, out]{
	Name:   "quiet",
	Errors: []mcpcore.Failure{shared.Clean, {}},
	Handler: func(ctx *mcpcore.Context, in in) (out, error) {
		tok, msg := in.Note, in.ID
		switch in.ID {
		case "1":
			return out{}, ctx.Fail(shared.Clean, "No item 42; try search_items first.", ctx.RecoveryFor(shared.Clean))
		case "2":
			return out{}, ctx.Fail(shared.Clean, fmt.Sprintf("token %s", tok))
		case "3":
			return out{}, mcperr.Unauthorized("Authorization: Bearer " + tok + " was refused")
		case "4":
			return out{}, mcperr.Unauthorized(fmt.Sprintf("api_key=%s", tok))
		case "5":
			return out{}, mcperr.NotFound("No item "+in.ID+"; try search_items first.", mcperr.WithData(map[string]any{"itemId": in.ID, "retryAfter": 5, "hint": shared.Hint}))
		case "6":
			return out{}, mcperr.InternalError(msg, mcperr.WithRecovery(shared.Hint))
		case "7":
			ctx.Progress(1, 2, "Looking up item "+in.ID)
			ctx.Logger().Info("the key was refused", "item", in.ID)
			// A logger of the process, not the client's: not read here.
			slog.Default().Info("Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl")
		case "8":
			_, err := mcpcore.Elicit[out](ctx, "Which item's note should change?")
			return out{}, err
		}
		return out{}, nil
	},
}
