package mcperr

import (
	"context"
	"database/sql"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode"
)

// checkClassified asserts what From and CodeOf make of an error that holds
// no *Error: the code, err's own message, no data, err as the cause.
func checkClassified(t *testing.T, err error, want Code) {
	t.Helper()
	if got := CodeOf(err); got != want {
		t.Errorf("CodeOf(%T %q) = %v, want %v", err, err.Error(), got, want)
	}
	e := From(err)
	if e.Code() != want {
		t.Errorf("From(%T %q).Code() = %v, want %v", err, err.Error(), e.Code(), want)
	}
	if want := Scrub(err.Error()); e.Message() != want {
		t.Errorf("From: message %q, want %q", e.Message(), want)
	}
	if e.Data() != nil {
		t.Errorf("From: data %v, want none (classification never invents data)", e.Data())
	}
	if e.Cause() != err || !errors.Is(e, err) {
		t.Errorf("From: cause %v, want the original error", e.Cause())
	}
	if b, _ := json.Marshal(e); strings.Contains(string(b), `"data"`) {
		t.Errorf("From: wire form %s carries data", b)
	}
}

func TestNil(t *testing.T) {
	if got := CodeOf(nil); got != 0 {
		t.Errorf("CodeOf(nil) = %v, want 0", got)
	}
	if got := From(nil); got != nil {
		t.Errorf("From(nil) = %v, want nil", got)
	}
}

// Rule 1: an *Error anywhere in the chain is returned as it is.
func TestFromKeepsError(t *testing.T) {
	e := NotFound("Item 7 not found", WithData(map[string]any{"itemId": "7"}))
	other := errors.New("other")
	chains := map[string]error{
		"itself":               e,
		"wrapped":              fmt.Errorf("handler: %w", e),
		"wrapped twice":        fmt.Errorf("a: %w", fmt.Errorf("b: %w", e)),
		"joined second":        errors.Join(other, e),
		"in %w %w":             fmt.Errorf("%w and %w", other, e),
		"under a Coder":        &coderErr{code: CodeRateLimited, err: e},
		"beside a native":      errors.Join(context.Canceled, e),
		"cause of a url.Error": &url.Error{Op: "Get", URL: "http://x", Err: e},
		"behind an As method":  asErr{target: e},
	}
	for name, err := range chains {
		t.Run(name, func(t *testing.T) {
			if got := From(err); got != e {
				t.Errorf("From returned %p %v, want the *Error %p itself", got, got, e)
			}
			if got := CodeOf(err); got != CodeNotFound {
				t.Errorf("CodeOf = %v, want NotFound", got)
			}
		})
	}
	// The first *Error in errors.As order wins.
	first, second := Conflict("first"), Timeout("second")
	if got := From(errors.Join(fmt.Errorf("x: %w", first), second)); got != first {
		t.Errorf("From picked %v, want the first *Error in pre-order", got)
	}
	if got := From(Conflict("outer", WithCause(second))); got.Code() != CodeConflict {
		t.Errorf("From picked %v, want the outer *Error", got)
	}
}

func TestFromAllocatesNothingForError(t *testing.T) {
	e := NotFound("m")
	for name, err := range map[string]error{
		"itself":        e,
		"wrapped twice": fmt.Errorf("a: %w", fmt.Errorf("b: %w", e)),
		"joined":        errors.Join(errors.New("x"), e),
	} {
		if n := testing.AllocsPerRun(100, func() { sinkError = From(err) }); n != 0 {
			t.Errorf("From(%s) allocates %v times, want 0", name, n)
		}
		if n := testing.AllocsPerRun(100, func() { sinkCode = CodeOf(err) }); n != 0 {
			t.Errorf("CodeOf(%s) allocates %v times, want 0", name, n)
		}
	}
}

type coderErr struct {
	code Code
	err  error
}

func (e *coderErr) Error() string   { return "coder: " + e.err.Error() }
func (e *coderErr) ErrorCode() Code { return e.code }
func (e *coderErr) Unwrap() error   { return e.err }

// asErr stands for target through an As method, as errors.As allows.
type asErr struct{ target any }

func (asErr) Error() string { return "as" }
func (e asErr) As(target any) bool {
	v := reflect.ValueOf(target).Elem()
	t := reflect.ValueOf(e.target)
	if !t.IsValid() || !t.Type().AssignableTo(v.Type()) {
		return false
	}
	v.Set(t)
	return true
}

// Rule 2: a Coder reports its own code, before Go's own errors and patterns.
func TestCoder(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want Code
	}{
		{"alone", &coderErr{CodeRateLimited, errors.New("not found")}, CodeRateLimited},
		{"wrapped", fmt.Errorf("svc: %w", &coderErr{CodeConflict, errors.New("x")}), CodeConflict},
		{"beats context.Canceled below it", &coderErr{CodeConflict, context.Canceled}, CodeConflict},
		{"beats context.Canceled beside it", errors.Join(context.Canceled, &coderErr{CodeConflict, errors.New("x")}), CodeConflict},
		// An unknown code is a bug, as NewServer holds a declared one to be.
		{"unknown code", &coderErr{Code(12345), errors.New("x")}, CodeInternalError},
		{"unknown code in the server range", &coderErr{Code(-31000), errors.New("x")}, CodeInternalError},
		{"zero code", &coderErr{Code(0), errors.New("x")}, CodeInternalError},
		{"unknown code beats the patterns", &coderErr{Code(12345), errors.New("not found")}, CodeInternalError},
		{"behind an As method", asErr{target: Coder(&coderErr{CodeForbidden, errors.New("x")})}, CodeForbidden},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { checkClassified(t, tc.err, tc.want) })
	}
}

// realErrors produces the errors of rule 3 the way Go's packages do.
type realErrors struct{ t *testing.T }

