package schema

import (
	"slices"
	"strings"
)

// compiled is one compiled schema: the keywords of a *jsonschema.Schema that
// assert something, in the form the walk reads fastest (sorted properties,
// bit-set types, precomputed bounds), and nothing else: annotations,
// descriptions and examples stay in the caller's schema. A schema that a
// $ref reaches is compiled once and shared, so recursive types are cyclic
// graphs of nodes.
type compiled struct {
	// loc is the JSON pointer of the schema in its document ("#",
	// "#/properties/n"), for the errors of NewValidator and Loops.
	loc string
	// never is the schema false (jsonschema-go's {"not": {}}).
	never bool

	types     typeSet  // 0: any type
	typeNames []string // the types as written, for messages

	hasConst bool
	constVal any
	enum     []any // nil: no enum

	minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf *bound

	minLength, maxLength int // -1: absent
	pattern              *pattern
	// format is the check of an asserted format (see formats.go), nil for
	// none or an annotation; formatName names it in messages.
	format     func(string) bool
	formatName string
	// messages replace the issue message of a string or number keyword
	// (errorMessage, in ajv-errors' object form: keyword to message).
	messages map[string]string

	minItems, maxItems int // -1: absent
	uniqueItems        bool
	prefixItems        []*compiled
	items              *compiled // the items after prefixItems
	// legacyItems: items is draft 7's additionalItems after an items
	// array; false there is one issue, "too many items".
	legacyItems              bool
	contains                 *compiled
	minContains, maxContains int // -1: absent
	unevaluatedItems         *compiled

	minProperties, maxProperties int // -1: absent
	// props are the declared properties, sorted by name.
	props []prop
	// discriminators index the props whose schema has a const or an
	// enum, which tell the alternatives of a union apart; propOrder, when
	// there are some, lists them first, then the others: the order of the
	// validity walk.
	discriminators, propOrder []int
	// required lists the required names as written; reqOnly those that
	// props does not declare (props carry their own flag).
	required, reqOnly     []string
	patternProps          []patternProp
	additional            *compiled
	propertyNames         *compiled
	dependentRequired     []dependency // sorted by name
	dependentSchemas      []namedNode  // sorted by name
	unevaluatedProperties *compiled
	// byKeys: n has dependentRequired, propertyNames or dependentSchemas
	// (or draft 7's dependencies), the keywords that look at which keys
	// an object has; most nodes have none.
	byKeys bool

	ref, dynamicRef *compiled
	// dynamicName is the anchor a $dynamicRef looks up in the dynamic
	// scope ("" when it resolves as $ref does; see dynamic.go), and res
	// the schema resource n belongs to.
	dynamicName      string
	res              *resource
	legacyRef        bool // draft 7 and before: $ref ignores its siblings
	allOf            []*compiled
	anyOf, oneOf     []*compiled
	not              *compiled
	ifN, then, elseN *compiled
	// applies: n has a keyword that the walk of applicators looks at (one
	// of the above but $ref, or unevaluated*); most nodes have none.
	applies bool

	hasDefault bool
	defaultVal any // decoded with UseNumber; copied before use
}

// prop is a declared property.
type prop struct {
	name     string
	node     *compiled
	required bool
	// nullAbsent: the property is optional and its schema refuses null,
	// so CheckJSON takes a null there as the property left out.
	nullAbsent bool
}

type patternProp struct {
	re   *pattern
	node *compiled
}

type namedNode struct {
	name string
	node *compiled
}

// dependency is a dependentRequired entry, or a string list of draft 7's
// dependencies (keyword tells which).
type dependency struct {
	name     string
	required []string
	keyword  string
}

// prop returns the declared property name, or nil.
func (n *compiled) prop(name string) *prop {
	if len(n.props) <= 8 {
		for i := range n.props {
			if n.props[i].name == name {
				return &n.props[i]
			}
		}
		return nil
	}
	i, found := slices.BinarySearchFunc(n.props, name, func(p prop, name string) int { return strings.Compare(p.name, name) })
	if !found {
		return nil
	}
	return &n.props[i]
}

// itemNode is the schema of item i of an array, in prefixItems or items
// (nil for none).
func (n *compiled) itemNode(i int) *compiled {
	if i < len(n.prefixItems) {
		return n.prefixItems[i]
	}
	return n.items
}

// hasApplicators reports whether n has a keyword that the walk of
// applicators looks at.
func (n *compiled) hasApplicators() bool {
	return n.dynamicRef != nil || n.not != nil || n.allOf != nil || n.anyOf != nil || n.oneOf != nil ||
		n.ifN != nil || n.usesUnevaluated()
}

// evaluatedBy returns where n's keywords record what they evaluate: ev,
// or a record of n's own when n has unevaluated* and its caller keeps
// none.
func (n *compiled) evaluatedBy(ev *evaluated) *evaluated {
	if ev == nil && n.usesUnevaluated() {
		return &evaluated{}
	}
	return ev
}

// usesUnevaluated reports whether n has an unevaluated* keyword, and so
// needs the walk to record which properties and items were evaluated.
func (n *compiled) usesUnevaluated() bool {
	return n.unevaluatedProperties != nil || n.unevaluatedItems != nil
}

// typeSet is a set of JSON types.
type typeSet uint8

const (
	tNull typeSet = 1 << iota
	tBoolean
	tObject
	tArray
	tNumber
	tString
	tInteger // in a schema only: a value is tNumber
)

var typeNames = map[string]typeSet{
	"null": tNull, "boolean": tBoolean, "object": tObject, "array": tArray,
	"number": tNumber, "string": tString, "integer": tInteger,
}

// typeName is the name of a value's type in messages.
func typeName(t typeSet) string {
	switch t {
	case tNull:
		return "null"
	case tBoolean:
		return "boolean"
	case tObject:
		return "object"
	case tArray:
		return "array"
	case tNumber:
		return "number"
	case tString:
		return "string"
	}
	return "invalid"
}

// message is the issue message of keyword on n: the schema's own, when
// its errorMessage gives one, else def.
func (n *compiled) message(keyword, def string) string {
	if m, ok := n.messages[keyword]; ok {
		return m
	}
	return def
}
