package mcperr

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// captureLogger returns a logger writing JSON records at every level, and a
// function that decodes the records written so far.
func captureLogger(t *testing.T) (*slog.Logger, func() []map[string]any) {
	t.Helper()
	var buf bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	return logger, func() []map[string]any {
		t.Helper()
		var recs []map[string]any
		dec := json.NewDecoder(bytes.NewReader(buf.Bytes()))
		for dec.More() {
			var r map[string]any
			if err := dec.Decode(&r); err != nil {
				t.Fatalf("decoding log: %v\n%s", err, buf.String())
			}
			recs = append(recs, r)
		}
		return recs
	}
}

// oneRecord returns the only record, failing the test if there is not
// exactly one.
func oneRecord(t *testing.T, records func() []map[string]any) map[string]any {
	t.Helper()
	recs := records()
	if len(recs) != 1 {
		t.Fatalf("got %d log records, want exactly 1: %v", len(recs), recs)
	}
	return recs[0]
}

func TestTryCatchSuccess(t *testing.T) {
	logger, records := captureLogger(t)
	type key struct{}
	ctx := context.WithValue(context.Background(), key{}, "v")
	got, err := TryCatch(ctx, TryCatchOptions{Operation: "op", Logger: logger},
		func(ctx context.Context) (int, error) {
			if ctx.Value(key{}) != "v" {
				t.Error("fn did not get the caller's context")
			}
			return 42, nil
		})
	if got != 42 || err != nil {
		t.Errorf("TryCatch = %v, %v; want 42, nil", got, err)
	}
	if recs := records(); len(recs) != 0 {
		t.Errorf("success logged %v", recs)
	}
}

func TestTryCatchPlainError(t *testing.T) {
	logger, records := captureLogger(t)
	boom := errors.New("boom")
	got, err := TryCatch(context.Background(), TryCatchOptions{Operation: "ArticleStore.Get", Logger: logger},
		func(context.Context) (string, error) { return "partial", boom })
	if got != "" {
		t.Errorf("value = %q, want the zero value", got)
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %#v, want an *Error", err)
	}
	if e.Code() != CodeInternalError || e.Message() != "boom" || e.Cause() != boom || e.Data() != nil {
		t.Errorf("got code %v message %q cause %v data %v; want InternalError, boom, the original, no data",
			e.Code(), e.Message(), e.Cause(), e.Data())
	}

	rec := oneRecord(t, records)
	want := map[string]any{
		"level":        "ERROR",
		"msg":          "Error in ArticleStore.Get: boom",
		"operation":    "ArticleStore.Get",
		"code":         float64(CodeInternalError),
		"codeName":     "InternalError",
		"originalType": "*errors.errorString",
	}
	if got := without(rec, "time"); !reflect.DeepEqual(got, want) {
		t.Errorf("record = %v\nwant %v", got, want)
	}
}

func TestTryCatchCodeOption(t *testing.T) {
	logger, records := captureLogger(t)
	_, err := TryCatch(context.Background(), TryCatchOptions{Operation: "op", Logger: logger, Code: CodeServiceUnavailable},
		func(context.Context) (int, error) { return 0, errors.New("upstream said no") })
	if CodeOf(err) != CodeServiceUnavailable {
		t.Errorf("code = %v, want ServiceUnavailable", CodeOf(err))
	}
	if rec := oneRecord(t, records); rec["code"] != float64(CodeServiceUnavailable) || rec["codeName"] != "ServiceUnavailable" {
		t.Errorf("record code = %v %v", rec["code"], rec["codeName"])
	}

	// The option does not apply to a failure that carries its own code.
	nf := NotFound("Item 7 not found")
	_, err = TryCatch(context.Background(), TryCatchOptions{Logger: logger, Code: CodeServiceUnavailable},
		func(context.Context) (int, error) { return 0, nf })
	if err != nf {
		t.Errorf("err = %v, want the NotFound unchanged", err)
	}
}

