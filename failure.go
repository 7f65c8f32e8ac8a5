package mcpcore

import (
	"errors"
	"fmt"
	"strings"

	"github.com/seed417024ea/mcpcore/contract"
	"github.com/seed417024ea/mcpcore/internal/level"
	"github.com/seed417024ea/mcpcore/internal/schema"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// A Failure is one declared failure mode of a tool or resource: an entry of
// its error contract. Declare each as a package-level value beside the tool
// that lists it in Errors, and fail with it through [Context.Fail]; a handler
// cannot name a failure that was never declared, because it would not
// compile:
//
//	var noMatch = mcpcore.Failure{
//		Reason:   "no_match",
//		Code:     mcperr.CodeNotFound,
//		When:     "No requested PMID returned data",
//		Recovery: "Try pubmed_search_articles to discover valid PMIDs first.",
//	}
//
// The contract is published to clients in tools/list, so a model can read the
// ways a tool fails before it calls it. The type, its fields and the
// published form live in package [contract], which a client shares without
// linking the server.
type Failure = contract.Failure

// A Severity is the log level of a declared failure. The zero value is
// [SeverityError]. See [contract.Severity].
type Severity = contract.Severity

// The severities a [Failure] may declare. They are the logger's level names
// below error; notice sits between info and warning.
const (
	SeverityError   = contract.SeverityError
	SeverityWarning = contract.SeverityWarning
	SeverityNotice  = contract.SeverityNotice
	SeverityInfo    = contract.SeverityInfo
	SeverityDebug   = contract.SeverityDebug
)

// Retryability is what a contract declares about retrying a failure. It has
// three states, because "not retryable" is a statement of its own, distinct
// from saying nothing. See [contract.Retryability].
type Retryability = contract.Retryability

// The retryabilities a [Failure] may declare.
const (
	// RetryUnspecified declares nothing: no data.retryable key is added.
	RetryUnspecified = contract.RetryUnspecified
	// Retryable declares that the same call may succeed later:
	// data.retryable is true.
	Retryable = contract.Retryable
	// NotRetryable declares that the same call will fail again:
	// data.retryable is false.
	NotRetryable = contract.NotRetryable
)

// ThrownBy names where a declared failure is raised. See
// [contract.ThrownBy].
type ThrownBy = contract.ThrownBy

// The places a [Failure] can be raised from.
const (
	ThrownByHandler = contract.ThrownByHandler
	ThrownByService = contract.ThrownByService
)

// checkContract reports every structural problem of a contract: an unknown
// code, an empty or duplicate reason, an empty When or Recovery, an unknown
// severity or ThrownBy. These stop the server from starting; style warnings
// (word counts, snake_case) belong to mcplint.
func checkContract(kind, name string, contract []Failure) error {
	var errs []error
	seen := make(map[string]bool, len(contract))
	for i, f := range contract {
		bad := func(format string, args ...any) {
			entry := fmt.Sprintf("entry %d", i)
			if f.Reason != "" {
				entry += fmt.Sprintf(" (reason %q)", f.Reason)
			}
			errs = append(errs, fmt.Errorf("%s %q: error contract %s: %s", kind, name, entry, fmt.Sprintf(format, args...)))
		}
		if !f.Code.Known() {
			bad("unknown code %d", int32(f.Code))
		}
		switch {
		case f.Reason == "":
			bad("empty reason")
		case seen[f.Reason]:
			bad("duplicate reason")
		}
		seen[f.Reason] = true
		if strings.TrimSpace(f.When) == "" {
			bad("empty When")
		}
		if strings.TrimSpace(f.Recovery) == "" {
			bad("empty Recovery")
		}
		if _, ok := level.Parse(string(f.Severity)); !ok && f.Severity != SeverityError {
			bad("unknown severity %q (want debug, info, notice, warning or error)", f.Severity)
		}
		if f.Retryable < RetryUnspecified || f.Retryable > NotRetryable {
			bad("unknown Retryable %d (want RetryUnspecified, Retryable or NotRetryable)", f.Retryable)
		}
		switch f.ThrownBy {
		case ThrownByHandler, "handler", ThrownByService:
		default:
			bad("unknown ThrownBy %q (want handler or service)", f.ThrownBy)
		}
	}
	return errors.Join(errs...)
}

// declares reports whether the contract holds an entry equal to f.
func declares(contract []Failure, f Failure) bool {
	for _, c := range contract {
		if c == f {
			return true
		}
	}
	return false
}

// byReason returns the contract entry with the given reason.
func byReason(contract []Failure, reason string) (Failure, bool) {
	for _, c := range contract {
		if c.Reason == reason {
			return c, true
		}
	}
	return Failure{}, false
}

// reasons lists the declared reasons in declaration order.
func reasons(contract []Failure) []string {
	rs := make([]string, len(contract))
	for i, c := range contract {
		rs[i] = c.Reason
	}
	return rs
}

// build makes the error of the declared failure f, as [Context.Fail]
// documents.
func build(f Failure, message string, opts []mcperr.Option) *mcperr.Error {
	if message == "" {
		message = f.When
	}
	all := make([]mcperr.Option, 0, len(opts)+2)
	if retryable, ok := f.Retryable.Flag(); ok {
		all = append(all, mcperr.WithData(map[string]any{"retryable": retryable}))
	}
	all = append(all, opts...)
	// Written last so that no caller data can change the reason observers
	// switch on.
	all = append(all, mcperr.WithData(map[string]any{"reason": f.Reason}))
	return mcperr.New(f.Code, message, all...)
}

// schemaReasons is the part of the contract the advertised output schema
// describes.
func schemaReasons(contract []Failure) []schema.Reason {
	out := make([]schema.Reason, len(contract))
	for i, f := range contract {
		out[i] = schema.Reason{Reason: f.Reason, When: f.When}
	}
	return out
}
