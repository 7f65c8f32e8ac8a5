package schema

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// Compiling.
//
// NewValidator compiles a *jsonschema.Schema into nodes in two passes: the
// first walks the document to learn each subschema's location, its base
// URI ($id) and anchors; the second compiles the subschemas reachable from
// the root, resolving each $ref to the node of the subschema it names. A
// reference to anything outside the document is refused: nothing is ever
// loaded. The caller's schema is read, never kept or modified.

// resourceURL is the base URI of a document without $id; it names no real
// location.
const resourceURL = "mem://mcpcore/schema.json"

// Drafts, from $schema. An absent $schema is 2020-12, the MCP dialect.
const (
	draft2020 = "https://json-schema.org/draft/2020-12/schema"
	draft2019 = "https://json-schema.org/draft/2019-09/schema"
	draft7    = "http://json-schema.org/draft-07/schema"
	draft6    = "http://json-schema.org/draft-06/schema"
	draft4    = "http://json-schema.org/draft-04/schema"
)

// compiler is the state of one compilation.
type compiler struct {
	info  map[*jsonschema.Schema]*schemaInfo
	nodes map[*jsonschema.Schema]*compiled
	// resources maps a base URI (without fragment) to its schema, and
	// anchors an "uri#anchor" to its schema.
	resources map[string]*jsonschema.Schema
	anchors   map[string]*jsonschema.Schema
	legacy    bool // a draft before 2019-09
	// legacyArrays: a draft before 2020-12, whose items may be an array
	// followed by additionalItems.
	legacyArrays bool
	// unordered: the schema uses a keyword whose loop the walk does not
	// stop early; unbounded says why the validator is not bounded (see
	// Validator.Bounded), "" when it is.
	unordered bool
	unbounded string
	defaults  bool
	count     int // nodes compiled
	// dynamicAnchors maps a resource's base URI to its $dynamicAnchor
	// names and their schemas; dynamic is set when the document has a
	// $dynamicRef, and resources holds the resource of each base URI.
	dynamicAnchors map[string]map[string]*jsonschema.Schema
	dynamic        bool
	resourceOf     map[string]*resource
}

type schemaInfo struct {
	loc  string
	base *url.URL
}

// compileError is a schema that cannot be compiled; refusal is a $ref that
// would load something.
type compileError struct {
	loc, msg string
}

func (e *compileError) Error() string {
	if e.loc == "" {
		return e.msg
	}
	return "at " + e.loc + ": " + e.msg
}

func compile(root *jsonschema.Schema) (*compiler, *compiled, error) {
	c := &compiler{
		info:           map[*jsonschema.Schema]*schemaInfo{},
		nodes:          map[*jsonschema.Schema]*compiled{},
		resources:      map[string]*jsonschema.Schema{},
		anchors:        map[string]*jsonschema.Schema{},
		dynamicAnchors: map[string]map[string]*jsonschema.Schema{},
		resourceOf:     map[string]*resource{},
	}
	switch strings.TrimSuffix(root.Schema, "#") {
	case "", draft2020:
	case draft2019:
		c.legacyArrays = true
		c.unorderedBy("#", "a $schema other than draft 2020-12")
	case draft7, draft6, draft4:
		c.legacy, c.legacyArrays = true, true
		c.unorderedBy("#", "a $schema other than draft 2020-12")
	default:
		return nil, nil, &compileError{"#", fmt.Sprintf("refusing to load the meta-schema %s: only in-memory schemas are allowed", root.Schema)}
	}
	base, _ := url.Parse(resourceURL)
	if err := c.index(root, "#", base); err != nil {
		return nil, nil, err
	}
	n, err := c.node(root)
	if err != nil {
		return nil, nil, err
	}
	if err := c.compileDynamicAnchors(); err != nil {
		return nil, nil, err
	}
	return c, n, nil
}

// unorderedBy records a keyword whose loop the walk does not order.
func (c *compiler) unorderedBy(loc, what string) {
	c.unordered = true
	c.unboundedBy(loc, "uses "+what+", whose loops the validation does not stop early")
}

