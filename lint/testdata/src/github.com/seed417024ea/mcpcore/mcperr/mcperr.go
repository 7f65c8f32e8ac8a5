// Package mcperr is a trimmed stub of the real package, for analyzer tests.
package mcperr

import (
	"context"
	"net/http"
)

type Code int32

const (
	CodeParseError           Code = -32700
	CodeInvalidRequest       Code = -32600
	CodeMethodNotFound       Code = -32601
	CodeInvalidParams        Code = -32602
	CodeInternalError        Code = -32603
	CodeServiceUnavailable   Code = -32000
	CodeNotFound             Code = -32001
	CodeConflict             Code = -32002
	CodeRateLimited          Code = -32003
	CodeTimeout              Code = -32004
	CodeForbidden            Code = -32005
	CodeUnauthorized         Code = -32006
	CodeValidationError      Code = -32007
	CodeConfigurationError   Code = -32008
	CodeInitializationFailed Code = -32009
	CodeDatabaseError        Code = -32010
	CodeRequestCancelled     Code = -32011
	CodeSerializationError   Code = -32070
	CodeUnknownError         Code = -32099
)

type Error struct{ code Code }

func (e *Error) Error() string { return "" }
func (e *Error) Code() Code    { return e.code }

type Option func(*Error)

func New(code Code, message string, opts ...Option) *Error { return nil }

func WithData(data map[string]any) Option { return nil }
func WithCause(err error) Option          { return nil }
func WithRecovery(hint string) Option     { return nil }

func InvalidParams(message string, opts ...Option) *Error      { return nil }
func InvalidRequest(message string, opts ...Option) *Error     { return nil }
func NotFound(message string, opts ...Option) *Error           { return nil }
func Forbidden(message string, opts ...Option) *Error          { return nil }
func Unauthorized(message string, opts ...Option) *Error       { return nil }
func ValidationError(message string, opts ...Option) *Error    { return nil }
func Conflict(message string, opts ...Option) *Error           { return nil }
func RateLimited(message string, opts ...Option) *Error        { return nil }
func Timeout(message string, opts ...Option) *Error            { return nil }
func ServiceUnavailable(message string, opts ...Option) *Error { return nil }
func ConfigurationError(message string, opts ...Option) *Error { return nil }
func InternalError(message string, opts ...Option) *Error      { return nil }
func SerializationError(message string, opts ...Option) *Error { return nil }
func DatabaseError(message string, opts ...Option) *Error      { return nil }
func RequestCancelled(message string, opts ...Option) *Error   { return nil }

func From(err error) *Error { return nil }
func Scrub(s string) string { return s }

type ResponseOption interface{ applyResponse() }

func (o Option) applyResponse() {}

func WithService(name string) ResponseOption { return nil }

func FromResponse(resp *http.Response, opts ...ResponseOption) *Error { return nil }

func Retry[T any](ctx context.Context, opts RetryOptions, fn func(context.Context) (T, error)) (T, error) {
	return fn(ctx)
}

type RetryOptions struct {
	Operation  string
	MaxRetries int
}

type TryCatchOptions struct{ Operation string }

func TryCatch[T any](ctx context.Context, opts TryCatchOptions, fn func(context.Context) (T, error)) (T, error) {
	return fn(ctx)
}
