package mcperr

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"reflect"
	"testing"
)

// factoryTable is every factory with the code the reference (§3, plus the
// seed's RequestCancelled) gives it.
var factoryTable = []struct {
	name string
	new  func(string, ...Option) *Error
	code Code
}{
	{"InvalidParams", InvalidParams, CodeInvalidParams},
	{"InvalidRequest", InvalidRequest, CodeInvalidRequest},
	{"NotFound", NotFound, CodeNotFound},
	{"Forbidden", Forbidden, CodeForbidden},
	{"Unauthorized", Unauthorized, CodeUnauthorized},
	{"ValidationError", ValidationError, CodeValidationError},
	{"Conflict", Conflict, CodeConflict},
	{"RateLimited", RateLimited, CodeRateLimited},
	{"Timeout", Timeout, CodeTimeout},
	{"ServiceUnavailable", ServiceUnavailable, CodeServiceUnavailable},
	{"ConfigurationError", ConfigurationError, CodeConfigurationError},
	{"InternalError", InternalError, CodeInternalError},
	{"SerializationError", SerializationError, CodeSerializationError},
	{"DatabaseError", DatabaseError, CodeDatabaseError},
	{"RequestCancelled", RequestCancelled, CodeRequestCancelled},
}

func TestFactories(t *testing.T) {
	for _, f := range factoryTable {
		t.Run(f.name, func(t *testing.T) {
			if got := f.code.String(); got != f.name {
				t.Fatalf("the factory's name %q differs from its code's name %q", f.name, got)
			}

			bare := f.new("bare message")
			if bare.Code() != f.code || bare.Message() != "bare message" || bare.Error() != "bare message" {
				t.Errorf("bare: code %v message %q Error %q", bare.Code(), bare.Message(), bare.Error())
			}
			if bare.Data() != nil || bare.Cause() != nil || bare.Unwrap() != nil {
				t.Errorf("bare: data %v cause %v, want neither", bare.Data(), bare.Cause())
			}

			cause := errors.New("root cause")
			full := f.new("full message",
				WithData(map[string]any{"itemId": "7", "auth": map[string]any{"token": "SECRET"}}),
				WithCause(cause))
			if full.Code() != f.code || full.Message() != "full message" {
				t.Errorf("full: code %v message %q", full.Code(), full.Message())
			}
			if want := map[string]any{"itemId": "7"}; !maps.Equal(full.Data(), want) {
				t.Errorf("full: data %v, want %v (auth removed)", full.Data(), want)
			}
			if full.Cause() != cause || !errors.Is(full, cause) {
				t.Errorf("full: cause %v, want %v", full.Cause(), cause)
			}
			if got := CodeOf(full); got != f.code {
				t.Errorf("CodeOf = %v, want %v", got, f.code)
			}
		})
	}
}

func TestNew(t *testing.T) {
	e := New(CodeMethodNotFound, "no such method")
	if e.Code() != CodeMethodNotFound || e.Message() != "no such method" || e.Error() != "no such method" {
		t.Errorf("got code %v message %q Error %q", e.Code(), e.Message(), e.Error())
	}
	// Any int32 is accepted, as in the original: codes from peers pass through.
	if got := New(Code(-31999), "x").Code(); got != -31999 {
		t.Errorf("unknown code became %v", got)
	}
}

func TestErrorEmptyMessage(t *testing.T) {
	// McpError(-32603) has message "" and no data (vector 22); Error() falls
	// back to the code's name so logs never show an empty line.
	e := New(CodeInternalError, "")
	if e.Message() != "" || e.Data() != nil {
		t.Errorf("message %q data %v, want empty and absent", e.Message(), e.Data())
	}
	if got := e.Error(); got != "InternalError" {
		t.Errorf("Error() = %q, want InternalError", got)
	}
	if got := New(Code(7), "").Error(); got != "7" {
		t.Errorf("Error() of an unknown code = %q, want 7", got)
	}
}