func TestTryCatchKeepsError(t *testing.T) {
	logger, records := captureLogger(t)
	root := errors.New("row missing")
	nf := NotFound("Item 7 not found", WithData(map[string]any{"itemId": "7", "reason": "no_match"}), WithCause(root))
	wantData := map[string]any{"itemId": "7", "reason": "no_match"}
	_, err := TryCatch(context.Background(), TryCatchOptions{Operation: "items.Get", Logger: logger, IncludeStack: true, Critical: true},
		func(context.Context) (*struct{}, error) { return nil, fmt.Errorf("loading item: %w", nf) })
	if err != nf {
		t.Fatalf("err = %#v, want the *Error from the chain, unchanged", err)
	}
	if !reflect.DeepEqual(nf.Data(), wantData) {
		t.Errorf("data = %v, want %v: diagnostics must stay out of data", nf.Data(), wantData)
	}

	rec := oneRecord(t, records)
	if rec["msg"] != "Error in items.Get: Item 7 not found" {
		t.Errorf("msg = %q", rec["msg"])
	}
	if rec["code"] != float64(CodeNotFound) || rec["codeName"] != "NotFound" {
		t.Errorf("code = %v %v", rec["code"], rec["codeName"])
	}
	if rec["originalType"] != "*fmt.wrapError" {
		t.Errorf("originalType = %v", rec["originalType"])
	}
	if rec["originalMessage"] != "loading item: Item 7 not found" {
		t.Errorf("originalMessage = %v", rec["originalMessage"])
	}
	if want := []any{"Item 7 not found", "row missing"}; !reflect.DeepEqual(rec["cause"], want) {
		t.Errorf("cause = %v, want %v", rec["cause"], want)
	}
	if rec["critical"] != true {
		t.Errorf("critical = %v", rec["critical"])
	}
	if _, ok := rec["stack"]; !ok {
		t.Error("no stack")
	}
}

func TestTryCatchOriginalType(t *testing.T) {
	logger, records := captureLogger(t)
	missing := filepath.Join(t.TempDir(), "missing.json")
	_, err := TryCatch(context.Background(), TryCatchOptions{Operation: "config.Load", Logger: logger},
		func(context.Context) ([]byte, error) { return os.ReadFile(missing) })
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %#v, want an *Error", err)
	}
	if !errors.Is(err, os.ErrNotExist) {
		t.Error("the cause is lost: errors.Is(err, os.ErrNotExist) is false")
	}
	if e.Code() != CodeOf(e.Cause()) {
		t.Errorf("code = %v, want the classification %v", e.Code(), CodeOf(e.Cause()))
	}
	rec := oneRecord(t, records)
	if rec["originalType"] != "*fs.PathError" {
		t.Errorf("originalType = %v", rec["originalType"])
	}
	if _, ok := rec["originalMessage"]; ok {
		t.Errorf("originalMessage = %v, want none when it equals the message", rec["originalMessage"])
	}
	if want := []any{"no such file or directory"}; !reflect.DeepEqual(rec["cause"], want) {
		t.Errorf("cause = %v, want %v", rec["cause"], want)
	}
	if e.Data() != nil {
		t.Errorf("data = %v, want none", e.Data())
	}
}

func TestTryCatchAttrsAndInput(t *testing.T) {
	logger, records := captureLogger(t)
	type query struct {
		Term   string `json:"term"`
		APIKey string `json:"apiKey"`
		Limit  int    `json:"limit"`
	}
	opts := TryCatchOptions{
		Operation: "search",
		Logger:    logger,
		Attrs: []slog.Attr{
			slog.String("requestId", "R-1"),
			slog.String("tenantId", "acme"),
			slog.Int("code", 7),                 // reserved: dropped
			slog.String("operation", "spoofed"), // reserved: dropped
		},
		Input: map[string]any{
			"query":         query{Term: "cats", APIKey: "K", Limit: 5},
			"password":      "hunter2",
			"headers":       map[string]string{"Authorization": "Bearer x", "Accept": "json"},
			"session_token": "s",
			"tokens":        3,
		},
	}
	_, err := TryCatch(context.Background(), opts, func(context.Context) (int, error) {
		return 0, ValidationError("bad term")
	})
	if e := From(err); e.Data() != nil {
		t.Errorf("data = %v, want none", e.Data())
	}
	rec := oneRecord(t, records)
	if rec["requestId"] != "R-1" || rec["tenantId"] != "acme" {
		t.Errorf("caller attrs missing: %v", rec)
	}
	if rec["operation"] != "search" || rec["code"] != float64(CodeValidationError) {
		t.Errorf("reserved keys overridden by caller attrs: %v", rec)
	}
	wantInput := map[string]any{
		"query":         map[string]any{"term": "cats", "apiKey": "[REDACTED]", "limit": float64(5)},
		"password":      "[REDACTED]",
		"headers":       map[string]any{"Authorization": "[REDACTED]", "Accept": "json"},
		"session_token": "[REDACTED]",
		"tokens":        float64(3),
	}
	if !reflect.DeepEqual(rec["input"], wantInput) {
		t.Errorf("input = %v\nwant %v", rec["input"], wantInput)
	}
	if strings.Contains(fmt.Sprint(rec), "hunter2") {
		t.Error("secret in the log")
	}
	// The caller's input is untouched.
	if opts.Input.(map[string]any)["password"] != "hunter2" {
		t.Error("input modified")
	}
}

