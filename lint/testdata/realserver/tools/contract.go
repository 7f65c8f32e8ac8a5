// Package tools defines the catalog server's tools and resource. Every tool
// that calls the catalog shares the service's contract, serviceErrors, and
// adds its own entries to it.
package tools

import (
	"slices"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// The failures the catalog service raises, with the reasons it stamps on
// them: every tool that calls it declares them.
var (
	queueFull = mcpcore.Failure{
		Reason:    "queue_full",
		Code:      mcperr.CodeRateLimited,
		When:      "The server's queue of catalog calls is full",
		Recovery:  "Wait a few seconds and call again, or make fewer calls at once.",
		Retryable: mcpcore.Retryable,
		ThrownBy:  mcpcore.ThrownByService,
	}
	upstreamDown = mcpcore.Failure{
		Reason:    "upstream_unreachable",
		Code:      mcperr.CodeServiceUnavailable,
		When:      "The catalog cannot be reached",
		Recovery:  "The catalog is down or unreachable; call again in a few minutes.",
		Retryable: mcpcore.Retryable,
		ThrownBy:  mcpcore.ThrownByService,
	}
	apiKeyRejected = mcpcore.Failure{
		Reason:    "api_key_rejected",
		Code:      mcperr.CodeConfigurationError,
		When:      "The catalog refused the server's API key",
		Recovery:  "Tell the server's operator that the catalog API key is invalid; no catalog tool works until it is replaced.",
		Retryable: mcpcore.NotRetryable,
		ThrownBy:  mcpcore.ThrownByService,
	}
)

// serviceErrors is the contract of the catalog service.
var serviceErrors = []mcpcore.Failure{queueFull, upstreamDown, apiKeyRejected}

// withService returns the contract of a tool that calls the catalog: its
// own entries, then the service's.
func withService(own ...mcpcore.Failure) []mcpcore.Failure {
	return slices.Concat(own, serviceErrors)
}

// The tools' own failures.
var (
	emptyQuery = mcpcore.Failure{
		Reason:   "empty_query",
		Code:     mcperr.CodeInvalidParams,
		When:     "The query is empty or only blanks",
		Recovery: "Pass a query of at least one word, such as an author's name or words of a title.",
	}
	noRecord = mcpcore.Failure{
		Reason:   "no_record",
		Code:     mcperr.CodeNotFound,
		When:     "The catalog has no record with this ID or DOI",
		Recovery: "Call search_catalog to find the record's catalog ID, then call again with it.",
		Severity: mcpcore.SeverityNotice,
	}
	needID = mcpcore.Failure{
		Reason:   "id_or_doi_required",
		Code:     mcperr.CodeInvalidParams,
		When:     "Neither an ID nor a DOI was given, or both were",
		Recovery: "Pass exactly one of id (a catalog ID from search_catalog) and doi.",
	}
	alreadySaved = mcpcore.Failure{
		Reason:   "already_saved",
		Code:     mcperr.CodeConflict,
		When:     "The record is already on the shelf",
		Recovery: "Call update_note to change the saved record's note, or read shelf://entries/{recordId}.",
		Severity: mcpcore.SeverityNotice,
	}
	notSaved = mcpcore.Failure{
		Reason:   "not_saved",
		Code:     mcperr.CodeNotFound,
		When:     "The shelf holds no entry for the record",
		Recovery: "Call save_record first to put the record on the shelf.",
		Severity: mcpcore.SeverityNotice,
	}
	staleVersion = mcpcore.Failure{
		Reason:   "stale_version",
		Code:     mcperr.CodeConflict,
		When:     "The entry changed since the version the call was based on",
		Recovery: "Read shelf://entries/{recordId} for the current version and note, then call update_note again with it.",
	}
	unknownStyle = mcpcore.Failure{
		Reason:   "unknown_style",
		Code:     mcperr.CodeInvalidParams,
		When:     "The citation style is not one the catalog formats",
		Recovery: "Pass one of the styles apa, mla, chicago, harvard, ieee or bibtex.",
	}
)
