package mcpcore

import (
	"errors"
	"fmt"
	"strings"

	"github.com/seed417024ea/mcpcore/internal/config"
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
// ways a tool fails before it calls it.
type Failure struct {
	// Reason is the stable, machine-readable name of the failure, snake_case
	// and unique within the contract. It is written to data.reason of every
	// error built from this entry.
	Reason string
	// Code is the JSON-RPC code of the error.
	Code mcperr.Code
	// When describes the condition in a sentence. It is the error's message
	// when the handler gives none.
	When string
	// Recovery tells the client its next move. It reaches the wire only where
	// the failing code opts in: [Context.RecoveryFor] at a Fail,
	// [Context.FailFromWithRecovery] for a service's error, [RecoveryOnDecline]
	// for Elicit, or a hint of its own. What the author writes at the failure
	// site is what is sent.
	Recovery string
	// Retryable says whether the same call may succeed if made again:
	// [Retryable] makes data.retryable true by default on errors built from
	// this entry, [NotRetryable] makes it false (so [mcperr.Retry] fails
	// fast), and the zero value adds no retryable key. A failure site may
	// still set its own in its data.
	Retryable Retryability
	// Severity is the level of the server's log record when this failure
	// happens in a tool; empty means error. Declare a lower level for modeled
	// outcomes that are not incidents. It changes nothing on the wire.
	Severity Severity
	// ThrownBy says where the failure is raised: in the handler (the
	// default) or in a service it calls. It is read only by mcplint, whose
	// check that every declared failure is raised cannot see into services.
	ThrownBy ThrownBy
}

// A Severity is the log level of a declared failure. The zero value is
// [SeverityError].
type Severity string

// The severities a [Failure] may declare. They are the logger's level names
// below error; notice sits between info and warning.
const (
	SeverityError   Severity = ""
	SeverityWarning Severity = "warning"
	SeverityNotice  Severity = "notice"
	SeverityInfo    Severity = "info"
	SeverityDebug   Severity = "debug"
)

// Retryability is what a contract declares about retrying a failure. It has
// three states, because "not retryable" is a statement of its own, distinct
// from saying nothing.
type Retryability int8

// The retryabilities a [Failure] may declare.
const (
	// RetryUnspecified declares nothing: no data.retryable key is added.
	RetryUnspecified Retryability = iota
	// Retryable declares that the same call may succeed later:
	// data.retryable is true.
	Retryable
	// NotRetryable declares that the same call will fail again:
	// data.retryable is false.
	NotRetryable
)

// flag is the default data.retryable of the declaration, and whether there
// is one.
// String returns the constant's name, for messages and %v.
func (r Retryability) String() string {
	switch r {
	case RetryUnspecified:
		return "RetryUnspecified"
	case Retryable:
		return "Retryable"
	case NotRetryable:
		return "NotRetryable"
	}
	return fmt.Sprintf("Retryability(%d)", int8(r))
}

func (r Retryability) flag() (retryable, declared bool) {
	switch r {
	case Retryable:
		return true, true
	case NotRetryable:
		return false, true
	}
	return false, false
}

// ThrownBy names where a declared failure is raised.
type ThrownBy string

// The places a [Failure] can be raised from.
const (
	ThrownByHandler ThrownBy = ""
	ThrownByService ThrownBy = "service"
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
		if _, ok := config.ParseLevel(string(f.Severity)); !ok && f.Severity != SeverityError {
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

// build makes the error of a declared failure, as [Context.Fail] documents.
func (f Failure) build(message string, opts []mcperr.Option) *mcperr.Error {
	if message == "" {
		message = f.When
	}
	all := make([]mcperr.Option, 0, len(opts)+2)
	if retryable, ok := f.Retryable.flag(); ok {
		all = append(all, mcperr.WithData(map[string]any{"retryable": retryable}))
	}
	all = append(all, opts...)
	// Written last so that no caller data can change the reason observers
	// switch on.
	all = append(all, mcperr.WithData(map[string]any{"reason": f.Reason}))
	return mcperr.New(f.Code, message, all...)
}