func TestTryCatchUnloggableInput(t *testing.T) {
	logger, records := captureLogger(t)
	_, err := TryCatch(context.Background(), TryCatchOptions{Logger: logger, Input: map[string]any{"ch": make(chan int)}},
		func(context.Context) (int, error) { return 0, errors.New("x") })
	if err == nil {
		t.Fatal("nil error")
	}
	rec := oneRecord(t, records)
	if s, _ := rec["input"].(string); !strings.HasPrefix(s, "[unloggable input: ") {
		t.Errorf("input = %v", rec["input"])
	}
	if rec["msg"] != "Error in operation: x" {
		t.Errorf("msg = %v", rec["msg"])
	}
}

func TestTryCatchStack(t *testing.T) {
	for _, include := range []bool{false, true} {
		logger, records := captureLogger(t)
		_, _ = TryCatch(context.Background(), TryCatchOptions{Logger: logger, IncludeStack: include},
			func(context.Context) (int, error) { return 0, errors.New("x") })
		rec := oneRecord(t, records)
		stack, ok := rec["stack"].(string)
		if ok != include {
			t.Fatalf("IncludeStack %v: stack present = %v", include, ok)
		}
		if !include {
			continue
		}
		first, _, _ := strings.Cut(stack, "\n")
		if !strings.HasSuffix(first, ".TestTryCatchStack") {
			t.Errorf("stack starts at %q, want the caller of TryCatch\n%s", first, stack)
		}
		if !strings.Contains(stack, "trycatch_test.go:") {
			t.Errorf("stack has no file:line\n%s", stack)
		}
	}
}

func TestTryCatchDefaultLogger(t *testing.T) {
	logger, records := captureLogger(t)
	old := slog.Default()
	slog.SetDefault(logger)
	defer slog.SetDefault(old)
	_, _ = TryCatch(context.Background(), TryCatchOptions{Operation: "op"},
		func(context.Context) (int, error) { return 0, errors.New("x") })
	if rec := oneRecord(t, records); rec["msg"] != "Error in op: x" {
		t.Errorf("msg = %v", rec["msg"])
	}
}

func TestTryCatchMessagelessError(t *testing.T) {
	logger, records := captureLogger(t)
	e := New(CodeRateLimited, "")
	_, err := TryCatch(context.Background(), TryCatchOptions{Operation: "op", Logger: logger},
		func(context.Context) (int, error) { return 0, e })
	if err != e {
		t.Errorf("err = %v", err)
	}
	if rec := oneRecord(t, records); rec["msg"] != "Error in op: RateLimited" {
		t.Errorf("msg = %v", rec["msg"])
	}
}

func TestCauseChain(t *testing.T) {
	a, b := errors.New("a"), errors.New("b")
	tests := []struct {
		name string
		err  error
		want []string
	}{
		{"no chain", a, nil},
		{"wrapped", fmt.Errorf("outer: %w", a), []string{"a"}},
		{"joined", fmt.Errorf("outer: %w", errors.Join(a, b)), []string{"a\nb", "a", "b"}},
		{"multi %w", fmt.Errorf("%w and %w", a, b), []string{"a", "b"}},
	}
	for _, tt := range tests {
		if got := causeChain(tt.err); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: causeChain = %q, want %q", tt.name, got, tt.want)
		}
	}

	deep := errors.New("root")
	for i := range 30 {
		deep = fmt.Errorf("w%d: %w", i, deep)
	}
	got := causeChain(deep)
	if len(got) != maxCauseDepth+1 || !strings.Contains(got[maxCauseDepth], "longer than") {
		t.Errorf("deep chain: %d entries, last %q", len(got), got[len(got)-1])
	}
	// An Unwrap that returns itself ends at the marker too.
	got = causeChain(fmt.Errorf("outer: %w", selfLoop{}))
	if len(got) != maxCauseDepth+1 || got[0] != "loop" || !strings.Contains(got[maxCauseDepth], "longer than") {
		t.Errorf("loop: %q", got)
	}
}

// selfLoop is an error whose Unwrap returns itself.
type selfLoop struct{}

func (selfLoop) Error() string { return "loop" }
func (selfLoop) Unwrap() error { return selfLoop{} }

func TestTryCatchLoggerDisabled(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelError + 1}))
	_, err := TryCatch(context.Background(), TryCatchOptions{Logger: logger},
		func(context.Context) (int, error) { return 0, errors.New("x") })
	if err == nil || err.Error() != "x" {
		t.Errorf("err = %v, want the failure even when nothing is logged", err)
	}
	if buf.Len() != 0 {
		t.Errorf("logged %s", buf.String())
	}
}