func (r realErrors) closedPortDial() error {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		r.t.Skip("no loopback:", err)
	}
	addr := l.Addr().String()
	l.Close()
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err == nil {
		c.Close()
		r.t.Skip("a closed port accepted a connection")
	}
	return err
}

// resetRead reads from a connection whose peer closed it with an RST.
func (r realErrors) resetRead() error {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		r.t.Skip("no loopback:", err)
	}
	defer l.Close()
	go func() {
		c, err := l.Accept()
		if err != nil {
			return
		}
		// Wait for the client's byte, so the RST cannot race the handshake.
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		c.Read(make([]byte, 1))
		c.(*net.TCPConn).SetLinger(0)
		c.Close()
	}()
	c, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		r.t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte{1}); err != nil {
		if errors.Is(err, syscall.ECONNRESET) {
			return err // the RST won the race with the write: just as real
		}
		r.t.Fatal(err)
	}
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, err = c.Read(make([]byte, 1))
	if !errors.Is(err, syscall.ECONNRESET) {
		r.t.Skipf("read after RST gave %v, not ECONNRESET", err)
	}
	return err
}

func (r realErrors) pipeDeadline() error {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	a.SetReadDeadline(time.Now().Add(-time.Second))
	_, err := a.Read(make([]byte, 1))
	return err
}

func (r realErrors) tcpDeadline() error {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		r.t.Skip("no loopback:", err)
	}
	defer l.Close()
	c, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		r.t.Fatal(err)
	}
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(-time.Second))
	_, err = c.Read(make([]byte, 1))
	return err
}

func (r realErrors) cancelledDial() error {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", "127.0.0.1:1")
	if err == nil {
		c.Close()
		r.t.Skip("a cancelled dial succeeded")
	}
	return err
}

func (r realErrors) openMissing() error {
	_, err := os.Open(filepath.Join(r.t.TempDir(), "missing.txt"))
	return err
}

func (r realErrors) mkdirExisting() error {
	return os.Mkdir(r.t.TempDir(), 0o755)
}

func (r realErrors) createExclusiveExisting() error {
	p := filepath.Join(r.t.TempDir(), "f")
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		r.t.Fatal(err)
	}
	_, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	return err
}

// linkDirectory makes a hard link to a directory, which Unix refuses with
// EPERM even to root (tests may run as root, where EACCES is unreachable).
func (r realErrors) linkDirectory() error {
	dir := r.t.TempDir()
	err := os.Link(dir, filepath.Join(r.t.TempDir(), "link"))
	if err == nil {
		r.t.Skip("this system links directories")
	}
	return err
}

func (r realErrors) jsonSyntax() error {
	var v any
	return json.Unmarshal([]byte(`{"a":}`), &v)
}

func (r realErrors) jsonTruncated() error {
	var v any
	return json.Unmarshal([]byte(`{"a":`), &v)
}

// cutBody serves a response that promises more body than it sends, then
// hangs up, and returns the client's read of it by read.
func (r realErrors) cutBody(read func(io.Reader) error) error {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Length", "100")
		w.Write([]byte(`{"items":[1,2`))
		w.(http.Flusher).Flush()
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	}))
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		r.t.Fatal(err)
	}
	defer resp.Body.Close()
	return read(resp.Body)
}

// truncatedBody reads an upstream's body cut short, as io.ReadAll does.
func (r realErrors) truncatedBody() error {
	return r.cutBody(func(body io.Reader) error {
		_, err := io.ReadAll(body)
		return err
	})
}

// truncatedDecode decodes an upstream's body cut short, as a client that
// streams it into json.Decoder does.
func (r realErrors) truncatedDecode() error {
	return r.cutBody(func(body io.Reader) error {
		var v any
		return json.NewDecoder(body).Decode(&v)
	})
}

func (r realErrors) jsonType() error {
	var v struct{ N int }
	return json.Unmarshal([]byte(`{"N":"seven"}`), &v)
}

func (r realErrors) jsonDecoder() error {
	var v any
	return json.NewDecoder(strings.NewReader(`[1,,]`)).Decode(&v)
}

func (r realErrors) xmlSyntax() error {
	var v struct{}
	return xml.Unmarshal([]byte(`<a><b></a>`), &v)
}

func (r realErrors) atoi() error {
	_, err := strconv.Atoi("seven")
	return err
}

func (r realErrors) parseFloatRange() error {
	_, err := strconv.ParseFloat("1e400", 64)
	return err
}

func (r realErrors) deadline() error {
	ctx, cancel := context.WithTimeout(context.Background(), 0)
	defer cancel()
	<-ctx.Done()
	return ctx.Err()
}

func (r realErrors) cancelled() error {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx.Err()
}

func (r realErrors) cancelledCause() error {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("client went away"))
	return context.Cause(ctx) // the cause replaces context.Canceled
}

// netErr is a net.Error as third-party clients define them.
type netErr struct{ timeout bool }

func (e netErr) Error() string   { return "i/o wait over" }
func (e netErr) Timeout() bool   { return e.timeout }
func (e netErr) Temporary() bool { return false }

