package contract

import (
	"fmt"
	"log/slog"

	"github.com/seed417024ea/mcpcore/internal/level"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// A Failure is one declared failure mode of a tool, resource or prompt: an
// entry of its error contract. A server declares each as a package-level
// value beside the definition that lists it in Errors, and fails with it
// through [github.com/seed417024ea/mcpcore.Context.Fail]; a client reads the
// published contract back as Failure values (see [ParseMeta]).
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
	// the failing code opts in: Context.RecoveryFor at a Fail or in an
	// OnDecline for Elicit, RecoveryFor(ctx, entry) where a service raises
	// (all of package mcpcore), or a hint of its own. What the author
	// writes at the failure site is what is sent.
	Recovery string
	// Retryable says whether the same call may succeed if made again:
	// [Retryable] makes data.retryable true by default on errors built from
	// this entry, [NotRetryable] makes it false (so [mcperr.Retry] fails
	// fast), and the zero value adds no retryable key. A failure site may
	// still set its own in its data.
	Retryable Retryability
	// Severity is the level of the server's log record when this failure
	// happens in a tool; empty means error. Declare a lower level for modeled
	// outcomes that are not incidents. It changes nothing on the wire, and is
	// not published.
	Severity Severity
	// ThrownBy says where the failure is raised: in the handler (the
	// default, "" or "handler") or in a service it calls ("service"). It is
	// for mcplint, whose check that every declared failure is raised cannot
	// see into services; it changes nothing at run time and is not
	// published. The server checks it at start all the same, as it checks
	// Severity: a value other than these stops it, so that a typo
	// ("services") does not silently turn the check off.
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

// Level returns the slog level of records logged at this severity; the
// empty severity, like any name that is not a level, is error.
func (s Severity) Level() slog.Level {
	if level, ok := level.Parse(string(s)); ok {
		return level
	}
	return slog.LevelError
}

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

// Flag returns the data.retryable the declaration stands for, and whether
// there is one: (true, true) for [Retryable], (false, true) for
// [NotRetryable], and (false, false) otherwise, when no key is written.
func (r Retryability) Flag() (retryable, declared bool) {
	switch r {
	case Retryable:
		return true, true
	case NotRetryable:
		return false, true
	}
	return false, false
}

// retryabilityOf is the inverse of Flag: what a published retryable
// (absent or null when flag is nil) declares.
func retryabilityOf(flag *bool) Retryability {
	switch {
	case flag == nil:
		return RetryUnspecified
	case *flag:
		return Retryable
	}
	return NotRetryable
}

// ThrownBy names where a declared failure is raised (see
// [Failure.ThrownBy]): mcplint reads it, and a server only checks, at
// start, that it is one of the values below.
type ThrownBy string

// The places a [Failure] can be raised from.
const (
	ThrownByHandler ThrownBy = ""
	ThrownByService ThrownBy = "service"
)