func TestTryCatchRedactsRecord(t *testing.T) {
	logger, records := captureLogger(t)
	type login struct {
		User  string `json:"user"`
		Token string `json:"token"`
		Note  string `json:"note"`
	}
	failure := fmt.Errorf("load profile: %w", &url.Error{
		Op:  "Get",
		URL: "https://admin:s3cret-PW@api.example.com/v1?api_key=K3Y-123&q=1",
		Err: fmt.Errorf("upstream rejected Bearer T0K-456: %w", errors.New("password=hunter2 expired")),
	})
	_, err := TryCatch(context.Background(), TryCatchOptions{
		Operation: "Profile.Load",
		Logger:    logger,
		Attrs:     []slog.Attr{slog.String("authorization", "Bearer T0K-456"), slog.String("requestId", "R-1")},
		Input:     login{User: "ann", Token: "T0K-456", Note: "retry with api_key=K3Y-123"},
	}, func(context.Context) (int, error) { return 0, failure })

	e := From(err)
	wantMsg := `load profile: Get "https://[REDACTED]@api.example.com/v1?api_key=[REDACTED]&q=1": upstream rejected Bearer [REDACTED]: password=[REDACTED] expired`
	if e.Message() != wantMsg {
		t.Errorf("message = %q\nwant %q", e.Message(), wantMsg)
	}
	if e.Cause() != failure || CodeOf(failure) != e.Code() {
		t.Errorf("cause %v code %v: the failure must stay the cause, classified as it is", e.Cause(), e.Code())
	}

	rec := oneRecord(t, records)
	b, _ := json.Marshal(rec)
	for _, s := range []string{"s3cret-PW", "K3Y-123", "T0K-456", "hunter2"} {
		if strings.Contains(string(b), s) {
			t.Errorf("secret %q in the record: %s", s, b)
		}
	}
	if rec["msg"] != "Error in Profile.Load: "+wantMsg {
		t.Errorf("msg = %q", rec["msg"])
	}
	if _, ok := rec["originalMessage"]; ok {
		t.Errorf("originalMessage = %v, want none: scrubbed, it equals the message", rec["originalMessage"])
	}
	wantCause := []any{
		`Get "https://[REDACTED]@api.example.com/v1?api_key=[REDACTED]&q=1": upstream rejected Bearer [REDACTED]: password=[REDACTED] expired`,
		"upstream rejected Bearer [REDACTED]: password=[REDACTED] expired",
		"password=[REDACTED] expired",
	}
	if !reflect.DeepEqual(rec["cause"], wantCause) {
		t.Errorf("cause = %q\nwant %q", rec["cause"], wantCause)
	}
	if rec["authorization"] != "[REDACTED]" || rec["requestId"] != "R-1" {
		t.Errorf("attrs = %v %v", rec["authorization"], rec["requestId"])
	}
	wantInput := map[string]any{"user": "ann", "token": "[REDACTED]", "note": "retry with api_key=[REDACTED]"}
	if !reflect.DeepEqual(rec["input"], wantInput) {
		t.Errorf("input = %v, want %v", rec["input"], wantInput)
	}
}

// The *Error a service returned keeps its message; what wrapped it is
// logged scrubbed.
func TestTryCatchKeepsErrorScrubsWrapper(t *testing.T) {
	logger, records := captureLogger(t)
	nf := NotFound("Item 7 not found")
	_, err := TryCatch(context.Background(), TryCatchOptions{Operation: "op", Logger: logger},
		func(context.Context) (int, error) { return 0, fmt.Errorf("db password=hunter2: %w", nf) })
	if err != nf {
		t.Fatalf("err = %v, want the *Error unchanged", err)
	}
	rec := oneRecord(t, records)
	if rec["originalMessage"] != "db password=[REDACTED]: Item 7 not found" {
		t.Errorf("originalMessage = %q", rec["originalMessage"])
	}
}

// uncomparableHandler is a slog.Handler whose type cannot be compared:
// TryCatch must still accept a logger built on it.
type uncomparableHandler struct {
	w     *bytes.Buffer
	attrs []slog.Attr
}

func (h uncomparableHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h uncomparableHandler) Handle(_ context.Context, r slog.Record) error {
	fmt.Fprintln(h.w, r.Message)
	r.Attrs(func(a slog.Attr) bool { fmt.Fprintln(h.w, a.Key, a.Value); return true })
	return nil
}
func (h uncomparableHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return uncomparableHandler{h.w, append(h.attrs, as...)}
}
func (h uncomparableHandler) WithGroup(string) slog.Handler { return h }

func TestTryCatchAnyHandler(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(uncomparableHandler{w: &buf})
	_, err := TryCatch(context.Background(), TryCatchOptions{Operation: "op", Logger: logger},
		func(context.Context) (int, error) { return 0, errors.New("token=abc") })
	if err == nil || strings.Contains(buf.String(), "abc") || !strings.Contains(buf.String(), "Error in op: token=[REDACTED]") {
		t.Errorf("err %v, log:\n%s", err, buf.String())
	}
}