// Rule 3: Go's own errors, each obtained as the standard library produces it.
func TestNativeErrors(t *testing.T) {
	dnsNotFound := &net.DNSError{Err: "no such host", Name: "api.example.invalid", IsNotFound: true}
	dnsTimeout := &net.DNSError{Err: "i/o timeout", Name: "api.example.com", Server: "10.0.0.1:53", IsTimeout: true}
	tests := []struct {
		name string
		err  func(realErrors) error
		want Code
	}{
		{"context.Canceled", realErrors.cancelled, CodeRequestCancelled},
		{"context.Canceled wrapped", func(r realErrors) error { return fmt.Errorf("load: %w", r.cancelled()) }, CodeRequestCancelled},
		{"dial with a cancelled context", realErrors.cancelledDial, CodeRequestCancelled},
		// A custom cancel cause is whatever the canceller said, not Canceled.
		{"context.Cause of a cancelled context", realErrors.cancelledCause, CodeInternalError},

		{"*net.DNSError not found", func(realErrors) error { return dnsNotFound }, CodeServiceUnavailable},
		{"*net.DNSError in *net.OpError", func(realErrors) error {
			return &net.OpError{Op: "dial", Net: "tcp", Err: dnsNotFound}
		}, CodeServiceUnavailable},
		{"*net.DNSError timeout is ServiceUnavailable", func(realErrors) error { return dnsTimeout }, CodeServiceUnavailable},
		{"*net.DNSError timeout under url.Error", func(realErrors) error {
			return &url.Error{Op: "Get", URL: "https://api.example.com", Err: &net.OpError{Op: "dial", Net: "tcp", Err: dnsTimeout}}
		}, CodeServiceUnavailable},

		{"context.DeadlineExceeded", realErrors.deadline, CodeTimeout},
		{"os.ErrDeadlineExceeded from net.Pipe", realErrors.pipeDeadline, CodeTimeout},
		{"read deadline on TCP", realErrors.tcpDeadline, CodeTimeout},
		{"os.ErrDeadlineExceeded wrapped", func(realErrors) error { return fmt.Errorf("read: %w", os.ErrDeadlineExceeded) }, CodeTimeout},
		{"net.Error with Timeout true", func(realErrors) error { return netErr{true} }, CodeTimeout},
		{"net.Error with Timeout false", func(realErrors) error { return netErr{false} }, CodeInternalError},
		{"url.Error over a timeout", func(realErrors) error {
			return &url.Error{Op: "Post", URL: "https://api.example.com", Err: netErr{true}}
		}, CodeTimeout},
		{"syscall.ETIMEDOUT is a net.Error timeout", func(realErrors) error {
			return &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ETIMEDOUT)}
		}, CodeTimeout},

		{"ECONNREFUSED dialling a closed port", realErrors.closedPortDial, CodeServiceUnavailable},
		{"ECONNREFUSED as net builds it", func(realErrors) error {
			return &net.OpError{Op: "dial", Net: "tcp", Addr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1},
				Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
		}, CodeServiceUnavailable},
		{"ECONNRESET reading after an RST", realErrors.resetRead, CodeServiceUnavailable},
		{"ECONNRESET as net builds it", func(realErrors) error {
			return &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}
		}, CodeServiceUnavailable},

		{"fs.ErrNotExist from os.Open", realErrors.openMissing, CodeNotFound},
		{"fs.ErrNotExist itself", func(realErrors) error { return fs.ErrNotExist }, CodeNotFound},
		{"sql.ErrNoRows wrapped", func(realErrors) error { return fmt.Errorf("user 7: %w", sql.ErrNoRows) }, CodeNotFound},

		{"fs.ErrPermission from linking a directory", realErrors.linkDirectory, CodeForbidden},
		{"fs.ErrPermission as os builds it", func(realErrors) error {
			return &fs.PathError{Op: "open", Path: "/etc/shadow", Err: syscall.EACCES}
		}, CodeForbidden},

		{"fs.ErrExist from os.Mkdir", realErrors.mkdirExisting, CodeConflict},
		{"fs.ErrExist from O_EXCL", realErrors.createExclusiveExisting, CodeConflict},

		{"*json.SyntaxError", realErrors.jsonSyntax, CodeSerializationError},
		{"*json.SyntaxError truncated", realErrors.jsonTruncated, CodeSerializationError},
		{"*json.SyntaxError from a Decoder", realErrors.jsonDecoder, CodeSerializationError},
		{"*json.UnmarshalTypeError", realErrors.jsonType, CodeSerializationError},
		{"upstream body cut short, read whole", realErrors.truncatedBody, CodeServiceUnavailable},
		{"upstream body cut short, decoded as a stream", realErrors.truncatedDecode, CodeServiceUnavailable},
		{"io.ErrUnexpectedEOF wrapped", func(realErrors) error {
			return fmt.Errorf("reading the search response: %w", io.ErrUnexpectedEOF)
		}, CodeServiceUnavailable},
		{"*xml.SyntaxError", realErrors.xmlSyntax, CodeSerializationError},

		{"*strconv.NumError syntax", realErrors.atoi, CodeValidationError},
		{"*strconv.NumError range", realErrors.parseFloatRange, CodeValidationError},
		{"*strconv.NumError wrapped", func(r realErrors) error { return fmt.Errorf("page: %w", r.atoi()) }, CodeValidationError},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { checkClassified(t, tc.err(realErrors{t}), tc.want) })
	}
}

