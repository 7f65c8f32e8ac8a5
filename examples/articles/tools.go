package main

import (
	"errors"
	"fmt"
	"strings"
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
	// Checked when a token comes with the call (MCP_AUTH_MODE jwt or oauth).
	Scopes:  []string{"articles:read"},
	Handler: fetch,
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
	case "upstream_busy", "upstream_down":
		// A service's error mapped onto the contract: the upstream's 429 is
		// queue_full and its 503 ncbi_down, with the service's message and
		// data (status, retryAfter in seconds, the declared hint it raised
		// with, …) kept.
		articles, err := ncbiFetch(ctx, in.PMIDs)
		if err != nil {
			return fetchOutput{}, ctx.FailFrom(err, queueFull, ncbiDown)
		}
		return fetchOutput{Articles: articles}, nil
	case "slow":
		ctx.Logger().Info("slow: waiting 5 s unless cancelled")
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

// summarize_abstract: a tool that reports its progress and asks the client's
// model for the summary it returns (sampling).

var (
	unknownPMID = mcpcore.Failure{
		Reason:   "unknown_pmid",
		Code:     mcperr.CodeNotFound,
		When:     "The library holds no article with this PMID",
		Recovery: "Complete the itemId of articles://items/{itemId} to list the PMIDs the library holds.",
	}
	emptySummary = mcpcore.Failure{
		Reason:    "empty_summary",
		Code:      mcperr.CodeServiceUnavailable,
		When:      "The client's model answered without any text",
		Recovery:  "Call again; if the answer stays empty, the client's model cannot summarize text.",
		Retryable: mcpcore.Retryable,
	}
)

type summarizeInput struct {
	PMID string `json:"pmid" jsonschema:"PubMed ID of an article of the library, such as 31000001"`
}

type summarizeOutput struct {
	PMID      string `json:"pmid" jsonschema:"the article's PubMed ID"`
	Title     string `json:"title" jsonschema:"the article's title"`
	Retracted bool   `json:"retracted,omitempty" jsonschema:"true when the article has been retracted"`
	Summary   string `json:"summary" jsonschema:"the summary, written by the client's model"`
	Model     string `json:"model,omitempty" jsonschema:"the model that wrote the summary, as the client reports it"`
}

var summarizeAbstract = mcpcore.Tool[summarizeInput, summarizeOutput]{
	Name: "summarize_abstract",
	Description: "Summarize the abstract of an article of the library in one sentence, written by the client's model " +
		"(the client must support sampling). Reports progress when the call asks for it.",
	Errors:  []mcpcore.Failure{unknownPMID, emptySummary},
	Handler: summarize,
}

// summarize reports each of its steps as progress: the lookup, the question
// to the client's model, the check of its answer.
func summarize(ctx *mcpcore.Context, in summarizeInput) (summarizeOutput, error) {
	const steps = 3
	ctx.Progress(0, steps, "Looking up PMID "+in.PMID)
	a, ok := lookup(in.PMID)
	if !ok {
		return summarizeOutput{}, ctx.Fail(unknownPMID,
			noArticle(in.PMID),
			ctx.RecoveryFor(unknownPMID))
	}
	ctx.Progress(1, steps, "Asking the client's model for a summary")
	s, err := ctx.Sample(mcpcore.SamplingRequest{
		SystemPrompt: "You summarize scientific abstracts for a general reader.",
		Prompt:       "Summarize this abstract in one sentence.\n\nTitle: " + a.Title + "\n\n" + a.Abstract,
		MaxTokens:    200,
	})
	if err != nil {
		// The client does not support sampling (a protocol error), or
		// refused or failed to answer (ServiceUnavailable): the framework's
		// errors, returned as they are.
		return summarizeOutput{}, err
	}
	ctx.Progress(2, steps, "Checking the summary")
	summary := strings.TrimSpace(s.Text)
	if summary == "" {
		return summarizeOutput{}, ctx.Fail(emptySummary, "The client's model answered PMID "+in.PMID+" without any text",
			ctx.RecoveryFor(emptySummary))
	}
	ctx.Progress(steps, steps, "Summary ready")
	return summarizeOutput{PMID: a.PMID, Title: a.Title, Retracted: a.Retracted, Summary: summary, Model: s.Model}, nil
}

// retract_article: a tool that asks the user to confirm a change
// (elicitation), makes it, and tells the subscribers of the changed item.

var (
	alreadyRetracted = mcpcore.Failure{
		Reason:   "already_retracted",
		Code:     mcperr.CodeConflict,
		When:     "The article is already retracted",
		Recovery: "Nothing to do; read the article's item resource for the reason it was retracted.",
		Severity: mcpcore.SeverityNotice,
	}
	// consentDeclined is the failure Elicit returns when the user declines
	// or dismisses the question; the handler returns it too when the user
	// answers without confirming.
	consentDeclined = mcpcore.Failure{
		Reason:   mcpcore.ReasonConsentDeclined,
		Code:     mcperr.CodeInvalidRequest,
		When:     "The user declined, dismissed or did not confirm the retraction",
		Recovery: "Leave the article as it is; call again only if the user asks for the retraction.",
		Severity: mcpcore.SeverityNotice,
	}
)

type retractInput struct {
	PMID string `json:"pmid" jsonschema:"PubMed ID of the article of the library to retract"`
}

// retraction is the form the user fills in.
type retraction struct {
	Confirm bool   `json:"confirm" jsonschema:"Retract the article? It stays readable, marked as retracted."`
	Reason  string `json:"reason" jsonschema:"Why the article is retracted; shown with it"`
}

type retractOutput struct {
	PMID   string `json:"pmid" jsonschema:"the retracted article's PubMed ID"`
	Title  string `json:"title" jsonschema:"the retracted article's title"`
	Reason string `json:"reason" jsonschema:"why the article was retracted, as the user said"`
	URI    string `json:"uri" jsonschema:"the item resource that changed; its subscribers were notified"`
}

var retractArticle = mcpcore.Tool[retractInput, retractOutput]{
	Name: "retract_article",
	Description: "Retract an article of the library, after the user confirms and gives a reason (the client must " +
		"support elicitation). Subscribers of its item resource are notified.",
	Errors:  []mcpcore.Failure{unknownPMID, alreadyRetracted, consentDeclined},
	Scopes:  []string{"articles:write"},
	Handler: retractOne,
}

// noArticle is the message of unknown_pmid: it lists the PMIDs the library
// holds, so that the model can pick one.
func noArticle(pmid string) string {
	return fmt.Sprintf("No article with PMID %s; the library holds %s", pmid, strings.Join(pmids(""), ", "))
}

func retractOne(ctx *mcpcore.Context, in retractInput) (retractOutput, error) {
	a, ok := lookup(in.PMID)
	if !ok {
		return retractOutput{}, ctx.Fail(unknownPMID,
			noArticle(in.PMID),
			ctx.RecoveryFor(unknownPMID))
	}
	if a.Retracted {
		return retractOutput{}, ctx.Fail(alreadyRetracted, fmt.Sprintf("PMID %s is already retracted", in.PMID),
			ctx.RecoveryFor(alreadyRetracted))
	}
	r, err := mcpcore.Elicit[retraction](ctx,
		fmt.Sprintf("Retract %q (PMID %s)? Every client will see it marked as retracted.", a.Title, a.PMID),
		mcpcore.OnDecline(consentDeclined, ctx.RecoveryFor(consentDeclined)))
	if err != nil {
		// Declined or dismissed: consentDeclined, with its recovery hint.
		return retractOutput{}, err
	}
	if !r.Confirm {
		return retractOutput{}, ctx.Fail(consentDeclined, "The user did not confirm the retraction of PMID "+in.PMID,
			ctx.RecoveryFor(consentDeclined))
	}
	// Another call may have retracted it while the user was answering.
	if a, ok = retract(in.PMID, strings.TrimSpace(r.Reason)); !ok {
		return retractOutput{}, ctx.Fail(alreadyRetracted, fmt.Sprintf("PMID %s was retracted meanwhile", in.PMID),
			ctx.RecoveryFor(alreadyRetracted))
	}
	uri := itemURI(a.PMID)
	if err := ctx.NotifyResourceUpdated(uri); err != nil {
		// The change is made: a subscriber missing the news does not undo it.
		ctx.Logger().Warn("retract_article: the item's subscribers could not be notified", "uri", uri, "error", err.Error())
	}
	return retractOutput{PMID: a.PMID, Title: a.Title, Reason: a.RetractionReason, URI: uri}, nil
}
