package mcperr

import (
	"context"
	"database/sql"
	"encoding/json"
	"encoding/xml"
	"io"
	"io/fs"
	"net"
	"os"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/seed417024ea/mcpcore/internal/errchain"
)

// A Coder is an error that knows its own code. Implement it on a service's
// error types to classify them without building an [*Error]:
//
//	func (e *QuotaError) ErrorCode() mcperr.Code { return mcperr.CodeRateLimited }
//
// A code this package does not define ([Code.Known] is false), such as
// 12345, is not put on the wire: the error classifies as InternalError,
// with the Coder's error kept as the cause, as anything else [From] cannot
// classify does. It is the check NewServer makes of declared codes, made
// where no registration can catch a mistake; a server of mcpcore logs such
// a failure with the original error's type and message.
type Coder interface {
	error
	ErrorCode() Code
}

// Chain walks are bounded (see internal/errchain) so that a cyclic or
// exploding error tree (an Unwrap that returns its receiver, a join that
// contains itself) cannot hang or exhaust the classifier, which runs on
// every failure path.
const (
	maxChainDepth = errchain.MaxDepth
	maxChainNodes = errchain.MaxNodes
)

// CodeOf returns the code [From] would give err, without building an error.
// CodeOf(nil) is 0, which is not a known code.
func CodeOf(err error) Code {
	if err == nil {
		return 0
	}
	if e, ok := err.(*Error); ok && e != nil {
		return e.code
	}
	r := resolve(err)
	if r.found != nil {
		return r.found.code
	}
	return r.code
}

// From returns err as an [*Error]: the [*Error] found in its chain, as it is
// (the same pointer, its message untouched: it was set deliberately), or a
// new one classified as the package documentation describes, carrying err's
// message scrubbed by [Scrub] and err as its cause, but no data. From(nil) is
// nil.
//
// The message is scrubbed because it reaches the client, and Go's wrapping
// puts a whole chain into it: a password=… from a connection string, a
// *url.Error's ?api_key=…, a rejected Bearer token. Classification reads the
// message before it is scrubbed, so scrubbing never changes the code.
//
// The chain is walked in the order of [errors.As], but at most 32 errors deep
// and 64 errors in all. From never panics: an error whose methods panic
// classifies as InternalError.
func From(err error) *Error {
	if err == nil {
		return nil
	}
	if e, ok := err.(*Error); ok && e != nil {
		return e
	}
	r := resolve(err)
	if r.found != nil {
		return r.found
	}
	if !r.hasMsg {
		r.msg = message(err)
	}
	return &Error{code: r.code, message: Scrub(r.msg), cause: err}
}

// A resolution is what resolve learnt about an error: the *Error in its chain,
// or else its code and, when the patterns needed it, its message.
type resolution struct {
	found  *Error
	code   Code
	msg    string
	hasMsg bool
}

// resolve applies the rules of the package documentation in order.
func resolve(err error) (r resolution) {
	defer func() {
		if recover() != nil {
			// An Unwrap, Is, As, ErrorCode, Timeout or Error method of the
			// caller's panicked: nothing about the error can be trusted.
			r = resolution{code: CodeInternalError}
		}
	}()
	// A wrapped *Error is the common case: find it before paying for the
	// chain's storage.
	if found := errorIn(err); found != nil {
		return resolution{found: found}
	}
	var c chain
	nodes, cut := c.collect(err)
	if cut {
		// What lies past the bounds is unknown, and so is the error: a
		// cycle is a bug, whatever its message says.
		return resolution{code: CodeInternalError}
	}
	// The message is read first: one that cannot be read (see message)
	// makes the error an InternalError, whatever its type says.
	msg := message(err)
	if msg == WithheldMessage {
		return resolution{code: CodeInternalError, msg: msg, hasMsg: true}
	}
	code, ok := coderCode(nodes)
	if !ok {
		code, ok = nativeCode(nodes)
	}
	if !ok {
		var buf [maxChainNodes]string
		if code, ok = matchPatterns(msg, typeNames(nodes, buf[:0])); !ok {
			code = CodeInternalError
		}
	}
	return resolution{code: code, msg: msg, hasMsg: true}
}

// errorIn returns the *Error in err's chain, found as [From] finds it, or
// nil. Code that needs the *Error a failure carries uses it rather than an
// unbounded errors.As, so that it agrees with From on every chain.
func errorIn(err error) (found *Error) {
	defer func() {
		if recover() != nil {
			found = nil
		}
	}()
	errchain.Walk(err, func(n error) bool {
		found = asError(n)
		return found != nil
	})
	return found
}

// chain holds the errors of a tree, as walk visits them. It lives on the
// caller's stack.
type chain struct {
	n     int
	nodes [maxChainNodes]error
}

// collect stores the errors of err's tree and returns them, and whether the
// tree goes on past the bounds.
func (c *chain) collect(err error) ([]error, bool) {
	_, cut := errchain.Walk(err, func(n error) bool {
		c.nodes[c.n] = n
		c.n++
		return false
	})
	return c.nodes[:c.n], cut
}

// asser is the optional method through which errors.As lets an error stand
// for another type.
type asser interface{ As(any) bool }