// The types above are the real ones, so a change in the standard library
// that moved them would show here rather than pass silently.
func TestNativeErrorsAreRealTypes(t *testing.T) {
	r := realErrors{t}
	var (
		op   *net.OpError
		path *fs.PathError
		syn  *json.SyntaxError
		typ  *json.UnmarshalTypeError
		xsyn *xml.SyntaxError
		num  *strconv.NumError
		link *os.LinkError
	)
	checks := []struct {
		name string
		ok   bool
	}{
		{"dial: *net.OpError", errors.As(r.closedPortDial(), &op)},
		{"dial: ECONNREFUSED", errors.Is(r.closedPortDial(), syscall.ECONNREFUSED)},
		{"open: *fs.PathError", errors.As(r.openMissing(), &path)},
		{"pipe: os.ErrDeadlineExceeded", errors.Is(r.pipeDeadline(), os.ErrDeadlineExceeded)},
		{"tcp: os.ErrDeadlineExceeded", errors.Is(r.tcpDeadline(), os.ErrDeadlineExceeded)},
		{"json: *json.SyntaxError", errors.As(r.jsonSyntax(), &syn)},
		{"json: *json.UnmarshalTypeError", errors.As(r.jsonType(), &typ)},
		{"xml: *xml.SyntaxError", errors.As(r.xmlSyntax(), &xsyn)},
		{"atoi: *strconv.NumError", errors.As(r.atoi(), &num)},
		{"link: *os.LinkError", errors.As(r.linkDirectory(), &link)},
		{"link: fs.ErrPermission", errors.Is(r.linkDirectory(), fs.ErrPermission)},
		{"cut body: io.ErrUnexpectedEOF", errors.Is(r.truncatedBody(), io.ErrUnexpectedEOF)},
		{"cut body decoded: io.ErrUnexpectedEOF", errors.Is(r.truncatedDecode(), io.ErrUnexpectedEOF)},
		{"dial: context.Canceled", errors.Is(r.cancelledDial(), context.Canceled)},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s: not so", c.name)
		}
	}
}

// The rows of rule 3 apply in the documented order when several match.
func TestNativeOrder(t *testing.T) {
	dnsTimeout := &net.DNSError{Err: "i/o timeout", Name: "x", IsTimeout: true}
	tests := []struct {
		name string
		err  error
		want Code
	}{
		{"Canceled before DeadlineExceeded", errors.Join(context.DeadlineExceeded, context.Canceled), CodeRequestCancelled},
		{"Canceled before DNS", errors.Join(&net.DNSError{Err: "x", Name: "y"}, context.Canceled), CodeRequestCancelled},
		{"DNS before deadline", errors.Join(context.DeadlineExceeded, dnsTimeout), CodeServiceUnavailable},
		{"timeout before refused", errors.Join(syscall.ECONNREFUSED, os.ErrDeadlineExceeded), CodeTimeout},
		{"refused before not-exist", errors.Join(fs.ErrNotExist, syscall.ECONNREFUSED), CodeServiceUnavailable},
		{"not-exist before permission", errors.Join(fs.ErrPermission, sql.ErrNoRows), CodeNotFound},
		{"permission before exist", errors.Join(fs.ErrExist, fs.ErrPermission), CodeForbidden},
		{"exist before json", errors.Join(&json.SyntaxError{}, fs.ErrExist), CodeConflict},
		{"json before strconv", errors.Join(&strconv.NumError{Func: "Atoi", Num: "x", Err: strconv.ErrSyntax}, &json.SyntaxError{}), CodeSerializationError},
		// Rule 3 runs before the patterns, whatever the message says.
		{"context canceled is not the pattern's Timeout", context.Canceled, CodeRequestCancelled},
		{"a NumError saying timed out", fmt.Errorf("timed out: %w", &strconv.NumError{Func: "Atoi", Num: "x", Err: strconv.ErrSyntax}), CodeValidationError},
		{"a SyntaxError saying unauthorized", fmt.Errorf("unauthorized: %w", &json.SyntaxError{}), CodeSerializationError},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { checkClassified(t, tc.err, tc.want) })
	}
}

// isErr matches its target through an Is method only, as errors.Is allows.
type isErr struct{ target error }

func (isErr) Error() string          { return "is" }
func (e isErr) Is(target error) bool { return target == e.target }
func (e isErr) Unwrap() error        { return nil }
func TestNativeThroughIsMethod(t *testing.T) {
	checkClassified(t, isErr{sql.ErrNoRows}, CodeNotFound)
	checkClassified(t, isErr{context.Canceled}, CodeRequestCancelled)
	checkClassified(t, asErr{target: &strconv.NumError{Func: "Atoi", Num: "x", Err: strconv.ErrSyntax}}, CodeValidationError)
}

// providerRows are the provider patterns of reference §7.2, in order, each
// alternative with a message of the kind its SDK produces.
var providerRows = []struct {
	row  int
	msg  string
	want Code
}{
	{1, "ThrottlingException: Rate exceeded", CodeRateLimited},
	{1, "TooManyRequestsException: slow down", CodeRateLimited},
	{2, "AccessDenied: User is not allowed", CodeForbidden},
	{2, "UnauthorizedOperation: You are not authorized to perform this operation.", CodeForbidden},
	{3, "ResourceNotFoundException: Requested resource not found", CodeNotFound},
	{4, "Request failed with status code 401", CodeUnauthorized},
	{5, "Request failed with status code 403", CodeForbidden},
	{6, "Request failed with status code 404", CodeNotFound},
	{7, "Request failed with status code 409", CodeConflict},
	{8, "Request failed with status code 429", CodeRateLimited},
	{9, "Request failed with status code 503", CodeServiceUnavailable},
	{9, "Request failed with status code 500", CodeServiceUnavailable},
	{10, "connect ECONNREFUSED 127.0.0.1:5432", CodeServiceUnavailable},
	{10, "dial tcp 127.0.0.1:6379: connection refused", CodeServiceUnavailable},
	{11, "connect ETIMEDOUT 10.0.0.1:443", CodeTimeout},
	{11, "Connection timeout after 5000ms", CodeTimeout},
	{12, `pq: duplicate key value violates unique constraint "users_email_key"`, CodeConflict},
	{12, "UNIQUE constraint failed: users.email", CodeConflict},
	{13, `insert or update on table "orders" violates foreign key constraint "orders_user_id_fkey"`, CodeValidationError},
	{14, "JWT expired at 2026-01-01T00:00:00Z", CodeUnauthorized},
	{15, `new row violates row level security policy for table "notes"`, CodeForbidden},
	{16, "You exceeded your current quota: insufficient_quota", CodeRateLimited},
	{16, "Daily quota exceeded for project", CodeRateLimited},
	{17, "The model `gpt-9` does not exist (model_not_found)", CodeNotFound},
	{18, "This model's maximum context length is 8192 tokens (context_length_exceeded)", CodeValidationError},
	{19, "getaddrinfo ENOTFOUND api.example.com", CodeServiceUnavailable},
	{19, "DNS resolution failed for api.example.com", CodeServiceUnavailable},
	{20, "read ECONNRESET", CodeServiceUnavailable},
	{20, "socket hang up: connection reset by peer", CodeServiceUnavailable},
}

