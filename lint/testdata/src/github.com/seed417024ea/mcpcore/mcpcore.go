// Package mcpcore is a trimmed stub of the real package, for analyzer tests.
package mcpcore

import (
	"context"
	"log/slog"

	"github.com/seed417024ea/mcpcore/contract"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// As in the real package, the contract vocabulary is declared in package
// contract and aliased here.
type (
	Severity     = contract.Severity
	ThrownBy     = contract.ThrownBy
	Retryability = contract.Retryability
	Failure      = contract.Failure
)

const (
	SeverityError    = contract.SeverityError
	SeverityWarning  = contract.SeverityWarning
	SeverityNotice   = contract.SeverityNotice
	SeverityInfo     = contract.SeverityInfo
	SeverityDebug    = contract.SeverityDebug
	ThrownByHandler  = contract.ThrownByHandler
	ThrownByService  = contract.ThrownByService
	RetryUnspecified = contract.RetryUnspecified
	Retryable        = contract.Retryable
	NotRetryable     = contract.NotRetryable
)

type Context struct{ context.Context }

func (c *Context) Fail(f Failure, message string, opts ...mcperr.Option) *mcperr.Error { return nil }
func (c *Context) RecoveryFor(f Failure) mcperr.Option                                 { return nil }
func (c *Context) FailFrom(err error, entries ...Failure) error                        { return nil }
func (c *Context) Logger() *slog.Logger                                                { return slog.Default() }
func (c *Context) Progress(done, total float64, message string)                        {}

func Logger(ctx context.Context) *slog.Logger { return slog.Default() }

type SamplingRequest struct {
	Prompt       string
	SystemPrompt string
	MaxTokens    int64
}

type SamplingResult struct{ Text string }

func (c *Context) Sample(s SamplingRequest, opts ...AskOption) (*SamplingResult, error) {
	return nil, nil
}

const ReasonConsentDeclined = "consent_declined"

type AskOption func(*ask)

type ask struct{}

func QuestionKey(key string) AskOption                     { return nil }
func OnDecline(f Failure, opts ...mcperr.Option) AskOption { return nil }

func Elicit[T any](ctx *Context, message string, opts ...AskOption) (T, error) {
	var zero T
	return zero, nil
}

func RecoveryFor(ctx context.Context, f Failure) mcperr.Option { return nil }

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
