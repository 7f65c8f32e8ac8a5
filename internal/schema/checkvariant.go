package schema

import (
	"fmt"
)

// The report of a discriminated union: a oneOf or anyOf whose alternatives
// each hold a string const under one property (the discriminator), as
// [Input] publishes a union type. Its issues name the variant the value
// claimed, and a discriminator left out or unknown is said as such, not
// as a value that matches none of the alternatives.

// discriminant returns the discriminator property of a and the variant
// name it declares: the first property a (or what it refers to) declares
// with a string const.
func discriminant(a *compiled) (prop, name string, ok bool) {
	for a != nil {
		for _, i := range a.discriminators {
			p := &a.props[i]
			if s, isString := p.node.constVal.(string); p.node.hasConst && isString {
				return p.name, s, true
			}
		}
		if a.legacyRef {
			return "", "", false
		}
		a = a.ref
	}
	return "", "", false
}

// variantNames returns the discriminator property shared by every
// alternative of alts and the variant name of each, in order, or ok false
// when alts is no discriminated union.
func variantNames(alts []*compiled) (prop string, names []any, ok bool) {
	for _, a := range alts {
		p, name, found := discriminant(a)
		if !found || prop != "" && p != prop {
			return "", nil, false
		}
		prop, names = p, append(names, name)
	}
	return prop, names, len(names) > 0
}

// claimedVariant reports the issues of v, an object, against the variant
// its discriminator names, each message prefixed with that variant's name;
// or, when the discriminator is missing or names no variant, that issue
// alone. It reports whether alts is a discriminated union and v an object,
// so that it handled the report.
func (w *walker) claimedVariant(alts []*compiled, v any, ev *evaluated) bool {
	obj, isObject := v.(map[string]any)
	if !isObject {
		return false
	}
	prop, names, ok := variantNames(alts)
	if !ok {
		return false
	}
	got, has := obj[prop]
	if !has {
		w.failAt(prop, "required", fmt.Sprintf("%s, the variant: one of %s", requiredMessage(prop), showList(names)))
		return true
	}
	for i, name := range names {
		if !equalValues(got, name) {
			continue
		}
		outer := w.variant
		// The innermost variant names the issues: the path says where it
		// lies, and a prefix per level would grow with the depth.
		w.variant = fmt.Sprintf("variant %q: ", name)
		w.inPlace(alts[i], v, ev)
		w.variant = outer
		return true
	}
	w.failAt(prop, "const", fmt.Sprintf("unknown variant: %s", enumMessage(names, got)))
	return true
}