// commonRows are the common patterns of reference §7.2, in order, each
// alternative with a message that no earlier row matches.
var commonRows = []struct {
	row  int
	msg  string
	want Code
}{
	{1, "Unauthorized", CodeUnauthorized},
	{1, "request unauthenticated", CodeUnauthorized},
	{1, "User is not authorized", CodeUnauthorized},
	{1, "you are not logged in", CodeUnauthorized},
	{1, "invalid token", CodeUnauthorized},
	{1, "invalid_token", CodeUnauthorized},
	{1, "Expired-Token", CodeUnauthorized},
	{2, "permission denied for table notes", CodeForbidden},
	{2, "403 Forbidden", CodeForbidden},
	{2, "access to the bucket was denied", CodeForbidden},
	{2, "this action is not allowed", CodeForbidden},
	{3, "Item not found", CodeNotFound},
	{3, "ENOENT: no such file or directory", CodeNotFound},
	{3, "the page doesn't exist", CodeNotFound},
	{3, "couldn't find the record", CodeNotFound},
	{4, "Invalid type", CodeValidationError},
	{4, "validation of the payload", CodeValidationError},
	{4, "malformed header", CodeValidationError},
	{4, "400 Bad Request", CodeValidationError},
	{4, "date in the wrong format", CodeValidationError},
	{4, "missing required field: name", CodeValidationError},
	{4, "missing param id", CodeValidationError},
	{4, "missing  field", CodeValidationError},
	{4, "missing input", CodeValidationError},
	{4, "missing value for x", CodeValidationError},
	{4, "missing argument", CodeValidationError},
	{5, "edit conflict on page 7", CodeConflict},
	{5, "user already exists", CodeConflict},
	{5, "duplicate entry", CodeConflict},
	{6, "rate limit reached", CodeRateLimited},
	{6, "429 Too Many Requests", CodeRateLimited},
	{6, "request throttled", CodeRateLimited},
	{7, "upstream timeout", CodeTimeout},
	{7, "request timed out", CodeTimeout},
	{7, "deadline exceeded while waiting", CodeTimeout},
	{8, "This operation was aborted", CodeTimeout},
	{8, "signal abort", CodeTimeout},
	{8, "cancelled", CodeTimeout},
	{8, "job canceled by user", CodeTimeout},
	{9, "503 Service Unavailable", CodeServiceUnavailable},
	{9, "502 Bad Gateway", CodeServiceUnavailable},
	{9, "the payment provider returned an upstream error", CodeServiceUnavailable},
	{10, "zod parse", CodeValidationError},
	{10, "ZodError: expected string", CodeValidationError},
}

func TestProviderPatterns(t *testing.T) {
	if len(providerPatterns()) != 20 {
		t.Fatalf("%d provider patterns, want the 20 of the reference", len(providerPatterns()))
	}
	seen := map[int]bool{}
	for _, tc := range providerRows {
		seen[tc.row] = true
		t.Run(tc.msg, func(t *testing.T) {
			if p := providerPatterns()[tc.row-1]; !p.re.MatchString(tc.msg) || p.code != tc.want {
				t.Errorf("row %d (%s → %v) does not give %v for this message", tc.row, p.re, p.code, tc.want)
			}
			checkClassified(t, errors.New(tc.msg), tc.want)
		})
	}
	for i := 1; i <= len(providerPatterns()); i++ {
		if !seen[i] {
			t.Errorf("provider row %d has no test message", i)
		}
	}
}

func TestCommonPatterns(t *testing.T) {
	if len(commonPatterns()) != 10 {
		t.Fatalf("%d common patterns, want the 10 of the reference", len(commonPatterns()))
	}
	seen := map[int]bool{}
	for _, tc := range commonRows {
		seen[tc.row] = true
		t.Run(tc.msg, func(t *testing.T) {
			if p := commonPatterns()[tc.row-1]; !p.re.MatchString(tc.msg) || p.code != tc.want {
				t.Errorf("row %d (%s → %v) does not give %v for this message", tc.row, p.re, p.code, tc.want)
			}
			for _, p := range providerPatterns() {
				if p.re.MatchString(tc.msg) {
					t.Errorf("provider pattern %s also matches: pick a message that tests the common row", p.re)
				}
			}
			for _, p := range commonPatterns()[:tc.row-1] {
				if p.re.MatchString(tc.msg) {
					t.Errorf("earlier common pattern %s also matches: pick a message that tests row %d", p.re, tc.row)
				}
			}
			checkClassified(t, errors.New(tc.msg), tc.want)
		})
	}
	for i := 1; i <= len(commonPatterns()); i++ {
		if !seen[i] {
			t.Errorf("common row %d has no test message", i)
		}
	}
}