func TestDataRules(t *testing.T) {
	tests := []struct {
		name string
		opts []Option
		want map[string]any // nil: data absent
	}{
		{"no option", nil, nil},
		{"nil map stays absent", []Option{WithData(nil)}, nil},
		{"empty map stays empty and present", []Option{WithData(map[string]any{})}, map[string]any{}},
		{"top-level auth removed", []Option{WithData(map[string]any{
			"auth": map[string]any{"token": "SECRET"}, "attempted": 3,
		})}, map[string]any{"attempted": 3}},
		{"auth alone leaves an empty, present map", []Option{WithData(map[string]any{"auth": "x"})}, map[string]any{}},
		{"auth of any type removed", []Option{WithData(map[string]any{"auth": nil, "k": 1})}, map[string]any{"k": 1}},
		{"nested auth kept", []Option{WithData(map[string]any{
			"x": map[string]any{"auth": "kept"},
		})}, map[string]any{"x": map[string]any{"auth": "kept"}}},
		{"auth from a later WithData removed too", []Option{
			WithData(map[string]any{"a": 1}), WithData(map[string]any{"auth": "x"}),
		}, map[string]any{"a": 1}},
		{"later WithData wins", []Option{
			WithData(map[string]any{"a": 1, "b": 1}), WithData(map[string]any{"b": 2, "c": 2}),
		}, map[string]any{"a": 1, "b": 2, "c": 2}},
		{"nil after data keeps data", []Option{WithData(map[string]any{"a": 1}), WithData(nil)}, map[string]any{"a": 1}},
		{"empty after nil is present", []Option{WithData(nil), WithData(map[string]any{})}, map[string]any{}},
		{"keys are case-sensitive", []Option{WithData(map[string]any{"Auth": 1, "AUTH": 2})}, map[string]any{"Auth": 1, "AUTH": 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := New(CodeNotFound, "m", tc.opts...).Data()
			if (got == nil) != (tc.want == nil) || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("data = %#v, want %#v", got, tc.want)
			}
		})
	}
}

func TestWithDataCopies(t *testing.T) {
	in := map[string]any{"a": 1, "auth": "SECRET"}
	opt := WithData(in)
	e := New(CodeNotFound, "m", opt)
	in["a"] = 2
	in["b"] = 3
	if want := map[string]any{"a": 1}; !maps.Equal(e.Data(), want) {
		t.Errorf("data after the caller edited its map = %v, want %v", e.Data(), want)
	}
	if in["auth"] != "SECRET" {
		t.Error("removing auth edited the caller's map")
	}
	// One Option value may build many errors; they must not share a map.
	e2 := New(CodeNotFound, "m", opt)
	e2.Data()["x"] = 1
	if _, ok := e.Data()["x"]; ok {
		t.Error("two errors built with the same Option share their data map")
	}
}

func TestErrorCauseChain(t *testing.T) {
	root := io.ErrUnexpectedEOF
	mid := fmt.Errorf("decode: %w", root)
	e := ServiceUnavailable("upstream down", WithCause(mid))
	if !errors.Is(e, root) || !errors.Is(e, mid) {
		t.Error("errors.Is does not see through the cause")
	}
	var target *Error
	if !errors.As(fmt.Errorf("wrapped: %w", e), &target) || target != e {
		t.Error("errors.As does not find the *Error under a wrapper")
	}
	if errors.Unwrap(e) != mid {
		t.Error("Unwrap does not return the cause")
	}
	// An *Error as the cause of an *Error: both are reachable.
	outer := InternalError("outer", WithCause(NotFound("inner")))
	var inner *Error
	if !errors.As(outer.Cause(), &inner) || inner.Code() != CodeNotFound {
		t.Error("an *Error cause is not reachable")
	}
	// Data and message never come from the cause.
	if outer.Message() != "outer" || outer.Data() != nil {
		t.Errorf("outer took something from its cause: %q %v", outer.Message(), outer.Data())
	}
	if New(CodeNotFound, "m", WithCause(nil)).Unwrap() != nil {
		t.Error("WithCause(nil) set a cause")
	}
}

