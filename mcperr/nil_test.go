package mcperr

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
)

// A typed nil *Error must not crash whoever reads it: every method answers
// as for an empty error.
func TestNilError(t *testing.T) {
	var e *Error
	checks := []struct {
		name      string
		got, want any
	}{
		{"Code", e.Code(), Code(0)},
		{"Message", e.Message(), ""},
		{"Data", e.Data() == nil, true},
		{"Cause", e.Cause(), nil},
		{"Unwrap", e.Unwrap(), nil},
		{"Error", e.Error(), "<nil>"},
		{"RecoveryHint", e.RecoveryHint(), ""},
		{"fmt", fmt.Sprint(e), "<nil>"},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("nil.%s() = %#v, want %#v", c.name, c.got, c.want)
		}
	}
	if b, err := e.MarshalJSON(); string(b) != "null" || err != nil {
		t.Errorf("nil.MarshalJSON() = %s, %v; want null", b, err)
	}
	if b, err := json.Marshal(struct{ E *Error }{}); string(b) != `{"E":null}` || err != nil {
		t.Errorf("json.Marshal = %s, %v", b, err)
	}
	if err := e.UnmarshalJSON([]byte(`{"code":1,"message":"m"}`)); err == nil {
		t.Error("nil.UnmarshalJSON succeeded")
	}

	// As an error value: the standard library's walks stop at it.
	var err error = e
	if errors.Is(err, errors.New("x")) || errors.Unwrap(err) != nil {
		t.Error("errors.Is or errors.Unwrap saw through a nil *Error")
	}
	var target *Error
	if !errors.As(fmt.Errorf("wrapped: %w", err), &target) || target != nil {
		t.Errorf("errors.As = %v, want the nil *Error", target)
	}
	// Classification treats it as a handler bug, with no panic.
	if got := From(err); got == nil || got.Code() != CodeInternalError || got.Message() != "<nil>" {
		t.Errorf("From(typed nil) = %#v, want an InternalError", got)
	}
	if got := CodeOf(fmt.Errorf("w: %w", err)); got != CodeInternalError {
		t.Errorf("CodeOf(wrapped typed nil) = %v, want InternalError", got)
	}
}

func TestNilOptionIgnored(t *testing.T) {
	var none Option
	for _, f := range factoryTable {
		e := f.new("m", none, WithData(map[string]any{"k": 1}), nil, WithRecovery("retry"), none)
		if e.Code() != f.code || e.Message() != "m" || e.Data()["k"] != 1 || e.RecoveryHint() != "retry" {
			t.Errorf("%s with nil options = %v %q %v", f.name, e.Code(), e.Message(), e.Data())
		}
	}
	if e := New(CodeNotFound, "m", nil); e.Code() != CodeNotFound || e.Data() != nil {
		t.Errorf("New with a nil option = %#v", e)
	}
}