// The subtle cases of reference §7.3 and vector 23 that apply to Go.
func TestPatternSubtleties(t *testing.T) {
	tests := []struct {
		msg  string
		want Code
	}{
		{"Invalid auth token format", CodeValidationError}, // "auth" breaks invalid\s+token
		{"invalid token", CodeUnauthorized},                // common 1 precedes 4
		{"User is not authorized", CodeUnauthorized},
		{"missing required field: name", CodeValidationError},
		{"status code 429", CodeRateLimited},
		{"ECONNREFUSED", CodeServiceUnavailable},
		{"request timed out", CodeTimeout},
		{"cancelled", CodeTimeout}, // a message; context.Canceled is RequestCancelled
		{"raw string error", CodeInternalError},
		{"bad", CodeInternalError},
		{"Invalid type", CodeValidationError},
		{"something broke", CodeInternalError},
		{"ENOENT: no such file", CodeNotFound},
		{"getaddrinfo ENOTFOUND host", CodeServiceUnavailable}, // provider 19 precedes "not found"
		{"update the DNSSEC record", CodeServiceUnavailable},   // "dns" anywhere
		{"Request failed with status code 400", CodeInternalError},
		{"Request failed with status code 501", CodeServiceUnavailable}, // unlike the HTTP table
		{"This operation was aborted", CodeTimeout},
		{"NotFoundError", CodeInternalError}, // no space: no match
		{"NOT FOUND", CodeNotFound},
		{"Connection Refused", CodeServiceUnavailable},
		{"status code 4290", CodeRateLimited}, // substring search, no boundaries
		{"status code 5x0", CodeInternalError},
		{"statuscode 500", CodeInternalError},
		// . stops at line terminators, as in JavaScript.
		{"not\nlogged in", CodeInternalError},
		{"not\rlogged in", CodeInternalError},
		{"not\u2028logged in", CodeInternalError},
		{"not yet logged in", CodeUnauthorized},
		{"access\ndenied", CodeInternalError},
		// \s is JavaScript's: Unicode spaces, \v and U+FEFF count.
		{"not\u00a0authorized", CodeUnauthorized},
		{"missing\u2003field", CodeValidationError},
		{"invalid\vtoken", CodeUnauthorized},
		{"expired\ufefftoken", CodeUnauthorized},
		{"not\u200bauthorized", CodeInternalError}, // U+200B is no space to JavaScript
		// RE2 folds case by Unicode: a documented difference from JavaScript.
		{"\u017ftatus code 429", CodeRateLimited},
		{"\u212aey not found", CodeNotFound},
		{"", CodeInternalError},
		// Alternatives that an earlier row shadows, kept for parity.
		{"504 Gateway Timeout", CodeTimeout},              // common 7 before 9
		{"schema validation failed", CodeValidationError}, // common 4 before 10
		{"ZodError", CodeValidationError},                 // "zod" before "zoderror"
		{"duplicate key value", CodeConflict},             // provider 12 before common 5
		{"Unauthorized: status code 403", CodeForbidden},  // provider before common
		{"resource not found: status code 401", CodeUnauthorized},
	}
	for _, tc := range tests {
		t.Run(tc.msg, func(t *testing.T) { checkClassified(t, errors.New(tc.msg), tc.want) })
	}
}

// Type names: patterns run against the name of each error type in the chain,
// pointers dereferenced. Local types embed error for their Error method.
func TestTypeNames(t *testing.T) {
	type TimeoutError struct{ error }
	type ValidationError struct{ error }
	type UnauthorizedError struct{ error }
	type ForbiddenError struct{ error }
	type ConflictError struct{ error }
	type NotFoundError struct{ error }
	type AbortError struct{ error }
	type ThrottlingException struct{ error }
	type ZodError struct{ error }
	plain := errors.New("something broke")
	tests := []struct {
		name string
		err  error
		want Code
	}{
		{"*TimeoutError", &TimeoutError{plain}, CodeTimeout},
		{"TimeoutError value", TimeoutError{plain}, CodeTimeout},
		{"ValidationError", &ValidationError{plain}, CodeValidationError},
		{"UnauthorizedError", &UnauthorizedError{plain}, CodeUnauthorized},
		{"ForbiddenError", &ForbiddenError{plain}, CodeForbidden},
		{"ConflictError", &ConflictError{plain}, CodeConflict},
		{"NotFoundError does not match", &NotFoundError{plain}, CodeInternalError},
		{"AbortError", &AbortError{plain}, CodeTimeout},
		{"ThrottlingException", &ThrottlingException{plain}, CodeRateLimited},
		{"ZodError", ZodError{plain}, CodeValidationError},
		{"deep in the chain", fmt.Errorf("a: %w", fmt.Errorf("b: %w", &TimeoutError{plain})), CodeTimeout},
		{"in a join", errors.Join(plain, &ConflictError{plain}), CodeConflict},
		{"in a multi-%w", fmt.Errorf("%w; %w", plain, &ForbiddenError{plain}), CodeForbidden},
		// For each pattern the message goes first, then the names; but the
		// pattern order decides before that.
		{"message of an earlier pattern beats a name", &TimeoutError{errors.New("invalid input")}, CodeValidationError},
		{"name of an earlier pattern beats a message", &UnauthorizedError{errors.New("request timed out")}, CodeUnauthorized},
		{"a provider name beats a common message", &ThrottlingException{errors.New("Item not found")}, CodeRateLimited},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { checkClassified(t, tc.err, tc.want) })
	}
}

func TestTypeNamesOnce(t *testing.T) {
	type TimeoutError struct{ error }
	x := &TimeoutError{errors.New("x")}
	got := typeNames([]error{x, TimeoutError{}, errors.New("a"), errors.New("b"), struct{ error }{}}, nil)
	if want := []string{"TimeoutError", "errorString"}; !reflect.DeepEqual(got, want) {
		t.Errorf("names = %q, want %q: each name once, unnamed types left out", got, want)
	}
}

