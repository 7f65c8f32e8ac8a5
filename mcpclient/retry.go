package mcpclient

import (
	"context"

	"github.com/seed417024ea/mcpcore/contract"
	"github.com/seed417024ea/mcpcore/internal/errchain"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// Retryable reports whether the server said that the failure err may
// succeed if the same call is made again. err's [*mcperr.Error] (as [Call],
// [ErrorOf] or [FromRPC] give it) is retryable when its data.retryable is
// true, or when entries (a tool's contract, as [Contract] reads it) has an
// entry with its data.reason and its code declared [contract.Retryable]; and
// it is not when either says no: a data.retryable false or an entry declared
// [contract.NotRetryable] wins over a yes from the other.
//
// The code alone never makes a failure retryable: a ServiceUnavailable,
// Timeout or RateLimited the server did not mark is not, and neither is an
// error without an [*mcperr.Error] or one of the client's own (a closed
// connection, a cancelled context), which carry no data. This is where
// Retryable differs from [mcperr.IsTransient], which judges a service's
// errors in the server's own process.
func Retryable(err error, entries []contract.Failure) bool {
	e, ok := errchain.As[*mcperr.Error](err)
	if !ok || e == nil {
		return false
	}
	flag, flagged := e.Data()["retryable"].(bool)
	declared := contract.RetryUnspecified
	if reason, ok := e.Data()["reason"].(string); ok {
		for _, f := range entries {
			if f.Reason == reason && f.Code == e.Code() {
				declared = f.Retryable
				break
			}
		}
	}
	if (flagged && !flag) || declared == contract.NotRetryable {
		return false
	}
	return flagged || declared == contract.Retryable
}

// RetryByContract calls fn, typically a [Call] of one tool whose contract is
// entries (see [Contract]), until it succeeds or fails with an error that is
// not [Retryable] by entries, with the backoff, Retry-After and attempt rules
// of [mcperr.Retry], which it runs: what it returns is what mcperr.Retry
// returns. Where mcperr.Retry judges a service's errors by their code, it
// retries only what the server marked retryable.
//
// opts.IsTransient, when set, can only narrow what is retried: a failure is
// retried when it is Retryable and opts.IsTransient also says yes. Nothing
// the server did not mark retryable is ever retried.
func RetryByContract[T any](ctx context.Context, opts mcperr.RetryOptions, entries []contract.Failure, fn func(context.Context) (T, error)) (T, error) {
	veto := opts.IsTransient
	opts.IsTransient = func(err error) bool {
		return Retryable(err, entries) && (veto == nil || veto(err))
	}
	return mcperr.Retry(ctx, opts, fn)
}
