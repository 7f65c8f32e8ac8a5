package vault

import (
	"strings"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"

	"vault/sync"
)

var remote = &sync.Client{}

var noWriteKey = mcpcore.Failure{Reason: "no_write_key", Code: mcperr.CodeUnauthorized, When: "No write key is set.", Recovery: "Set a write key in the server's settings."}

// The remote's tools: only a push can get Unauthorized, whether the push
// is told by a slice element or by a field.
var cloneTool = mcpcore.Tool[in, out]{
	Name:   "clone_vault",
	Errors: []mcpcore.Failure{pathTraversal},
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		if strings.Contains(i.Path, "..") {
			return out{}, ctx.Fail(pathTraversal, "path refused", ctx.RecoveryFor(pathTraversal))
		}
		if err := remote.Clone(ctx, i.Path); err != nil {
			return out{}, err
		}
		return out{}, remote.Pull(ctx, i.Path)
	},
}

var fetchTool = mcpcore.Tool[in, out]{
	Name:   "fetch_vault",
	Errors: []mcpcore.Failure{pathTraversal},
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		if strings.Contains(i.Path, "..") {
			return out{}, ctx.Fail(pathTraversal, "path refused", ctx.RecoveryFor(pathTraversal))
		}
		if err := remote.Fetch(ctx, i.Path); err != nil {
			return out{}, err
		}
		if err := remote.Git(ctx, "status"); err != nil {
			return out{}, err
		}
		return out{}, remote.Do(ctx, &sync.Op{Verb: "fetch"})
	},
}

var pushTool = mcpcore.Tool[in, out]{
	Name:   "push_vault",
	Errors: []mcpcore.Failure{pathTraversal},
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		if strings.Contains(i.Path, "..") {
			return out{}, ctx.Fail(pathTraversal, "path refused", ctx.RecoveryFor(pathTraversal))
		}
		if err := remote.Push(ctx, i.Path); err != nil { // want `error-contract-conformance: tool push_vault can return Unauthorized through sync.Client.Push \(raised in sync.Client.git\), which`
			return out{}, err
		}
		return out{}, remote.Publish(ctx, i.Path) // want `error-contract-conformance: tool push_vault can return Unauthorized through sync.Client.Publish \(raised in sync.Client.do\), which`
	},
}

var writeTool = mcpcore.Tool[in, out]{
	Name:   "write_vault",
	Errors: []mcpcore.Failure{pathTraversal, noWriteKey},
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		if strings.Contains(i.Path, "..") {
			return out{}, ctx.Fail(pathTraversal, "path refused", ctx.RecoveryFor(pathTraversal))
		}
		if err := remote.Git(ctx, "push", i.Path); err != nil {
			return out{}, err
		}
		return out{}, remote.Do(ctx, &sync.Op{Verb: "push"})
	},
}
