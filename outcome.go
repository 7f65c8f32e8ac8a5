package mcpcore

import (
	"context"
	"fmt"
	"log/slog"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/seed417024ea/mcpcore/internal/errchain"
	"github.com/seed417024ea/mcpcore/internal/level"
	"github.com/seed417024ea/mcpcore/internal/redact"
	"github.com/seed417024ea/mcpcore/internal/repeats"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// A call's failure, for every kind of definition: end (dispatch.go)
// classifies what the call failed with (failureOf), renders it
// (newWireError, in render.go, which also holds what the client is sent:
// toolResult and rpcError) and logs it (logFailure, at the contract's
// severity, its repeats collapsed). To change how a failure reads on the
// wire, read render.go; to change how it is classified or logged, this
// file.

// internalError is what a call that failed through a bug is sent: nothing
// about the bug reaches the client. opts may keep the bug as the cause, for
// the log.
func internalError(kind, name string, opts ...mcperr.Option) *mcperr.Error {
	return mcperr.InternalError(fmt.Sprintf("An internal error occurred in %s %s.", kind, name), opts...)
}

// logFailure writes the one "Error in <kind>:<name>: <message>" record of a
// failed call. A cancelled request is an ordinary event (info, no stack); a
// client without a capability the call needs is the client's limit, not
// the server's fault (warning); a client's mistake, such as arguments that
// do not fit the schema, is logged at notice; a tool's declared failure is logged at its
// declared severity (see declaredSeverity); everything else at error. dropped lists the data that
// could not be sent. An upstream's HTTP failure (mcperr.FromResponse) adds what the client's
// data says of it (see upstreamAttr).
func (s *Server) logFailure(c *callState, f *wireError, original error, dropped []string) {
	e := f.err
	level := failureLevel(c.definition, e)
	// The message as the client got it; what it was before (a panic's
	// value, say) is in the original attribute.
	msg := f.message
	if msg == "" {
		msg = e.Error()
	}
	msg = "Error in " + c.kind + ":" + c.name + ": " + repeats.Cut(msg, repeats.MaxFailureBytes)
	attrs := []slog.Attr{
		slog.String("operation", c.kind+":"+c.name),
		slog.Int("code", int(e.Code())),
		slog.String("codeName", e.Code().String()),
	}
	reason, hasReason := e.Data()["reason"].(string)
	if hasReason {
		attrs = append(attrs, slog.String("reason", reason))
	}
	// A panic reaches here as the guard made it, never wrapped.
	p, _ := original.(*panicError)
	site, stack := "", ""
	// What the failure was before it was classified tells it from others
	// of its kind with the same message: records collapse as repeats only
	// when these are equal too.
	switch {
	case isNil(original):
		attrs = append(attrs, slog.String("bug", e.Cause().Error()))
	case p != nil:
		site = panicSite(p.stack)
		attrs = append(attrs, slog.String("panic", repeats.Cut(fmt.Sprint(p.value), repeats.MaxFailureBytes)))
		if level != slog.LevelInfo {
			stack = string(p.stack)
		}
	case original != error(e):
		attrs = append(attrs,
			slog.String("originalType", fmt.Sprintf("%T", original)),
			slog.String("original", repeats.Cut(original.Error(), repeats.MaxFailureBytes)))
	case e.Cause() != nil:
		// A declared failure built with WithCause: the cause is for the
		// operator, never the client.
		attrs = append(attrs,
			slog.String("causeType", fmt.Sprintf("%T", e.Cause())),
			slog.String("cause", repeats.Cut(e.Cause().Error(), repeats.MaxFailureBytes)))
	}
	if up, ok := upstreamAttr(e.Data()); ok {
		attrs = append(attrs, up)
	}
	// The client, if it asked for log notifications, learns of the
	// failure what the result tells it: the code and the message. Repeats
	// are collapsed in the server's log only: each client hears of its
	// own failures.
	if c.ctx.clientLogs {
		c.ctx.notifyClient(level, msg, slog.Int("code", int(e.Code())))
	}
	if !s.repeats.Admit(repeatKey(c.kind, c.name, int(e.Code()), reason, site), level, msg, attrs) {
		return
	}
	// The logger carries the operation already.
	attrs = append(attrs[1:], slog.Float64("durationMs", float64(time.Since(c.start).Microseconds())/1000))
	if stack != "" {
		attrs = append(attrs, slog.String("stack", stack))
	}
	if len(dropped) > 0 {
		// Rare, and rendered by the log handler's own rules for a list.
		c.ctx.logRecord(level, msg, append(attrs, slog.Any("unencodableData", dropped))...)
		return
	}
	c.ctx.logScrubbed(level, msg, scrubTexts(attrs)...)
}

// scrubTexts scrubs, once, the texts of a failure's record that no scrub
// has seen: what the failure was before it was classified, its cause, a
// panic's value and stack, the upstream's answer. The message was scrubbed
// on its way to the wire (newWireError); the names the author declared
// (operation, reason) and the framework's own (codeName, the types) hold
// no secret.
func scrubTexts(attrs []slog.Attr) []slog.Attr {
	for i, a := range attrs {
		switch a.Key {
		case "bug", "panic", "original", "cause", "stack":
			attrs[i].Value = slog.StringValue(redact.String(a.Value.String()))
		case "upstream":
			group := slices.Clone(a.Value.Group())
			for j, g := range group {
				if g.Value.Kind() == slog.KindString {
					group[j].Value = slog.StringValue(redact.String(g.Value.String()))
				}
			}
			attrs[i].Value = slog.GroupValue(group...)
		}
	}
	return attrs
}

// failureLevel is the level of the record of failure e of a call of def
// (see logFailure).
func failureLevel(def *definition, e *mcperr.Error) slog.Level {
	switch {
	case e.Code() == mcperr.CodeRequestCancelled:
		return slog.LevelInfo
	case e.Code() == mcperr.CodeMissingClientCapability:
		return slog.LevelWarn
	case isMistake(e):
		return LevelNotice
	}
	if def.kind == "tool" {
		if f, ok := declaredFailure(def.contract, e); ok {
			return f.Severity.Level()
		}
	}
	return slog.LevelError
}

// upstreamAttr is the "upstream" group of the record of a failure built
// by mcperr.FromResponse, so that the operator learns what the client's
// data says of the upstream's answer: its status, status text, URL and
// body excerpt, as the data holds them (FromResponse scrubbed the URL and
// the body; the log handler scrubs every string again), each text bounded
// as the record's other texts are. It reports false for data without an
// HTTP status under "status", as FromResponse writes it (an int).
func upstreamAttr(data map[string]any) (slog.Attr, bool) {
	status, ok := data["status"].(int)
	if !ok || status < 100 || status > 999 {
		return slog.Attr{}, false
	}
	group := []any{slog.Int("status", status)}
	for _, key := range []string{"statusText", "url", "body"} {
		if v, ok := data[key].(string); ok {
			group = append(group, slog.String(key, repeats.Cut(v, repeats.MaxFailureBytes)))
		}
	}
	return slog.Group("upstream", group...), true
}

// declaredFailure returns the contract entry e was raised as. A declared
// severity applies to that declared failure only: same reason, same code,
// built by Fail or carrying the reason from a service. The framework's own
// errors about the contract (Fail with a failure not declared) are not it,
// whatever reason they name.
func declaredFailure(contract []Failure, e *mcperr.Error) (Failure, bool) {
	reason, ok := e.Data()["reason"].(string)
	if !ok || e.Cause() == errNotDeclared {
		return Failure{}, false
	}
	f, ok := byReason(contract, reason)
	if !ok || f.Code != e.Code() {
		return Failure{}, false
	}
	return f, true
}

// failureOf turns whatever a call failed with into the error sent to the
// client:
//   - a panic is an InternalError with a generic message;
//   - so is a nil pointer returned as a non-nil error (a typed nil, such as
//     a nil *mcperr.Error returned as error): it is a handler bug;
//   - so is an error whose tree goes on past the bounds of a walk (an
//     Unwrap that returns itself, say: errors.As would never return), and
//     one whose message holds the value of a panic (fmt.Errorf wrapping an
//     error whose Error method panicked): the panic's value stays in the log;
//   - a failure of a task the framework ended (its TTL passed, or the
//     server shut down past its grace) is that end's ServiceUnavailable;
//   - a failure after the request was cancelled (by the client, or by the
//     server giving up on it at shutdown) is RequestCancelled, whatever the
//     handler returned: a service that wraps ctx.Err() in an *mcperr.Error
//     must not turn a cancellation into an error-level incident;
//   - an *mcperr.Error in the chain is sent as it is;
//   - a failure after the request's deadline passed is Timeout;
//   - anything else is classified, and carries code and message only.
//
// Every walk of err's tree is bounded (internal/errchain).
func failureOf(ctx context.Context, kind, name string, err error) *mcperr.Error {
	if isNil(err) {
		return internalError(kind, name,
			mcperr.WithCause(fmt.Errorf("the %s handler returned a nil %T as a non-nil error", kind, err)))
	}
	if _, ok := err.(*panicError); ok {
		return internalError(kind, name, mcperr.WithCause(err))
	}
	if errchain.Cut(err) {
		return internalError(kind, name, mcperr.WithCause(errUnwalkable{err}))
	}
	if ctx.Err() != nil {
		// A task the framework ended (its TTL, a shutdown past its grace).
		if end, ok := context.Cause(ctx).(*taskEnd); ok {
			return end.err
		}
	}
	if ctx.Err() == context.Canceled && mcperr.CodeOf(err) != mcperr.CodeRequestCancelled {
		return mcperr.RequestCancelled("The request was cancelled.", mcperr.WithCause(err))
	}
	if e, ok := errchain.As[*mcperr.Error](err); ok && e != nil {
		return e
	}
	if ctx.Err() == context.DeadlineExceeded && mcperr.CodeOf(err) != mcperr.CodeTimeout {
		return mcperr.Timeout("The request timed out.", mcperr.WithCause(err))
	}
	e := mcperr.From(err)
	if e.Message() == mcperr.WithheldMessage {
		return internalError(kind, name, mcperr.WithCause(err))
	}
	return e
}

// errUnwalkable is the cause of the InternalError of an error whose tree
// goes on past the bounds of a walk. Its text names the error's type only:
// its Error method, and any walk below it, are not to be trusted.
type errUnwalkable struct{ err error }

func (e errUnwalkable) Error() string {
	return fmt.Sprintf("the call failed with a %T whose error tree goes on past %d errors deep or %d in all (a cycle?)",
		e.err, errchain.MaxDepth, errchain.MaxNodes)
}

// isNil reports whether err is a nil pointer (or map, slice, func, chan)
// inside a non-nil error interface: the typed nil that Go lets a function
// return by mistake, whose methods may well panic.
func isNil(err error) bool {
	v := reflect.ValueOf(err)
	switch v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan, reflect.Interface, reflect.UnsafePointer:
		return v.IsNil()
	}
	return false
}

