package mcpcore

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/seed417024ea/mcpcore/internal/errchain"
	"github.com/seed417024ea/mcpcore/internal/schema"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// inputValidator is an input type with a Validate method (see InputIssues).
type inputValidator interface{ Validate() error }

// An InputIssue is one problem a Validate method finds: Path locates the
// value in the arguments as the schema's issues do (property names and
// array indices; empty for the whole input), and Message says what is
// wrong and what to send instead, for a model to read.
type InputIssue struct {
	Path    []any
	Message string
}

// An input type (a tool's In, a resource's Params, a prompt's Args) checks
// what its schema cannot say with a Validate method, on the type or its
// pointer:
//
//	func (in FetchInput) Validate() error {
//		if len(in.PMIDs) > 0 && in.Query != "" {
//			return mcpcore.InputIssues{{Path: []any{"query"}, Message: "give pmids or query, not both"}}
//		}
//		return nil
//	}
//
// InputIssues is the error such a method returns to report one or more
// problems, each at its path. Validate runs once the arguments have passed the schema and decoded, before
// the handler. What it returns joins the same ValidationError the schema's
// issues make: each [InputIssue] of an [InputIssues], or any other error
// as one issue about the whole input, with its message. Its keyword in
// data.issues is "validate".
type InputIssues []InputIssue

// Error joins the messages.
func (is InputIssues) Error() string {
	msgs := make([]string, len(is))
	for i, x := range is {
		msgs[i] = x.Message
	}
	return strings.Join(msgs, "; ")
}

// maxIssueMessage bounds the message of an issue a Validate method gives.
const maxIssueMessage = 500

// validateInput runs v's Validate method, if its type (or a pointer to it)
// has one, and returns its issues as a ValidationError.
func validateInput(v any) error {
	iv, ok := v.(inputValidator)
	if !ok {
		return nil
	}
	err := iv.Validate()
	if err == nil {
		return nil
	}
	if errchain.Cut(err) {
		// A tree without end is a bug of the Validate method: the pipeline
		// answers it as it answers a handler's (see failureOf).
		return err
	}
	given, ok := errchain.As[InputIssues](err)
	if !ok || len(given) == 0 {
		given = InputIssues{{Message: err.Error()}}
	}
	res := schema.Result{}
	for _, x := range given {
		if len(res.Issues) == schema.MaxIssues {
			res.Omitted++
			continue
		}
		path := x.Path
		if path == nil {
			path = []any{}
		}
		res.Issues = append(res.Issues, schema.Issue{Path: path, Message: cutText(x.Message, maxIssueMessage), Keyword: "validate"})
	}
	return mcperr.ValidationError(res.Summary(), mcperr.WithData(issuesData(res)), mistake(nil))
}

// cutText cuts s after at most n bytes, on a character boundary, and
// ends it with an ellipsis when something was cut.
func cutText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// decodeArgs validates raw arguments against v, filling in defaults, and
// decodes them into a T, whose union types unions converts (nil when it
// has none). Schema violations are listed in data.issues (see
// issuesData);
// arguments that pass the schema but still do not fit T (a number out of
// range, say) are a ValidationError too. Validation stops once ctx, the
// call's, ends: a client that hung up costs no more of it, and the
// context's error is returned as it is, for the call's own outcome (see
// failureOf).
func decodeArgs[T any](ctx context.Context, v *schema.Validator, unions *schema.Unions, raw json.RawMessage) (T, error) {
	var t T
	args, res, err := v.CheckJSONContext(ctx, raw)
	if ended := ctx.Err(); ended != nil && err == ended {
		return t, err
	}
	if err != nil {
		return t, mcperr.ValidationError("Arguments are not valid JSON: "+err.Error(), mistake(err))
	}
	if !res.Valid() {
		return t, mcperr.ValidationError(res.Summary(), mcperr.WithData(issuesData(res)), mistake(nil))
	}
	// The unions of T are decoded from their wire form (see schema.Unions).
	if args, err = unions.ToGo(args); err != nil {
		return t, mcperr.ValidationError("Invalid arguments: "+err.Error(), mistake(err))
	}
	if err := json.Unmarshal(args, &t); err != nil {
		return t, mcperr.ValidationError("Invalid arguments: "+err.Error(), mistake(err))
	}
	// What the schema cannot say, the input type's Validate method checks.
	if err := validateInput(&t); err != nil {
		return t, err
	}
	return t, nil
}

// issuesData is the data of a validation failure: the issues (at most
// [schema.MaxIssues], each bounded in length), and when the list was cut,
// issuesOmitted, the number of issues found but not listed. When validation
// stopped at the cap, validationStopped is true and issuesOmitted is a lower
// bound: the work for any input stays bounded.
func issuesData(res schema.Result) map[string]any {
	data := map[string]any{"issues": res.Issues}
	if res.Omitted > 0 || res.Stopped {
		data["issuesOmitted"] = res.Omitted
	}
	if res.Stopped {
		data["validationStopped"] = true
	}
	return data
}

// boundedInput refuses, at registration, a validator of what a client sends
// whose work the client could make unbounded (see
// schema.Validator.Bounded): a call must cost work linear in its size.
func boundedInput(v *schema.Validator) error {
	if v.Bounded() {
		return nil
	}
	return fmt.Errorf("its validation cannot be bounded: %s", v.Unbounded())
}

// decodeStrings is decodeArgs for string-valued arguments: a prompt's
// arguments, a URI template's variables.
func decodeStrings[T any](ctx context.Context, v *schema.Validator, args map[string]string) (T, error) {
	raw, err := json.Marshal(args)
	if err != nil {
		var t T
		return t, err
	}
	return decodeArgs[T](ctx, v, nil, raw)
}
