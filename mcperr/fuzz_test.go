package mcperr

import (
	"errors"
	"fmt"
	"testing"
)

// The fuzz targets truncate their strings: the plain regexp search they
// compare against, and the messages that stacked wrappers repeat, grow with
// the input, and the fuzzer spends up to -fuzzminimizetime (60s by default)
// minimizing each new input at that speed. Long messages are covered by the
// unit tests. Running with -fuzzminimizetime=10s keeps fuzzing moving.
const (
	fuzzMaxMessage = 256
	fuzzMaxName    = 64
)

func fuzzTruncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// fuzzMessages seed the fuzz targets: one message per pattern row, the
// subtle cases, and strings that stress the folding of foldASCII.
func fuzzMessages() []string {
	msgs := []string{
		"", "x", "something broke", "Invalid auth token format", "invalid token",
		"getaddrinfo ENOTFOUND host", "Request failed with status code 400",
		"not\nlogged in", "not\u00a0authorized", "\u017ftatus code 429", "\u212aey not found",
		"\xc5\xbf", "\xc5", "\xe2\x84\xaa", "\xe2\x84", "\x00", "a\x00b", "\xff\xfe",
		"status code 5", "status code 5\u0661\u0662", "missing\u3000arg", "canceled", "abortedd",
	}
	for _, r := range providerRows {
		msgs = append(msgs, r.msg)
	}
	for _, r := range commonRows {
		msgs = append(msgs, r.msg)
	}
	return msgs
}

// fuzzTypes wrap a message in errors of different type names: the plain
// ones of Go, names that match a pattern, and a Coder-free custom type.
var fuzzTypes = []func(msg string, inner error) error{
	func(msg string, _ error) error { return errors.New(msg) },
	func(msg string, inner error) error { return fmt.Errorf("%s: %w", msg, inner) },
	func(msg string, inner error) error { return errors.Join(errors.New(msg), inner) },
	func(msg string, inner error) error { return &fuzzTimeoutError{msg, inner} },
	func(msg string, inner error) error { return &fuzzNotFoundError{msg, inner} },
	func(msg string, inner error) error { return fuzzPlain{msg, inner} },
}

type fuzzTimeoutError struct {
	msg   string
	inner error
}

func (e *fuzzTimeoutError) Error() string { return e.msg }
func (e *fuzzTimeoutError) Unwrap() error { return e.inner }

type fuzzNotFoundError struct {
	msg   string
	inner error
}

func (e *fuzzNotFoundError) Error() string { return e.msg }
func (e *fuzzNotFoundError) Unwrap() error { return e.inner }

type fuzzPlain struct {
	msg   string
	inner error
}

func (e fuzzPlain) Error() string { return e.msg }
func (e fuzzPlain) Unwrap() error { return e.inner }

// buildFuzzError stacks depth errors whose types shapes picks, each
// carrying msg, on top of errors.New(msg).
func buildFuzzError(msg string, shapes []byte) error {
	err := errors.New(msg)
	for _, s := range shapes {
		err = fuzzTypes[int(s)%len(fuzzTypes)](msg, err)
	}
	return err
}

// FuzzClassify: any message in any chain of types classifies without a
// panic, to a known code, with From and CodeOf agreeing and From keeping
// the scrubbed message and the cause but inventing no data.
func FuzzClassify(f *testing.F) {
	for i, m := range fuzzMessages() {
		f.Add(m, []byte{byte(i), byte(i / 2), byte(i / 3)}[:i%4])
	}
	f.Fuzz(func(t *testing.T, msg string, shapes []byte) {
		msg = fuzzTruncate(msg, fuzzMaxMessage/4)
		if len(shapes) > 2*maxChainDepth {
			shapes = shapes[:2*maxChainDepth]
		}
		err := buildFuzzError(msg, shapes)
		code := CodeOf(err)
		if !code.Known() {
			t.Fatalf("CodeOf(%q, shapes %v) = %v, not a known code", msg, shapes, code)
		}
		e := From(err)
		if e.Code() != code {
			t.Fatalf("From gave %v, CodeOf %v", e.Code(), code)
		}
		if e.Message() != Scrub(err.Error()) || e.Data() != nil || e.Cause() != err {
			t.Fatalf("From kept message %q data %v cause %v", e.Message(), e.Data(), e.Cause())
		}
	})
}

// FuzzMatchPatterns: the needle-filtered search finds what the plain
// ordered search finds, for any message and type name.
func FuzzMatchPatterns(f *testing.F) {
	for _, m := range fuzzMessages() {
		f.Add(m, "")
		f.Add(m, "TimeoutError")
		f.Add("x", m)
	}
	f.Fuzz(func(t *testing.T, msg, name string) {
		msg, name = fuzzTruncate(msg, fuzzMaxMessage), fuzzTruncate(name, fuzzMaxName)
		names := []string{name}
		if name == "" {
			names = nil
		}
		got, gotOK := matchPatterns(msg, names)
		want, wantOK := matchOrdered(msg, names)
		if got != want || gotOK != wantOK {
			t.Fatalf("matchPatterns(%q, %q) = %v %v; matchOrdered = %v %v", msg, name, got, gotOK, want, wantOK)
		}
		if gotOK && !got.Known() {
			t.Fatalf("pattern gave unknown code %v", got)
		}
	})
}

// FuzzFromKeepsError: an *Error's identity, code and data survive any
// number of %w wraps and joins within the walk's depth bound, whatever the
// messages say.
func FuzzFromKeepsError(f *testing.F) {
	f.Add(int32(CodeNotFound), "Item 7 not found", "handler", uint8(0), uint8(0))
	f.Add(int32(CodeRateLimited), "slow down", "timed out", uint8(2), uint8(1))
	f.Add(int32(CodeInternalError), "", "ECONNREFUSED", uint8(5), uint8(3))
	f.Add(int32(-31000), "peer code", "invalid token", uint8(31), uint8(255))
	f.Add(int32(0), "zero code", "context canceled", uint8(200), uint8(170))
	f.Fuzz(func(t *testing.T, code int32, msg, wrapMsg string, depth, joins uint8) {
		msg, wrapMsg = fuzzTruncate(msg, fuzzMaxMessage), fuzzTruncate(wrapMsg, fuzzMaxName)
		e := New(Code(code), msg, WithData(map[string]any{"k": wrapMsg}))
		n := int(depth) % maxChainDepth // the *Error sits at depth n
		var err error = e
		for i := range n {
			if joins&(1<<(i%8)) != 0 {
				// The *Error's branch comes first, so it stays within reach.
				err = errors.Join(err, errors.New(wrapMsg))
			} else {
				err = fmt.Errorf("%s: %w", wrapMsg, err)
			}
		}
		if got := From(err); got != e {
			t.Fatalf("From after %d wraps returned %p (%v), want %p", n, got, got, e)
		}
		if got := CodeOf(err); got != Code(code) {
			t.Fatalf("CodeOf after %d wraps = %v, want %v", n, got, Code(code))
		}
		if e.Data()["k"] != wrapMsg {
			t.Fatal("data changed")
		}
	})
}
