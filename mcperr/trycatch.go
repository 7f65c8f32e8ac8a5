package mcperr

import (
	"context"
	"fmt"
	"log/slog"
	"runtime"
	"strconv"
	"strings"

	"github.com/seed417024ea/mcpcore/internal/errchain"
	"github.com/seed417024ea/mcpcore/internal/redact"
)

// TryCatchOptions describe the operation [TryCatch] runs: what to call it in
// the log, what to log with it, and which code to give a failure that does
// not carry one. The zero value is usable but logs the operation as
// "operation"; set at least Operation.
type TryCatchOptions struct {
	// Operation names the work in the log record: "Error in <Operation>: …"
	// and the "operation" attribute. Use a stable name such as
	// "ArticleStore.Get".
	Operation string

	// Logger receives the record, at error; nil means the logger of the
	// request ctx belongs to (see WithRequestLogger), at debug, or else
	// slog.Default(), at error (see TryCatch).
	Logger *slog.Logger

	// Attrs are the caller's context (request id, tenant, …), added to the
	// record, redacted like the rest of it. An attr whose key is one of the
	// keys TryCatch writes itself (operation, input, code, codeName,
	// originalType, originalMessage, cause, critical, stack) is dropped.
	Attrs []slog.Attr

	// Input is logged as "input" after a deep copy in which the value of
	// every key that names a secret (password, token, apiKey, authorization,
	// cookie, …, and keys with such a word, like "session_token") is
	// replaced by "[REDACTED]", and the strings inside are scrubbed as
	// [Scrub] does. Structs are logged under their JSON field names. Nil
	// logs no input.
	Input any

	// Code is the code of a failure that has no [*Error] in its chain;
	// zero means classify it as [From] does. A failure that carries an
	// [*Error] keeps that error's code.
	Code Code

	// Critical adds critical=true to the record, for alerting. It does not
	// change the level.
	Critical bool

	// IncludeStack adds the goroutine's stack at the point TryCatch saw the
	// failure, starting at TryCatch's caller, as "stack".
	IncludeStack bool
}

// TryCatch runs fn and returns its value. When fn fails it logs one record
// and returns the failure as an [*Error]; it never swallows a failure and
// never recovers a panic.
//
// The record is at level Error, but for one case: within a request whose
// context carries its logger ([WithRequestLogger]; mcpcore does it for every
// call it serves) and with no opts.Logger, it goes to the request's logger
// at Debug. There the server that answers the request logs the failure
// itself, once, at the level its contract declares: a failure declared as
// notice (an empty search, say) must not page anyone at error from the
// service below it, nor be logged twice. With MCP_LOG_LEVEL=debug, the
// service's record shows beside the server's, with the request's id.
//
// The returned error is the [*Error] in the failure's chain, unchanged (code,
// message and data), when there is one. Otherwise it is a new [*Error] with
// opts.Code, or the code [From] gives, the failure's message scrubbed by
// [Scrub], the failure as its cause and no data.
//
// The record's message is "Error in <operation>: <message>", and its
// attributes are operation, opts.Attrs, input (sanitised, see
// [TryCatchOptions]), code (the number) and codeName, originalType (the Go
// type of fn's error, such as "*fs.PathError"), originalMessage (fn's error
// text, scrubbed, when it differs from the message), cause (the scrubbed
// messages of the errors below fn's error in its chain, when there are any),
// critical (when set) and stack (when asked for).
//
// Whatever opts.Logger is, the record goes through the redaction the
// server applies to its own records: an attribute whose key names a secret
// is "[REDACTED]" at any depth, and every string is scrubbed. No secret in
// the failure, its chain, the input or the attrs reaches the log.
//
// Diagnostics go to the log only: TryCatch adds nothing to the error's
// data, so what reaches a client is exactly what the service put there.
func TryCatch[T any](ctx context.Context, opts TryCatchOptions, fn func(context.Context) (T, error)) (T, error) {
	v, err := fn(ctx)
	if err == nil {
		return v, nil
	}
	var stack string
	if opts.IncludeStack {
		stack = callerStack(1)
	}
	var zero T
	return zero, catch(ctx, &opts, err, stack)
}

