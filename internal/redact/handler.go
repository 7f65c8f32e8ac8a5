package redact

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"reflect"
)

// Handler returns a slog.Handler that redacts every record before h
// handles it:
//
//   - attribute keys are scrubbed like any text: a key that held a secret
//     is replaced by its scrubbed form, with the value [Marker];
//   - the value of an attribute whose key is sensitive (see [Key]) is
//     replaced by [Marker] when it is a credential, by the rules of [Tree]:
//     a string that is not prose, a number, a group (under the key "key"
//     alone, only a token-like string); all the attributes under a
//     WithGroup whose name is sensitive have the value [Marker];
//   - groups are walked at any depth, and so are the attributes given to
//     WithAttrs, once, when the handler is made;
//   - a [slog.LogValuer] is resolved first, and judged by what it resolves
//     to;
//   - an error is logged as its message, scrubbed by [String];
//   - any other map, struct, slice, array or pointer is converted by [JSON]:
//     it goes through encoding/json and sensitive keys are redacted at any
//     depth, so a struct field tagged json:"token" is; a value JSON cannot
//     encode is logged as "[unloggable value: <reason>]";
//   - the record's message and every string are scrubbed by [String];
//   - every secret kept (see [Keep]) is masked, wherever it stands: String
//     masks it in the message, strings and errors, and [Mask] in attribute
//     keys, group names and the encoding of a map, struct or slice, keys
//     included.
//
// A record with nothing to redact reaches h as it came, and costs no
// allocation beyond what slog itself makes; Enabled is h's own. Handler(h)
// returns h itself when h already redacts, so wrapping twice costs nothing.
// h must not be nil.
func Handler(h slog.Handler) slog.Handler {
	if h == nil {
		panic("redact: nil Handler")
	}
	if r, ok := h.(*handler); ok {
		return r
	}
	return &handler{inner: h}
}

// handler is the slog.Handler of [Handler].
type handler struct {
	inner slog.Handler
	// secret is set below a WithGroup whose name is sensitive: every value
	// logged there is a secret.
	secret bool
}

// Enabled reports whether the wrapped handler handles records at level l.
func (h *handler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.inner.Enabled(ctx, l)
}

// Handle redacts r and passes it on; r itself when it holds nothing to
// redact.
func (h *handler) Handle(ctx context.Context, r slog.Record) error {
	msg := String(r.Message)
	if msg == r.Message && !h.dirty(r) {
		return h.inner.Handle(ctx, r)
	}
	out := slog.NewRecord(r.Time, r.Level, msg, r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.attr(a))
		return true
	})
	return h.inner.Handle(ctx, out)
}

// WithAttrs redacts as once and returns a handler that adds them to every
// record.
func (h *handler) WithAttrs(as []slog.Attr) slog.Handler {
	if len(as) == 0 {
		return h
	}
	out := make([]slog.Attr, len(as))
	for i, a := range as {
		out[i] = h.attr(a)
	}
	return &handler{inner: h.inner.WithAttrs(out), secret: h.secret}
}

// WithGroup returns a handler that puts later attributes in the group
// name; all of them are redacted when the name is sensitive.
func (h *handler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	return &handler{inner: h.inner.WithGroup(Mask(name)), secret: h.secret || Key(name)}
}

// dirty reports whether some attribute of r needs redacting. It allocates
// nothing, so that a clean record costs a walk and no more.
func (h *handler) dirty(r slog.Record) bool {
	if h.secret && r.NumAttrs() > 0 {
		return true
	}
	found := false
	r.Attrs(func(a slog.Attr) bool {
		found = dirtyAttr(a)
		return !found
	})
	return found
}

func dirtyAttr(a slog.Attr) bool {
	if _, gone := scrubKey(a.Key); gone || Key(a.Key) || holdsKnown(a.Key) {
		return true
	}
	v := a.Value
	switch v.Kind() {
	case slog.KindString:
		s := v.String()
		return String(s) != s
	case slog.KindGroup:
		for _, g := range v.Group() {
			if dirtyAttr(g) {
				return true
			}
		}
	case slog.KindLogValuer:
		return true // judged once resolved
	case slog.KindAny:
		return dirtyAny(v.Any())
	}
	return false
}

