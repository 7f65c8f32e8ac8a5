// Package schema is the JSON Schema glue of tool dispatch: it infers the input
// and output schemas of a tool from Go types, validates arguments and results
// against them with a list of issues (the first hundred, found with work that
// does not grow with their number), and widens an output schema so the error
// envelope validates too.
//
// # One schema, validated by our own walk
//
// Schemas are [*jsonschema.Schema] values of github.com/google/jsonschema-go,
// because that is what the MCP Go SDK advertises in Tool.InputSchema and
// Tool.OutputSchema, and jsonschema-go infers them from Go types. This
// package validates them itself (compile.go, check.go): jsonschema-go's
// validator stops at the first failure and reports schema locations in a
// flat string, while a model needs every mistake, located in its own input,
// to correct them in one round; and a general validator library costs
// every server its compiled meta-schemas, a third of a megabyte of live
// heap that each garbage collection scans. [NewValidator] compiles the
// schema into a small graph of nodes; a validity walk answers valid values
// without allocating (but in url.Parse, for the uri format),
// and a report walk lists the issues of the others,
// its loops stopping at the cap (see [Validator.Check]). Every keyword of
// draft 2020-12 asserts as the specification says, $dynamicRef through the
// dynamic scope (dynamic.go); format asserts for email (RFC 5321), uri
// (absolute, RFC 3986), date, date-time (RFC 3339) and uuid, and is an
// annotation for any other name (formats.go). References resolve within the
// document only: nothing is ever loaded from the network or the file
// system. The official JSON Schema Test Suite holds it to that
// (suite_test.go): of its required draft 2020-12 tests that need no remote
// document, all pass but the five that expect an asserted format to be an
// annotation, and its optional tests of the five formats all pass.
//
// # Bounded work
//
// Whatever the schema, a validation's work grows no faster than the value,
// by a factor that the schema's size sets, and stops when the call's
// context ends ([Validator.CheckJSONContext]): once a walk has evaluated
// each value a few times over it memoises the verdict of each (schema
// node, object or array) pair (memo.go), so a recursive union or an allOf
// naming one schema twice costs each pair once; a failed union is judged
// from validity walks, only the alternative it keeps walked for issues;
// numbers are compared, hashed (uniqueItems) and divided (multipleOf) in
// work linear in their digits; a keyword is skipped where a cheaper one has
// refused what makes it costly (uniqueItems past maxItems, pattern and
// format past maxLength). What the walk cannot bound it says
// ([Validator.Bounded], [Validator.Unbounded]): a pattern whose matcher
// may keep more than 100 threads live at once, each stepped at each
// character (an unanchored .{1,1000}z, or (a|aa){1,1000}), and the
// keywords whose loops do not stop at the issue cap.
// NewServer refuses such a schema for what a client sends.
//
// # Inference rules
//
// [Input], [Output] and [Params] follow jsonschema-go's rules: a struct field is
// required unless its json tag says omitempty or omitzero; a `jsonschema:"…"`
// tag is the property's description (it must not start with "WORD="). On top
// of them:
//
//   - an input schema is portable: one type per property (a slice is
//     "array", a pointer its element's type; jsonschema-go's ["null", …]
//     is rejected by clients that map schemas onto a single-type dialect),
//     optionality said by required alone; [Validator.CheckJSON] takes a null
//     sent for an optional property as the property left out;
//
//   - an output schema accepts null wherever encoding/json writes it (a nil
//     slice, map or pointer), as {"anyOf": [{"type": "null"}, {"type": …}]};
//
//   - an input schema rejects unknown top-level keys but accepts (and the
//     handler never sees) unknown keys in nested objects, as encoding/json
//     does;
//
//   - recursive types, which jsonschema-go rejects, are inferred with $defs
//     and $ref (the root is expanded in place and also defined in $defs, so
//     that its strictness stays at the root);
//
//   - json tags on which jsonschema-go and encoding/json disagree (a named
//     embedded struct, the ",string" option) are refused;
//
//   - an output schema may not declare a top-level "error" property, which
//     belongs to the failure envelope ([Envelope]).
//
//   - struct tags that jsonschema-go does not read apply at any depth (the
//     fields of nested structs, of slice and array elements, of map values,
//     of recursive types), the tag named as the keyword it sets:
//
//     `default:"…"` is the property's default, as JSON (a string field
//     also takes plain text), which [Validator.ValidateJSON] fills in;
//     `enum:"a,b"` limits a string (or each []string element) to the
//     listed values, enumTitles or enumNames giving them display titles;
//     minLength, maxLength, pattern (RE2, unanchored unless written with ^
//     and $, at most 100 matcher threads live: see Bounded) and format (email,
//     uri, date, date-time, uuid) constrain
//     strings; minimum, maximum, exclusiveMinimum, exclusiveMaximum and
//     multipleOf numbers; minItems, maxItems and uniqueItems
//     (`uniqueItems:"true"`) slices and arrays; minProperties and
//     maxProperties maps.
//
//     A keyword goes on the field's own schema when it fits the field's
//     type. A string or number keyword on a slice, array or map field goes
//     on its elements: on a []string, `minLength:"1" maxItems:"5"` bounds
//     each string and the list; on a map[string]int, minimum bounds each
//     value. A tag that does not parse, fits neither the field nor its
//     elements (minLength on an int), or contradicts its pair (minLength
//     above maxLength) is an error of [Input] naming the type, the field
//     and the tag, which stops NewServer. Every keyword is compiled once,
//     with the schema (a pattern's regular expression included), not on
//     each call.
//
//     A string or number keyword takes a message of its own in a tag
//     named after it, `patternMessage:"…"` beside `pattern:"…"`: the issue
//     says it instead of the default, and the schema publishes it as
//     errorMessage in ajv-errors' object form ({"pattern": "…"}). A message
//     tag without its keyword is an error of [Input].
package schema
