// Package flow holds handlers whose errors reach their returns through
// ordinary control flow, closures and ctx.FailFrom.
package flow

import (
	"context"
	"errors"
	"log"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"

	"flowsvc"
)

var (
	svc   = &flowsvc.Client{}
	queue = &flowsvc.Queue{}
)

var missing = mcpcore.Failure{Reason: "missing", Code: mcperr.CodeNotFound, When: "No such article.", Recovery: "Search for the article with the search tool first."}

var busy = mcpcore.Failure{Reason: "busy", Code: mcperr.CodeRateLimited, When: "The upstream throttles.", Recovery: "Wait a minute, then call the tool again."}

var denied = mcpcore.Failure{Reason: "denied", Code: mcperr.CodeForbidden, When: "The article is restricted.", Recovery: "Ask an administrator for access to the article."}

var alsoDenied = mcpcore.Failure{Reason: "also_denied", Code: mcperr.CodeForbidden, When: "The journal is restricted.", Recovery: "Ask an administrator for access to the journal."}

type in struct {
	ID   string
	Full bool
}
type out struct{ V string }

// err assigned in both branches of an if reaches the return with what
// either call gives.
var branches = mcpcore.Tool[in, out]{
	Name:   "branches",
	Errors: []mcpcore.Failure{missing},
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		var doc string
		var err error
		if i.Full {
			doc, err = svc.Article(ctx, i.ID) // want `error-contract-conformance: tool branches can return Forbidden through flowsvc.Client.Article`
		} else {
			doc, err = svc.Summary(ctx, i.ID) // want `error-contract-conformance: tool branches can return Unauthorized through flowsvc.Client.Summary`
		}
		if err != nil {
			return out{}, err
		}
		return out{V: doc}, ctx.Fail(missing, "No article", ctx.RecoveryFor(missing))
	},
}

// A handler that looks for the sentinel first still returns err after.
var sentinel = mcpcore.Tool[in, out]{
	Name:   "sentinel",
	Errors: []mcpcore.Failure{missing},
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		doc, err := svc.Article(ctx, i.ID) // want `error-contract-conformance: tool sentinel can return Forbidden through flowsvc.Client.Article`
		if errors.Is(err, flowsvc.ErrNoRow) {
			return out{}, ctx.Fail(missing, "No article "+i.ID, ctx.RecoveryFor(missing))
		}
		if err != nil {
			return out{}, err
		}
		return out{V: doc}, nil
	},
}

// A raise in the closure handed to the service's queue reaches the return.
var queued = mcpcore.Tool[in, out]{
	Name:   "queued",
	Errors: []mcpcore.Failure{busy},
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		var doc string
		err := queue.Do(ctx, func() error {
			if i.ID == "" {
				return mcperr.Conflict("no id")
			}
			var err error
			doc, err = svc.Article(ctx, i.ID)
			return err
		})
		if err != nil {
			return out{}, ctx.FailFrom(err, busy) // want `error-contract-conformance: tool queued can return Conflict, .*; this ctx.FailFrom passes it on unchanged \(it comes in at flow.go:79` `error-contract-conformance: tool queued can return Forbidden through flowsvc.Client.Article, .*flow.go:82`
		}
		return out{V: doc}, ctx.FailFrom(svc.Busy(ctx), busy)
	},
}

// err reused: the first call's error is mapped and returned; the second
// call's is returned as it is. Only what is in err at each return counts.
var reused = mcpcore.Tool[in, out]{
	Name:   "reused",
	Errors: []mcpcore.Failure{denied, missing},
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		doc, err := svc.Article(ctx, i.ID)
		if err != nil {
			return out{}, ctx.FailFrom(err, denied)
		}
		err = svc.Missing(ctx)
		if err != nil {
			return out{}, ctx.FailFrom(err, missing)
		}
		return out{V: doc}, nil
	},
}

// FailFrom passes on what matches no entry given.
var passThrough = mcpcore.Tool[in, out]{
	Name:   "pass_through",
	Errors: []mcpcore.Failure{busy, denied}, // want `error-contract-unthrown: tool pass_through declares reason "denied"`
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		_, err := svc.Summary(ctx, i.ID)
		if err != nil {
			return out{}, ctx.FailFrom(err, busy) // want `error-contract-conformance: tool pass_through can return Unauthorized through flowsvc.Client.Summary, .*this ctx.FailFrom passes it on unchanged`
		}
		_, err = svc.Article(ctx, i.ID)
		if err != nil {
			return out{}, ctx.FailFrom(err, busy) // want `error-contract-failfrom-unmapped: Forbidden through flowsvc.Client.Article reaches ctx.FailFrom, which is given no entry with that code: .*\("denied"\)`
		}
		return out{}, ctx.FailFrom(svc.Busy(ctx), busy, denied)
	},
}