func TestMarshalJSON(t *testing.T) {
	tests := []struct {
		name string
		err  *Error
		want string
	}{
		{"no data", NotFound("Item not found"), `{"code":-32001,"message":"Item not found"}`},
		{"data", NotFound("Item not found", WithData(map[string]any{"id": "123"})),
			`{"code":-32001,"message":"Item not found","data":{"id":"123"}}`},
		{"empty data is present", NotFound("m", WithData(map[string]any{})), `{"code":-32001,"message":"m","data":{}}`},
		{"auth-only data is an empty object", NotFound("m", WithData(map[string]any{"auth": "x"})),
			`{"code":-32001,"message":"m","data":{}}`},
		{"empty message is kept empty", New(CodeInternalError, ""), `{"code":-32603,"message":""}`},
		{"cause never encoded", Timeout("slow", WithCause(errors.New("secret detail"))), `{"code":-32004,"message":"slow"}`},
		{"unknown code", New(Code(-31000), "x"), `{"code":-31000,"message":"x"}`},
		{"nested data", New(CodeValidationError, "bad", WithData(map[string]any{
			"issues": []any{map[string]any{"path": "a", "message": "m"}},
		})), `{"code":-32007,"message":"bad","data":{"issues":[{"message":"m","path":"a"}]}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(tc.err)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tc.want {
				t.Errorf("got  %s\nwant %s", b, tc.want)
			}
			// The same bytes when the error sits in a larger document.
			doc, err := json.Marshal(map[string]any{"error": tc.err})
			if err != nil {
				t.Fatal(err)
			}
			if want := `{"error":` + tc.want + `}`; string(doc) != want {
				t.Errorf("embedded: got %s, want %s", doc, want)
			}
		})
	}
}

func TestMarshalJSONUnencodableData(t *testing.T) {
	e := InternalError("m", WithData(map[string]any{"f": func() {}}))
	if _, err := json.Marshal(e); err == nil {
		t.Error("data holding a func marshalled without error")
	}
}

func TestUnmarshalJSON(t *testing.T) {
	tests := []struct {
		in       string
		code     Code
		message  string
		data     map[string]any
		hasData  bool
		wantFail bool
	}{
		{in: `{"code":-32001,"message":"Item not found"}`, code: CodeNotFound, message: "Item not found"},
		{in: `{"code":-32001,"message":"m","data":{"id":"123"}}`, code: CodeNotFound, message: "m",
			data: map[string]any{"id": "123"}, hasData: true},
		{in: `{"code":-32001,"message":"m","data":{}}`, code: CodeNotFound, message: "m",
			data: map[string]any{}, hasData: true},
		{in: `{"code":-32001,"message":"m","data":null}`, code: CodeNotFound, message: "m"},
		{in: `{"code":-31000,"message":"peer code"}`, code: -31000, message: "peer code"},
		{in: `{"message":"no code"}`, code: 0, message: "no code"},
		{in: `{"code":-32603,"message":"m","extra":true}`, code: CodeInternalError, message: "m"},
		{in: `{"code":"-32001","message":"m"}`, wantFail: true},
		{in: `{"code":4294967296,"message":"m"}`, wantFail: true},
		{in: `{"code":-32001,"message":"m","data":[1]}`, wantFail: true},
		{in: `[]`, wantFail: true},
		{in: `{`, wantFail: true},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			var e Error
			err := json.Unmarshal([]byte(tc.in), &e)
			if tc.wantFail {
				if err == nil {
					t.Fatalf("decoded %+v, want an error", e)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if e.Code() != tc.code || e.Message() != tc.message {
				t.Errorf("code %v message %q, want %v %q", e.Code(), e.Message(), tc.code, tc.message)
			}
			if (e.Data() != nil) != tc.hasData || !reflect.DeepEqual(e.Data(), tc.data) && tc.hasData {
				t.Errorf("data %#v, want %#v", e.Data(), tc.data)
			}
			if e.Cause() != nil {
				t.Error("a decoded error has a cause")
			}
		})
	}
}

func TestUnmarshalJSONReplaces(t *testing.T) {
	e := NotFound("old", WithData(map[string]any{"old": 1}), WithCause(errors.New("old cause")))
	if err := json.Unmarshal([]byte(`{"code":-32004,"message":"new"}`), e); err != nil {
		t.Fatal(err)
	}
	if e.Code() != CodeTimeout || e.Message() != "new" || e.Data() != nil || e.Cause() != nil {
		t.Errorf("decoding into a used error kept old state: %v %q %v %v", e.Code(), e.Message(), e.Data(), e.Cause())
	}
}

func TestJSONRoundTrip(t *testing.T) {
	for _, in := range []*Error{
		NotFound("m"),
		NotFound("m", WithData(map[string]any{})),
		RateLimited("slow", WithData(map[string]any{"retryAfter": "30", "n": 1.5, "list": []any{"a"}})),
		New(Code(-31000), ""),
	} {
		b, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		var out Error
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatal(err)
		}
		if out.Code() != in.Code() || out.Message() != in.Message() ||
			(out.Data() == nil) != (in.Data() == nil) || !reflect.DeepEqual(out.Data(), in.Data()) && in.Data() != nil {
			t.Errorf("%s decoded to %v %q %v", b, out.Code(), out.Message(), out.Data())
		}
		b2, _ := json.Marshal(&out)
		if string(b2) != string(b) {
			t.Errorf("re-encoding changed the bytes: %s → %s", b, b2)
		}
	}
}