// Go's generic wrappers and the standard library's own error types must not
// classify by name: their names match no pattern.
func TestStandardTypeNamesMatchNothing(t *testing.T) {
	r := realErrors{t}
	plain := errors.New("x")
	samples := []error{
		plain,
		fmt.Errorf("a: %w", plain),
		fmt.Errorf("%w %w", plain, plain),
		errors.Join(plain, plain),
		fmt.Errorf("no wrap"),
		r.openMissing(),
		r.linkDirectory(),
		r.closedPortDial(),
		r.jsonSyntax(),
		r.jsonType(),
		r.xmlSyntax(),
		r.atoi(),
		r.pipeDeadline(),
		r.tcpDeadline(),
		r.deadline(),
		r.cancelled(),
		r.cancelledDial(),
		&url.Error{Op: "Get", URL: "u", Err: plain},
		os.NewSyscallError("read", syscall.EIO),
		&net.DNSError{},
		&net.AddrError{},
		net.UnknownNetworkError("x"),
		syscall.EIO,
		io.EOF,
		&json.MarshalerError{},
		&json.UnsupportedTypeError{Type: reflect.TypeOf(0)},
		&strconv.NumError{},
	}
	var all []string
	for _, err := range samples {
		var c chain
		nodes, _ := c.collect(err)
		all = typeNames(nodes, all)
	}
	// These names do match, but rule 3 classifies their errors first.
	caughtFirst := map[string]Code{
		"canceledError": CodeRequestCancelled, // net's cancelled dial
		"DNSError":      CodeServiceUnavailable,
	}
	for _, name := range all {
		code, ok := matchOrdered("", []string{name})
		if !ok {
			continue
		}
		if _, first := caughtFirst[name]; !first {
			t.Errorf("type name %q classifies as %v", name, code)
		}
	}
	for name, want := range caughtFirst {
		for _, err := range samples {
			var c chain
			if nodes, _ := c.collect(err); slices.Contains(typeNames(nodes, nil), name) {
				if got := CodeOf(err); got != want {
					t.Errorf("%s: CodeOf = %v, want %v from rule 3", name, got, want)
				}
			}
		}
	}
	for _, must := range []string{"wrapError", "wrapErrors", "errorString", "joinError", "PathError", "OpError", "SyscallError", "Errno"} {
		found := false
		for _, n := range all {
			found = found || n == must
		}
		if !found {
			t.Errorf("no sample produced the type name %q (names: %q)", must, all)
		}
	}
}

// Chains are walked at most 32 errors deep and 64 errors in all.
func TestChainBounds(t *testing.T) {
	wrap := func(err error, n int) error {
		for range n {
			err = fmt.Errorf("w: %w", err)
		}
		return err
	}
	e := New(CodeConflict, "x")
	if got := From(wrap(e, maxChainDepth-1)); got != e {
		t.Errorf("an *Error %d wraps deep was not found", maxChainDepth-1)
	}
	if got := From(wrap(e, maxChainDepth)); got == e || got.Code() != CodeInternalError {
		t.Errorf("an *Error %d wraps deep gave %v, want the bound to hide it", maxChainDepth, got)
	}

	wide := func(at int) error {
		errs := make([]error, 100)
		for i := range errs {
			errs[i] = errors.New("x")
		}
		errs[at] = e
		return errors.Join(errs...)
	}
	// The join itself is the first node, so child i is node i+1.
	if got := From(wide(maxChainNodes - 2)); got != e {
		t.Errorf("an *Error at join index %d was not found", maxChainNodes-2)
	}
	if got := From(wide(maxChainNodes - 1)); got == e {
		t.Errorf("an *Error at join index %d was found past the node bound", maxChainNodes-1)
	}
}

// loopErr unwraps to itself; errors.Is would never return on it.
type loopErr struct{}

func (*loopErr) Error() string   { return "loop" }
func (e *loopErr) Unwrap() error { return e }

// selfJoin contains itself twice: a walk without a node bound visits 2^depth
// errors.
type selfJoin struct{ msg string }

func (e *selfJoin) Error() string   { return e.msg }
func (e *selfJoin) Unwrap() []error { return []error{e, e} }

// nilsJoin has nil entries, which errors.Join never produces but a
// hand-written Unwrap may.
type nilsJoin []error

func (nilsJoin) Error() string     { return "nils" }
func (e nilsJoin) Unwrap() []error { return e }

// badErr's methods panic, as a nil pointer's would.
type badErr struct{ errorPanics, unwrapPanics, isPanics bool }

func (e *badErr) Error() string {
	if e.errorPanics {
		panic("Error")
	}
	return "bad: timed out"
}

func (e *badErr) Unwrap() error {
	if e.unwrapPanics {
		panic("Unwrap")
	}
	return nil
}

func (e *badErr) Is(error) bool {
	if e.isPanics {
		panic("Is")
	}
	return false
}

type badCoder struct{}

func (badCoder) Error() string   { return "bad coder" }
func (badCoder) ErrorCode() Code { panic("ErrorCode") }

type nilDeref struct{ msg string }

func (e *nilDeref) Error() string { return e.msg }