// asError returns n as a non-nil *Error, directly or through an As method,
// or nil.
func asError(n error) *Error {
	if e, ok := n.(*Error); ok {
		return e
	}
	if a, ok := n.(asser); ok {
		var e *Error
		if a.As(&e) {
			return e
		}
	}
	return nil
}

// coderCode returns the code of the first Coder of nodes: rule 2.
func coderCode(nodes []error) (Code, bool) {
	var code Code
	ok := anyAs(nodes, func(c Coder) bool {
		code = c.ErrorCode()
		return true
	})
	if ok && !code.Known() {
		// A code of no meaning to a client is a bug in the service.
		code = CodeInternalError
	}
	return code, ok
}

// anyAs reports whether some error of nodes is, or through an As method can
// stand for, a T that satisfies pred.
func anyAs[T any](nodes []error, pred func(T) bool) bool {
	for _, n := range nodes {
		if t, ok := n.(T); ok && pred(t) {
			return true
		}
		if a, ok := n.(asser); ok {
			var t T
			// any(t) is nil when a careless As reported success but set
			// nothing into an interface T.
			if a.As(&t) && any(t) != nil && pred(t) {
				return true
			}
		}
	}
	return false
}

// isAny reports whether some error of nodes is one of targets, by equality
// or through an Is method, as errors.Is decides.
func isAny(nodes []error, targets ...error) bool {
	for _, n := range nodes {
		is, hasIs := n.(interface{ Is(error) bool })
		for _, t := range targets {
			// Comparing interfaces panics only for equal, incomparable
			// dynamic types; every target here is comparable.
			if n == t || hasIs && is.Is(t) {
				return true
			}
		}
	}
	return false
}

func always[T any](T) bool { return true }

// nativeCode classifies the errors of Go's standard library: rule 3 of the
// package documentation, row by row.
func nativeCode(nodes []error) (Code, bool) {
	switch {
	case isAny(nodes, context.Canceled):
		return CodeRequestCancelled, true
	// A DNS failure is an unreachable upstream even when it timed out.
	case anyAs(nodes, always[*net.DNSError]):
		return CodeServiceUnavailable, true
	case isAny(nodes, context.DeadlineExceeded, os.ErrDeadlineExceeded),
		anyAs(nodes, func(e net.Error) bool { return e.Timeout() }):
		return CodeTimeout, true
	// An input cut short is, in a server, an upstream's answer that did not
	// arrive whole (its connection dropped mid-body): a failure of the
	// upstream, which a retry can fetch whole, not of the server's code.
	case isAny(nodes, syscall.ECONNREFUSED, syscall.ECONNRESET, io.ErrUnexpectedEOF):
		return CodeServiceUnavailable, true
	case isAny(nodes, fs.ErrNotExist, sql.ErrNoRows):
		return CodeNotFound, true
	case isAny(nodes, fs.ErrPermission):
		return CodeForbidden, true
	case isAny(nodes, fs.ErrExist):
		return CodeConflict, true
	case anyAs(nodes, always[*json.SyntaxError]),
		anyAs(nodes, always[*json.UnmarshalTypeError]),
		anyAs(nodes, always[*xml.SyntaxError]):
		return CodeSerializationError, true
	case anyAs(nodes, always[*strconv.NumError]):
		return CodeValidationError, true
	}
	return 0, false
}

// typeNames appends to names the type name of each error of nodes, pointers
// dereferenced, so that a *TimeoutError contributes "TimeoutError". Unnamed
// types and repeats are left out: they can only repeat a match or a miss.
func typeNames(nodes []error, names []string) []string {
outer:
	for _, n := range nodes {
		t := reflect.TypeOf(n)
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		name := t.Name()
		if name == "" {
			continue
		}
		for _, seen := range names {
			if seen == name {
				continue outer
			}
		}
		names = append(names, name)
	}
	return names
}

// message returns err.Error(), or [WithheldMessage] when Error panics or
// its text carries what fmt printed of a panic in a method of an error it
// wrapped (fmt.Errorf("…: %w", e) calls e.Error() and keeps, in its text,
// the panic's value, which can be anything the program held).
func message(err error) (msg string) {
	defer func() {
		if recover() != nil {
			msg = WithheldMessage
		}
	}()
	if msg = err.Error(); HasPanicText(msg) {
		return WithheldMessage
	}
	return msg
}

// WithheldMessage is the message of an auto-classified error whose own
// message could not be read: its Error method panicked, or its text holds
// the value of a panic (see [HasPanicText]). Such an error is an
// InternalError.
const WithheldMessage = "An internal error occurred: the error's message could not be read."

// HasPanicText reports whether s holds fmt's rendering of a panic in an
// Error or String method, such as "%!v(PANIC=Error method: …)": fmt
// recovers such a panic and prints its value where the text would have
// been, so the value of whatever panicked ends up in the message.
func HasPanicText(s string) bool {
	for {
		i := strings.Index(s, "(PANIC=")
		if i < 0 {
			return false
		}
		// %!v(PANIC=: the verb is one rune, after "%!".
		if j := strings.LastIndex(s[:i], "%!"); j >= 0 && i-j <= 2+utf8.UTFMax {
			return true
		}
		s = s[i+len("(PANIC="):]
	}
}