// unboundedBy records the first reason the validator is not bounded.
func (c *compiler) unboundedBy(loc, why string) {
	if c.unbounded == "" {
		c.unbounded = "at " + loc + ": " + why
	}
}

// compileDynamicAnchors compiles, when the document has a $dynamicRef,
// every schema with a $dynamicAnchor, which a $dynamicRef may reach
// through the dynamic scope alone, and records it in its resource.
func (c *compiler) compileDynamicAnchors() error {
	if !c.dynamic {
		return nil
	}
	for _, base := range slices.Sorted(maps.Keys(c.dynamicAnchors)) {
		names := c.dynamicAnchors[base]
		for _, name := range slices.Sorted(maps.Keys(names)) {
			n, err := c.node(names[name])
			if err != nil {
				return err
			}
			r := c.resource(base)
			if r.dynamic == nil {
				r.dynamic = map[string]*compiled{}
			}
			r.dynamic[name] = n
		}
	}
	return nil
}

// resource returns the resource of a base URI.
func (c *compiler) resource(base string) *resource {
	r := c.resourceOf[base]
	if r == nil {
		r = &resource{base: base}
		c.resourceOf[base] = r
	}
	return r
}

// index records the location, base URI and anchors of s and its
// subschemas. The document must be a tree (as JSON is): a subschema shared
// by two parents would have two locations.
func (c *compiler) index(s *jsonschema.Schema, loc string, base *url.URL) error {
	if s == nil {
		return &compileError{loc, "nil schema"}
	}
	if _, seen := c.info[s]; seen {
		return nil // shared by a Go-built schema: the first location names it
	}
	if s.ID != "" {
		id, err := url.Parse(s.ID)
		if err != nil {
			return &compileError{loc, fmt.Sprintf("$id %q: %v", s.ID, err)}
		}
		base = base.ResolveReference(id)
		base.Fragment = ""
	}
	c.info[s] = &schemaInfo{loc: loc, base: base}
	if s.ID != "" || loc == "#" {
		c.resources[base.String()] = s
	}
	for _, a := range []string{s.Anchor, s.DynamicAnchor} {
		if a != "" {
			c.anchors[base.String()+"#"+a] = s
		}
	}
	if s.DynamicAnchor != "" {
		m := c.dynamicAnchors[base.String()]
		if m == nil {
			m = map[string]*jsonschema.Schema{}
			c.dynamicAnchors[base.String()] = m
		}
		m[s.DynamicAnchor] = s
	}
	if s.DynamicRef != "" {
		c.dynamic = true
	}
	var err error
	forEachChild(s, func(path string, child *jsonschema.Schema) bool {
		err = c.index(child, loc+path, base)
		return err == nil
	})
	return err
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// isTrueSchema reports whether s is the schema true: no keyword at all.
func isTrueSchema(s *jsonschema.Schema) bool {
	return reflect.ValueOf(*s).IsZero()
}

// isFalseSchema reports whether s is the schema false, which jsonschema-go
// writes {"not": {}}.
func isFalseSchema(s *jsonschema.Schema) bool {
	if s.Not == nil || !isTrueSchema(s.Not) {
		return false
	}
	t := *s
	t.Not = nil
	return reflect.ValueOf(t).IsZero()
}

// node returns the compiled node of s, compiling it on first use.
func (c *compiler) node(s *jsonschema.Schema) (*compiled, error) {
	if n, ok := c.nodes[s]; ok {
		return n, nil
	}
	info := c.info[s]
	if info == nil {
		return nil, &compileError{"", "a subschema outside the document"}
	}
	n := &compiled{loc: info.loc, minLength: -1, maxLength: -1, minItems: -1, maxItems: -1,
		minContains: -1, maxContains: -1, minProperties: -1, maxProperties: -1}
	if c.dynamic {
		n.res = c.resource(info.base.String())
	}
	c.nodes[s] = n
	c.count++
	if isFalseSchema(s) {
		n.never = true
		return n, nil
	}
	if err := c.fill(n, s, info); err != nil {
		return nil, err
	}
	return n, nil
}

// normalize returns a value of the schema (const, enum) as decoded JSON,
// so that it compares as JSON: a Go value set on an inferred schema (an
// int, a []string) becomes what a client's JSON decodes to.
func normalize(v any) (any, error) {
	if _, _, ok := jsonShape(v); ok {
		return v, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return decodeJSON(b)
}

// resolve returns the subschema a reference names within the document.
func (c *compiler) resolve(ref string, info *schemaInfo) (*jsonschema.Schema, error) {
	u, err := url.Parse(ref)
	if err != nil {
		return nil, &compileError{info.loc, fmt.Sprintf("$ref %q: %v", ref, err)}
	}
	abs := info.base.ResolveReference(u)
	frag := abs.Fragment
	abs.Fragment = ""
	doc := c.resources[abs.String()]
	if doc == nil {
		return nil, &compileError{info.loc, fmt.Sprintf("refusing to load %s: only in-memory schemas are allowed", abs)}
	}
	switch {
	case frag == "":
		return doc, nil
	case strings.HasPrefix(frag, "/"):
		s, err := c.pointer(doc, frag)
		if err != nil {
			return nil, &compileError{info.loc, fmt.Sprintf("$ref %q: %v", ref, err)}
		}
		return s, nil
	}
	if s := c.anchors[abs.String()+"#"+frag]; s != nil {
		return s, nil
	}
	return nil, &compileError{info.loc, fmt.Sprintf("$ref %q: no anchor %q in the document", ref, frag)}
}

// pointer follows a JSON pointer from s. A pointer into an unknown keyword
// ("#/x-defs/a") reaches a schema that jsonschema-go keeps as plain JSON: it
// is decoded as a schema and indexed at its location.
func (c *compiler) pointer(s *jsonschema.Schema, ptr string) (*jsonschema.Schema, error) {
	toks := strings.Split(ptr[1:], "/")
	for i := range toks {
		toks[i] = strings.ReplaceAll(strings.ReplaceAll(toks[i], "~1", "/"), "~0", "~")
	}
	for len(toks) > 0 {
		k, ok := subschemaKeyword(s, toks[0])
		if !ok {
			if v, ok := s.Extra[toks[0]]; ok {
				return c.extra(s, v, toks[1:], "/"+toks[0])
			}
			return nil, fmt.Errorf("no schema at %s", ptr)
		}
		next, consumed := k.at(toks[1:])
		if next == nil {
			return nil, fmt.Errorf("no schema at %s", ptr)
		}
		s, toks = next, toks[consumed:]
	}
	return s, nil
}

// extra decodes the schema at toks inside v, the value of an unknown
// keyword of s, and indexes it.
func (c *compiler) extra(s *jsonschema.Schema, v any, toks []string, at string) (*jsonschema.Schema, error) {
	for _, t := range toks {
		switch x := v.(type) {
		case map[string]any:
			v = x[t]
		case []any:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(x) {
				return nil, fmt.Errorf("no schema at %s", at)
			}
			v = x[i]
		default:
			return nil, fmt.Errorf("no schema at %s", at)
		}
		at += "/" + escapePointer(t)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var sub jsonschema.Schema
	if err := json.Unmarshal(b, &sub); err != nil {
		return nil, fmt.Errorf("%s is not a schema: %v", at, err)
	}
	info := c.info[s]
	if err := c.index(&sub, info.loc+at, info.base); err != nil {
		return nil, err
	}
	return &sub, nil
}

// errorMessages reads errorMessage in its object form: the keywords whose
// issue messages it replaces, each with its message (a string form, one
// message for every keyword, is not read: say which keyword it is for).
func errorMessages(v any) (map[string]string, error) {
	m, ok := v.(map[string]any)
	if !ok {
		if ms, ok := v.(map[string]string); ok {
			return ms, nil
		}
		return nil, fmt.Errorf("want an object of keyword to message, not %T", v)
	}
	out := make(map[string]string, len(m))
	for k, x := range m {
		s, ok := x.(string)
		if !ok || s == "" {
			return nil, fmt.Errorf("the message of %s is not a non-empty string", k)
		}
		out[k] = s
	}
	return out, nil
}