func TestPathologicalChains(t *testing.T) {
	var nilErr *Error
	var nilDerefErr *nilDeref
	tests := []struct {
		name string
		err  error
		want Code
	}{
		{"cycle", &loopErr{}, CodeInternalError},
		{"cycle under a wrapper", fmt.Errorf("x: %w", &loopErr{}), CodeInternalError},
		{"self-containing join", &selfJoin{"boom"}, CodeInternalError},
		// A tree past the bounds is a bug, whatever its message says.
		{"self-containing join with a message", &selfJoin{"Item not found"}, CodeInternalError},
		{"wrapped panic text", fmt.Errorf("wrapped: %w", &badErr{errorPanics: true}), CodeInternalError},
		{"nil entries", nilsJoin{nil, NotFound("x"), nil}, CodeNotFound},
		{"only nil entries", nilsJoin{nil, nil}, CodeInternalError},
		{"typed nil *Error", nilErr, CodeInternalError},
		{"typed nil *Error wrapped", fmt.Errorf("x: %w", nilErr), CodeInternalError},
		{"typed nil *Error beside a real one", errors.Join(nilErr, Conflict("c")), CodeConflict},
		{"Error panics", &badErr{errorPanics: true}, CodeInternalError},
		{"Unwrap panics", &badErr{unwrapPanics: true}, CodeInternalError},
		{"Is panics", &badErr{isPanics: true}, CodeInternalError},
		{"ErrorCode panics", badCoder{}, CodeInternalError},
		{"nil pointer receiver", nilDerefErr, CodeInternalError},
		{"nil pointer receiver wrapped", fmt.Errorf("w: %w", nilDerefErr), CodeInternalError},
		{"sane", &badErr{}, CodeTimeout},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan struct{})
			var code Code
			var e *Error
			go func() {
				defer close(done)
				code = CodeOf(tc.err)
				e = From(tc.err)
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("classification did not return")
			}
			if code != tc.want || e == nil || e.Code() != tc.want {
				t.Errorf("CodeOf = %v, From = %v; want %v", code, e, tc.want)
			}
			if e.Message() == "" {
				t.Error("From gave an empty message")
			}
		})
	}
	// A panicking Error method yields the withheld message, never the
	// panic's value: directly, or baked into a wrapper's text by fmt.
	for _, err := range []error{&badErr{errorPanics: true}, fmt.Errorf("wrapped: %w", &badErr{errorPanics: true})} {
		if got := From(err).Message(); got != WithheldMessage {
			t.Errorf("message of %T with a panicking Error = %q, want %q", err, got, WithheldMessage)
		}
	}
	if got := From(nilErr).Message(); got != "<nil>" {
		t.Errorf("message of a nil *Error = %q, want <nil>", got)
	}
}

// matchPatterns must agree with the plain ordered search it speeds up.
func TestMatchPatternsAgrees(t *testing.T) {
	var msgs []string
	for _, r := range providerRows {
		msgs = append(msgs, r.msg)
	}
	for _, r := range commonRows {
		msgs = append(msgs, r.msg)
	}
	msgs = append(msgs, "", "x", "not\u00a0authorized", "\u017ftatus code 429", "\u212aey not found",
		"ſ", "K", "\xc5", "\xe2\x84", "ab\x00cd", strings.Repeat("timeout ", 200))
	names := [][]string{nil, {"errorString"}, {"TimeoutError"}, {"wrapError", "UnauthorizedError"}, {"x\x00y"}}
	for _, m := range msgs {
		for _, n := range names {
			c1, ok1 := matchPatterns(m, n)
			c2, ok2 := matchOrdered(m, n)
			if c1 != c2 || ok1 != ok2 {
				t.Errorf("matchPatterns(%q, %q) = %v %v; matchOrdered = %v %v", m, n, c1, ok1, c2, ok2)
			}
		}
	}
}

// Every pattern has needles, so none runs its regexp on every message.
func TestEveryPatternHasNeedles(t *testing.T) {
	for _, table := range [][]pattern{providerPatterns(), commonPatterns()} {
		for _, p := range table {
			if len(p.needles) == 0 {
				t.Errorf("%s has no needles", p.re)
			}
			for _, n := range p.needles {
				if len(n.lit) < 2 || strings.ToLower(string(n.lit)) != string(n.lit) {
					t.Errorf("%s: needle %q is too short or not lower-case", p.re, n.lit)
				}
			}
		}
	}
}

// foldASCII relies on ſ and the Kelvin sign being the only non-ASCII runes
// that (?i) treats as equal to an ASCII character.
func TestOnlyTwoRunesFoldToASCII(t *testing.T) {
	for r := rune(utf8RuneSelf); r <= unicode.MaxRune; r++ {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f < utf8RuneSelf && r != '\u017f' && r != '\u212a' {
				t.Errorf("%U folds to ASCII %q", r, f)
			}
		}
	}
}

const utf8RuneSelf = 0x80

// The needles found for a pattern are the literals its regexp requires.
func TestLiteralsOf(t *testing.T) {
	for _, table := range [][]pattern{providerPatterns(), commonPatterns()} {
		for _, p := range table {
			for _, n := range p.needles {
				if n.exact && !p.re.MatchString(string(n.lit)) {
					t.Errorf("%s: exact needle %q does not match", p.re, n.lit)
				}
			}
		}
	}
	tests := []struct {
		expr string
		want string // needles, exact ones marked with =, "" for none
	}{
		{`cancell?ed`, "=cancelled =canceled"},
		{`abort(?:ed)?`, "=aborted =abort"},
		{`no(?:t found| such)`, "=not found =no such"},
		{`not[\s]+authorized`, "authorized"},
		{`(?:ab)+`, "ab"},
		{`x{2,}yz`, "yz"},
		{`status code 5\d\d`, "status code 5"},
		{`ÉCHEC|fail`, ""}, // non-ASCII: no needles
		{`a?`, ""},         // matches the empty string
		{`timeout|.*`, ""}, // one alternative needs no literal
		{`[ab]c`, "c"},     // a class is no literal
		{`(?:ab|cd)(?:ef|gh)`, "=abef =abgh =cdef =cdgh"},
	}
	for _, tc := range tests {
		p := compilePatterns([]rawPattern{{tc.expr, CodeTimeout}})[0]
		var got []string
		for _, n := range p.needles {
			if n.exact {
				got = append(got, "="+string(n.lit))
			} else {
				got = append(got, string(n.lit))
			}
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("needles of %s = %q, want %q", tc.expr, got, tc.want)
		}
		// Without needles, find defers to the regexp.
		if p.needles == nil {
			if n := p.find(nil, &bigramSet{}); n == nil || n.exact {
				t.Errorf("%s: find without needles = %v, want an inexact stand-in", tc.expr, n)
			}
		}
	}
}