// A clientMistake is the cause of a failure that is the client's doing:
// arguments, prompt arguments or URI variables that do not fit their
// schema, an answer that does not fit its form, a token without the scopes
// a definition needs, a session over its limit of calls. It is logged at notice,
// below the server's own incidents; a handler's own ValidationError, and
// output that fails validation (a server bug), keep their level.
type clientMistake struct{ err error }

func (m *clientMistake) Error() string {
	if m.err == nil {
		return "the client's input does not fit its schema"
	}
	return m.err.Error()
}

func (m *clientMistake) Unwrap() error { return m.err }

func mistake(err error) mcperr.Option { return mcperr.WithCause(&clientMistake{err}) }

// isMistake reports whether e is a client's mistake, looking at its cause
// itself (a handler's error may have methods that panic).
func isMistake(e *mcperr.Error) bool {
	_, ok := e.Cause().(*clientMistake)
	return ok || e.Cause() == errBadState
}

// DefaultRepeatWindow is how long, after the first failure record of a
// kind (see repeatKey), the repeats of each of its records are counted
// rather than logged, and its distinct messages bounded (see
// internal/repeats), unless [ServerOptions.RepeatWindow] says otherwise.
const DefaultRepeatWindow = 10 * time.Second

// repeatKey names a kind of failure, in words that the summary of its
// other messages shows: the definition, the code, the reason and, for a
// panic, the place it happened ("tool:search code -32002 reason no_match").
// Within a kind, each distinct message gets its record (see
// internal/repeats); two kinds whose names ran together would only share
// that bound.
func repeatKey(kind, name string, code int, reason, panicSite string) string {
	// One allocation: this runs on every failed call.
	var b strings.Builder
	var digits [20]byte
	b.Grow(len(kind) + len(name) + len(reason) + len(panicSite) + 48)
	b.WriteString(kind)
	b.WriteByte(':')
	b.WriteString(name)
	b.WriteString(" code ")
	b.Write(strconv.AppendInt(digits[:0], int64(code), 10))
	if reason != "" {
		b.WriteString(" reason ")
		b.WriteString(reason)
	}
	if panicSite != "" {
		b.WriteString(" panic at ")
		b.WriteString(panicSite)
	}
	return b.String()
}

// panicSite returns the file:line a panic was raised at, read from its stack
// (the frame just below the runtime's panic function), or "" when the stack
// has no such frame.
func panicSite(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "panic(") {
			continue
		}
		// panic(...) / \truntime/panic.go:NNN / caller(...) / \tfile:line +0x..
		if i+3 < len(lines) {
			site := strings.TrimSpace(lines[i+3])
			if j := strings.LastIndex(site, " +0x"); j >= 0 {
				site = site[:j]
			}
			return site
		}
	}
	return ""
}

// LevelNotice is the slog level of notice records: normal but significant
// events, between info and warning, as in syslog. slog has no such level of
// its own; [NewLogHandler] prints it as NOTICE.
const LevelNotice = level.Notice
