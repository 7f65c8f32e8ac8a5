// Package mcpcore is a trimmed stub of the real package, for analyzer tests.
package mcpcore

import (
	"context"

	"github.com/seed417024ea/mcpcore/mcperr"
)

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

type Context struct{ context.Context }

func (c *Context) Fail(f Failure, message string, opts ...mcperr.Option) *mcperr.Error { return nil }
func (c *Context) RecoveryFor(f Failure) mcperr.Option                                 { return nil }
func (c *Context) FailFrom(err error, entries ...Failure) error                        { return nil }
func (c *Context) FailFromWithRecovery(err error, entries ...Failure) error            { return nil }

const ReasonConsentDeclined = "consent_declined"

type AskOption func(*ask)

type ask struct{}

func QuestionKey(key string) AskOption { return nil }
func RecoveryOnDecline() AskOption     { return nil }

func Elicit[T any](ctx *Context, message string, opts ...AskOption) (T, error) {
	var zero T
	return zero, nil
}

func RecoveryForReason(ctx context.Context, reason string) mcperr.Option { return nil }

type Tool[In, Out any] struct {
	Name        string
	Description string
	Errors      []Failure
	Handler     func(ctx *Context, in In) (Out, error)
}

type Resource[Params, Out any] struct {
	Name        string
	URITemplate string
	Errors      []Failure
	Handler     func(ctx *Context, params Params) (Out, error)
}

type Prompt[Args any] struct {
	Name    string
	Errors  []Failure
	Handler func(ctx *Context, args Args) ([]string, error)
}