// dirtyAny reports whether anyValue could change x: it does not look
// inside containers, which it takes as dirty unless nil.
func dirtyAny(x any) bool {
	switch x.(type) {
	case nil:
		return false
	case error, []byte, *url.URL:
		return true
	}
	rv := reflect.ValueOf(x)
	switch rv.Kind() {
	case reflect.String:
		s := rv.String()
		return String(s) != s
	case reflect.Map, reflect.Slice, reflect.Pointer, reflect.Interface:
		return !rv.IsNil()
	case reflect.Struct, reflect.Array:
		return true
	}
	return false
}

// attr returns a redacted, resolved copy of a.
func (h *handler) attr(a slog.Attr) slog.Attr {
	k, gone := scrubKey(a.Key)
	k = Mask(k)
	if gone || h.secret && a.Key != "" {
		return slog.String(k, Marker)
	}
	if st := strengthOf(a.Key); st != notSecret {
		return slog.Attr{Key: k, Value: h.under(st, a.Value)}
	}
	return slog.Attr{Key: k, Value: h.value(a.Value)}
}

// under returns v, resolved, as the value of a key of strength st: redacted
// by the rules of member.go.
func (h *handler) under(st strength, v slog.Value) slog.Value {
	v = v.Resolve()
	switch v.Kind() {
	case slog.KindString:
		if s := v.String(); secretText(s, st) {
			return slog.StringValue(Marker)
		}
		return h.value(v)
	case slog.KindBool, slog.KindDuration, slog.KindTime:
		return v
	case slog.KindGroup:
		if st == strongKey {
			return slog.StringValue(Marker)
		}
		return h.value(v)
	case slog.KindAny:
		out := anyValue(v.Any())
		if out.Kind() == slog.KindString {
			return h.under(st, out)
		}
		w := walk{seen: map[container]any{}}
		return slog.AnyValue(w.under(st, out.Any(), true))
	}
	if st == strongKey {
		return slog.StringValue(Marker) // a number
	}
	return v
}

func (h *handler) value(v slog.Value) slog.Value {
	v = v.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.StringValue(String(v.String()))
	case slog.KindGroup:
		g := v.Group()
		out := make([]slog.Attr, len(g))
		for i, a := range g {
			out[i] = h.attr(a)
		}
		return slog.GroupValue(out...)
	case slog.KindAny:
		return anyValue(v.Any())
	}
	return v
}

// anyValue redacts a value of kind Any.
func anyValue(x any) slog.Value {
	switch t := x.(type) {
	case nil:
		return slog.AnyValue(nil)
	case error:
		return slog.StringValue(String(errorText(t)))
	case []byte:
		return slog.StringValue(String(string(t)))
	case *url.URL:
		if t != nil {
			return slog.StringValue(String(t.String()))
		}
		return slog.AnyValue(x)
	}
	rv := reflect.ValueOf(x)
	switch rv.Kind() {
	case reflect.String:
		return slog.StringValue(String(rv.String()))
	case reflect.Map, reflect.Slice, reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return slog.AnyValue(x)
		}
	case reflect.Struct, reflect.Array:
	default:
		return slog.AnyValue(x) // numbers, channels, funcs: nothing to hide
	}
	out, err := JSON(maskEncoding(x))
	if err != nil {
		return slog.StringValue("[unloggable value: " + err.Error() + "]")
	}
	return slog.AnyValue(out)
}

// errorText returns err's message, or fmt's rendering of err when its Error
// method panics (such as "<nil>" for a nil pointer that Error dereferences),
// as slog's own handlers do.
func errorText(err error) (msg string) {
	defer func() {
		if recover() != nil {
			msg = fmt.Sprint(err)
		}
	}()
	return err.Error()
}
