// Package contract is a trimmed stub of the real package, for analyzer
// tests: it declares the Failure type that mcpcore.Failure aliases.
package contract

import "github.com/seed417024ea/mcpcore/mcperr"

type Severity string

const (
	SeverityError   Severity = ""
	SeverityWarning Severity = "warning"
	SeverityNotice  Severity = "notice"
	SeverityInfo    Severity = "info"
	SeverityDebug   Severity = "debug"
)

type ThrownBy string

const (
	ThrownByHandler ThrownBy = ""
	ThrownByService ThrownBy = "service"
)

type Retryability int8

const (
	RetryUnspecified Retryability = iota
	Retryable
	NotRetryable
)

type Failure struct {
	Reason    string
	Code      mcperr.Code
	When      string
	Recovery  string
	Retryable Retryability
	Severity  Severity
	ThrownBy  ThrownBy
}
