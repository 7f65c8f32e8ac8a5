// Package vault holds the tools of a second ported server, whose service
// (package notes) keeps its request closures in variables and stamps its
// reasons through a helper.
package vault

import (
	"strings"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"

	"vault/notes"
)

var client = notes.New()

var (
	pathTraversal = mcpcore.Failure{Reason: "path_traversal", Code: mcperr.CodeForbidden, When: "The path leaves the vault.", Recovery: "Give a path inside the vault, without '..'."}
	vaultDown     = mcpcore.Failure{Reason: "vault_down", Code: mcperr.CodeServiceUnavailable, When: "The vault does not answer.", Recovery: "Check that the vault is running, then retry."}
	badKey        = mcpcore.Failure{Reason: "bad_key", Code: mcperr.CodeUnauthorized, When: "The API key is rejected.", Recovery: "Set a valid API key in the server's settings."}
	noteMissing   = mcpcore.Failure{Reason: "note_missing", Code: mcperr.CodeNotFound, When: "No note at the path.", Recovery: "List the folder to find the note's path."}
	pathIsDir     = mcpcore.Failure{Reason: "path_is_dir", Code: mcperr.CodeValidationError, When: "The path is a folder.", Recovery: "Give the path of a note, not of a folder."}
	noteChanged   = mcpcore.Failure{Reason: "note_changed", Code: mcperr.CodeConflict, When: "The note changed meanwhile.", Recovery: "Read the note again, then append."}
	badQuery      = mcpcore.Failure{Reason: "bad_query", Code: mcperr.CodeValidationError, When: "The query does not parse.", Recovery: "Write the query as plain words."}
	pathForbidden = mcpcore.Failure{Reason: "path_forbidden", Code: mcperr.CodeForbidden, When: "The vault refuses the path.", Recovery: "Ask the vault's owner for access."}
	noFolder      = mcpcore.Failure{Reason: "note_missing", Code: mcperr.CodeNotFound, When: "No folder at the path.", Recovery: "List the vault's root to find the folder."}
	// stale is declared and raised by nothing: planted.
	stale = mcpcore.Failure{Reason: "stale_cache", Code: mcperr.CodeConflict, When: "The cache is stale.", Recovery: "Call the tool again to refresh the cache."}
)

type in struct{ Path, Text string }
type out struct{ V string }

var readTool = mcpcore.Tool[in, out]{
	Name:   "read_note",
	Errors: []mcpcore.Failure{pathTraversal, vaultDown, badKey, noteMissing, pathIsDir, stale}, // want `error-contract-unthrown: tool read_note declares reason "stale_cache"`
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		if strings.HasSuffix(i.Path, "/") {
			// A baseline code the contract declares: the entry's reason
			// and hint are lost without ctx.Fail.
			return out{}, mcperr.ValidationError(i.Path + " is a folder") // want `error-contract-prefer-fail: tool read_note builds a ValidationError error that its contract declares \("path_is_dir"\) without ctx.Fail`
		}
		v, err := client.Read(ctx, i.Path)
		return out{V: v}, err
	},
}

var appendTool = mcpcore.Tool[in, out]{
	Name:   "append_note",
	Errors: []mcpcore.Failure{vaultDown, noteChanged},
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		return out{}, client.Append(ctx, i.Path, i.Text)
	},
}

var searchTool = mcpcore.Tool[in, out]{
	Name:   "search",
	Errors: []mcpcore.Failure{vaultDown, badKey, badQuery},
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		v, err := client.Search(ctx, i.Text)
		return out{V: v}, err
	},
}

var deleteTool = mcpcore.Tool[in, out]{
	Name:   "delete_note",
	Errors: []mcpcore.Failure{vaultDown, pathForbidden},
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		return out{}, client.Delete(ctx, i.Path) // want `error-contract-conformance: tool delete_note can return Unauthorized through notes.Client.Delete, which its contract does not declare` `error-contract-reason-undeclared: notes.Client.Delete stamps reason "bad_key"`
	},
}

var listTool = mcpcore.Tool[in, out]{
	Name:   "list_folder",
	Errors: []mcpcore.Failure{noFolder}, // want `error-contract-unthrown: tool list_folder declares reason "note_missing"`
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		v, err := client.List(ctx, i.Path) // want `error-contract-reason-undeclared: notes.fail stamps reason "note_mising"`
		if len(v) > 0 {
			return out{V: v[0]}, err
		}
		return out{}, err
	},
}

// A hook from a map may raise anything: unthrown is skipped, and an info
// note says why.
var hookTool = mcpcore.Tool[in, out]{
	Name:   "run_hook",
	Errors: []mcpcore.Failure{stale},
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		return out{}, client.Hook(ctx, i.Text) // want `error-contract-unanalyzable: notes.Client.Hook calls the function value c.hooks\[name\], which mcplint cannot follow`
	},
}

// The service builds these through upstreamErr(code, reason): the codes
// are its callers' constants.
var moveTool = mcpcore.Tool[in, out]{
	Name:   "move_note",
	Errors: []mcpcore.Failure{vaultDown, noteMissing, noteChanged},
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		return out{}, client.Move(ctx, i.Path, i.Text)
	},
}

var tagsTool = mcpcore.Tool[in, out]{
	Name:   "list_tags",
	Errors: []mcpcore.Failure{vaultDown},
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		v, err := client.Tags(ctx, i.Path) // want `error-contract-conformance: tool list_tags can return RateLimited through notes.Client.Tags \(raised in notes.upstreamErr\), which its contract does not declare` `error-contract-reason-undeclared: notes.upstreamErr stamps reason "rate_limited"`
		if len(v) > 0 {
			return out{V: v[0]}, err
		}
		return out{}, err
	},
}

var lockTool = mcpcore.Tool[in, out]{
	Name:   "lock_note",
	Errors: []mcpcore.Failure{noteChanged},
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		if i.Path == "" {
			return out{}, notes.Upstream(mcperr.CodeForbidden, "path_forbidden") // want `error-contract-conformance: tool lock_note can return Forbidden through notes.Upstream` `error-contract-reason-undeclared: notes.upstreamErr stamps reason "path_forbidden"`
		}
		return out{}, notes.Upstream(mcperr.CodeConflict, "note_changed")
	},
}