// catch logs err as TryCatch describes and returns its *Error.
func catch(ctx context.Context, opts *TryCatchOptions, err error, stack string) *Error {
	// The text goes to the client, as the message of an error built here,
	// and to the log: both get it scrubbed.
	msg := Scrub(message(err))
	final := errorIn(err)
	if final == nil {
		code := opts.Code
		if code == 0 {
			code = CodeOf(err)
		}
		final = New(code, msg, WithCause(err))
	}

	logger, level := opts.Logger, slog.LevelError
	if logger == nil {
		var inRequest bool
		logger, inRequest = loggerFor(ctx)
		if inRequest {
			// The request's answer logs the failure at its level.
			level = slog.LevelDebug
		}
	}
	if !logger.Enabled(ctx, level) {
		return final
	}
	// The caller's logger may be anyone's: redact the record as the
	// server's handler would. Comparing the caller's handler with the
	// redacting one is safe, as that is a pointer; it saves a Logger when
	// the handler already redacts.
	if h := redact.Handler(logger.Handler()); h != logger.Handler() {
		logger = slog.New(h)
	}
	op := opts.Operation
	if op == "" {
		op = "operation"
	}

	attrs := make([]slog.Attr, 0, len(opts.Attrs)+10)
	attrs = append(attrs, slog.String("operation", op))
	for _, a := range opts.Attrs {
		if !reservedLogKeys[a.Key] {
			attrs = append(attrs, a)
		}
	}
	if opts.Input != nil {
		attrs = append(attrs, slog.Any("input", sanitizeInput(opts.Input)))
	}
	attrs = append(attrs,
		slog.Int("code", int(final.Code())),
		slog.String("codeName", final.Code().String()),
		slog.String("originalType", fmt.Sprintf("%T", err)),
	)
	if msg != final.Error() {
		attrs = append(attrs, slog.String("originalMessage", msg))
	}
	if chain := causeChain(err); len(chain) > 0 {
		attrs = append(attrs, slog.Any("cause", chain))
	}
	if opts.Critical {
		attrs = append(attrs, slog.Bool("critical", true))
	}
	if stack != "" {
		attrs = append(attrs, slog.String("stack", stack))
	}
	logger.LogAttrs(ctx, level, "Error in "+op+": "+final.Error(), attrs...)
	return final
}

// reservedLogKeys are the attribute keys TryCatch writes; caller attrs with
// these keys are dropped so that a record never has a key twice.
var reservedLogKeys = map[string]bool{
	"operation": true, "input": true, "code": true, "codeName": true,
	"originalType": true, "originalMessage": true, "cause": true,
	"critical": true, "stack": true,
}

// maxCauseDepth bounds the cause chain TryCatch logs.
const maxCauseDepth = 20

// causeChain returns the messages of the errors below err in its chain,
// scrubbed, in depth-first order (the branches of an errors.Join one after
// the other), at most maxCauseDepth of them; a longer chain ends with a
// marker. The walk is errchain's, within its bounds: an error whose
// Unwrap returns itself ends at the marker too.
func causeChain(err error) []string {
	var chain []string
	root := true
	errchain.Walk(err, func(e error) bool {
		if root {
			root = false
			return false
		}
		if len(chain) == maxCauseDepth {
			chain = append(chain, "… (chain longer than "+strconv.Itoa(maxCauseDepth)+")")
			return true
		}
		chain = append(chain, Scrub(message(e)))
		return false
	})
	return chain
}

// callerStack formats the calling goroutine's stack in the
// "function\n\tfile:line" form of runtime/debug.Stack, starting at
// callerStack's caller when skip is 0, at the caller's caller when skip is 1.
func callerStack(skip int) string {
	pcs := make([]uintptr, 64)
	n := runtime.Callers(skip+2, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	var b strings.Builder
	for {
		f, more := frames.Next()
		if f.Function != "" {
			fmt.Fprintf(&b, "%s\n\t%s:%d\n", f.Function, f.File, f.Line)
		}
		if !more {
			break
		}
	}
	return b.String()
}
