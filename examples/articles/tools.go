package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// echo: the simplest tool, with no contract.

type echoInput struct {
	Message string `json:"message" jsonschema:"the text to send back"`
}

type echoOutput struct {
	Message string `json:"message" jsonschema:"the text that was sent"`
}

var echoTool = mcpcore.Tool[echoInput, echoOutput]{
	Name:        "echo",
	Description: "Send back the message it is given.",
	Handler: func(_ *mcpcore.Context, in echoInput) (echoOutput, error) {
		return echoOutput(in), nil
	},
}

// fetch_articles: a contract of three failures, and one path for every way a
// handler can fail.

var (
	noMatch = mcpcore.Failure{
		Reason:   "no_match",
		Code:     mcperr.CodeNotFound,
		When:     "No requested PMID returned data",
		Recovery: "Try pubmed_search_articles to discover valid PMIDs first.",
	}
	queueFull = mcpcore.Failure{
		Reason:    "queue_full",
		Code:      mcperr.CodeRateLimited,
		When:      "Local request queue is at capacity",
		Recovery:  "Wait 30 seconds and retry, or reduce batch size.",
		Retryable: mcpcore.Retryable,
	}
	ncbiDown = mcpcore.Failure{
		Reason:    "ncbi_down",
		Code:      mcperr.CodeServiceUnavailable,
		When:      "NCBI E-utilities unreachable after retries",
		Recovery:  "NCBI is degraded; retry in a few minutes.",
		Retryable: mcpcore.Retryable,
	}
)

type fetchInput struct {
	PMIDs []string `json:"pmids" jsonschema:"PubMed IDs of the articles to fetch"`
}

type fetchOutput struct {
	Articles []string `json:"articles" jsonschema:"the fetched articles"`
}

var fetchArticles = mcpcore.Tool[fetchInput, fetchOutput]{
	Name:        "fetch_articles",
	Description: "Fetch articles by PMID.",
	Errors:      []mcpcore.Failure{noMatch, queueFull, ncbiDown},
	Handler:     fetch,
}

// fetch fails in a different way for each magic first PMID, so that clients
// can see every error path of the framework on the wire.
func fetch(ctx *mcpcore.Context, in fetchInput) (fetchOutput, error) {
	if len(in.PMIDs) == 0 {
		return fetchOutput{}, ctx.Fail(noMatch, fmt.Sprintf("None of %d PMIDs returned data", len(in.PMIDs)), ctx.RecoveryFor(noMatch))
	}
	switch in.PMIDs[0] {
	case "plain":
		// A plain Go error: classified by its message, sent without data.
		//lint:ignore ST1005 this message is the reference server's wire text.
		//mcplint:ignore prefer-mcp-error-in-handler the reference server shows how a plain Go error is classified
		return fetchOutput{}, errors.New("Item not found in upstream")
	case "data":
		// A factory with data of its own, no reason: sent as it is.
		//mcplint:ignore error-contract-prefer-fail the reference server shows a factory error with data next to ctx.Fail
		return fetchOutput{}, mcperr.NotFound("Item 7 not found", mcperr.WithData(map[string]any{"itemId": "7"}))
	case "panic":
		var article *struct{ title string }
		return fetchOutput{Articles: []string{article.title}}, nil
	case "override":
		return fetchOutput{}, ctx.Fail(noMatch, "No item 9", mcperr.WithRecovery("No item 9; try IDs 1-100 instead."))
	case "queue_full":
		return fetchOutput{}, ctx.Fail(queueFull, "Queue at capacity", ctx.RecoveryFor(queueFull))
	case "ncbi_down":
		// The message falls back to When, and no hint is sent.
		//mcplint:ignore error-contract-recovery-unforwarded the reference server shows a declared failure sent without a hint
		return fetchOutput{}, ctx.Fail(ncbiDown, "")
	case "slow":
		ctx.Log().Info("slow: waiting 5 s unless cancelled")
		select {
		case <-time.After(5 * time.Second):
		case <-ctx.Done():
			return fetchOutput{}, ctx.Err()
		}
	}
	return fetchOutput{Articles: in.PMIDs}, nil
}

// notice_tool: a declared failure that is a modeled outcome, logged at
// notice rather than error.

var softLimit = mcpcore.Failure{
	Reason:   "soft_limit",
	Code:     mcperr.CodeValidationError,
	When:     "Input exceeded a soft limit",
	Recovery: "Reduce the request size and try again later.",
	Severity: mcpcore.SeverityNotice,
}

type noticeInput struct {
	Fail bool `json:"fail,omitempty" jsonschema:"whether to fail with the soft limit" default:"true"`
}

type noticeOutput struct {
	OK bool `json:"ok" jsonschema:"true when the call succeeded"`
}

var noticeTool = mcpcore.Tool[noticeInput, noticeOutput]{
	Name:        "notice_tool",
	Description: "Fail with a soft limit (logged at notice), unless fail is false.",
	Errors:      []mcpcore.Failure{softLimit},
	Handler: func(ctx *mcpcore.Context, in noticeInput) (noticeOutput, error) {
		if in.Fail {
			return noticeOutput{}, ctx.Fail(softLimit, "Soft limit exceeded", ctx.RecoveryFor(softLimit))
		}
		return noticeOutput{OK: true}, nil
	},
}