// Two entries with one code map neither, given or searched.
var twice = mcpcore.Tool[in, out]{
	Name:   "twice",
	Errors: []mcpcore.Failure{denied, alsoDenied}, // want `error-contract-unthrown: tool twice declares reason "denied"` `error-contract-unthrown: tool twice declares reason "also_denied"`
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		_, err := svc.Article(ctx, i.ID)
		if i.Full {
			return out{}, ctx.FailFrom(err) // want `error-contract-failfrom-unmapped: Forbidden through flowsvc.Client.Article reaches ctx.FailFrom, which without entries searches the whole contract; the contract declares that code 2 times \("denied", "also_denied"\)`
		}
		return out{}, ctx.FailFrom(err, denied, alsoDenied) // want `error-contract-failfrom-unmapped: Forbidden through flowsvc.Client.Article reaches ctx.FailFrom, which is given 2 entries with that code`
	},
}

// An entry given to FailFrom whose code nothing below gives is not raised.
var needless = mcpcore.Tool[in, out]{
	Name:   "needless",
	Errors: []mcpcore.Failure{busy, missing}, // want `error-contract-unthrown: tool needless declares reason "missing"`
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		return out{}, ctx.FailFrom(svc.Busy(ctx), busy, missing)
	},
}

// A Retry closure: what it returns reaches the handler's return.
var retried = mcpcore.Tool[in, out]{
	Name:   "retried",
	Errors: []mcpcore.Failure{busy},
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		v, err := mcperr.Retry(ctx, mcperr.RetryOptions{}, func(c context.Context) (string, error) {
			if i.Full {
				return "", svc.Busy(c)
			}
			return svc.Summary(c, i.ID)
		})
		if err != nil {
			return out{}, ctx.FailFrom(err, busy) // want `error-contract-conformance: tool retried can return Unauthorized through flowsvc.Client.Summary`
		}
		return out{V: v}, nil
	},
}

// Only logged, never returned: no finding.
var logged = mcpcore.Tool[in, out]{
	Name:   "logged",
	Errors: []mcpcore.Failure{busy},
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		_, err := svc.Summary(ctx, i.ID)
		if err != nil {
			log.Print("summary failed: ", err)
		}
		return out{}, ctx.FailFrom(svc.Busy(ctx), busy)
	},
}

// A service raises Unauthorized only for op == "push": the clone tool,
// whose calls pass "clone", cannot get it; the push tool can; a tool that
// passes what it is given gets the finding with its condition.
var cloneTool = mcpcore.Tool[in, out]{
	Name:   "clone",
	Errors: []mcpcore.Failure{busy},
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		if err := svc.Clone(ctx, i.ID); err != nil {
			return out{}, err
		}
		if err := svc.Run(ctx, "fetch", i.ID); err != nil {
			return out{}, err
		}
		return out{}, ctx.FailFrom(svc.Busy(ctx), busy)
	},
}

var pushTool = mcpcore.Tool[in, out]{
	Name:   "push",
	Errors: []mcpcore.Failure{busy},
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		if err := svc.Push(ctx, i.ID); err != nil { // want `error-contract-conformance: tool push can return Unauthorized through flowsvc.Client.Push \(raised in flowsvc.Client.Run\), which`
			return out{}, err
		}
		return out{}, ctx.FailFrom(svc.Busy(ctx), busy)
	},
}

var runTool = mcpcore.Tool[in, out]{
	Name:   "run",
	Errors: []mcpcore.Failure{busy},
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		if err := svc.Run(ctx, i.ID); err != nil { // want `error-contract-conformance: tool run can return Unauthorized through flowsvc.Client.Run if op == "push", which`
			return out{}, err
		}
		return out{}, ctx.FailFrom(svc.Busy(ctx), busy)
	},
}

var quota = mcpcore.Failure{Reason: "quota", Code: mcperr.CodeRateLimited, When: "The upstream throttles this server.", Recovery: "Wait for the time in retryAfter, then call again."}

// Two entries with one code: the reason the service stamps chooses; with
// no reason, neither is chosen.
var quotaTool = mcpcore.Tool[in, out]{
	Name:   "quota",
	Errors: []mcpcore.Failure{busy, quota}, // want `error-contract-unthrown: tool quota declares reason "busy"`
	Handler: func(ctx *mcpcore.Context, i in) (out, error) {
		if i.Full {
			return out{}, ctx.FailFrom(svc.Quota(ctx), busy, quota)
		}
		return out{}, ctx.FailFrom(svc.Busy(ctx), busy, quota) // want `error-contract-failfrom-unmapped: RateLimited through flowsvc.Client.Busy reaches ctx.FailFrom, which is given 2 entries with that code`
	},
}
