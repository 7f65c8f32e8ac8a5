package mcpcore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/internal/errchain"
	"github.com/seed417024ea/mcpcore/internal/schema"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// ReasonConsentDeclined is data.reason of the error [Elicit] returns when the
// user declines to answer, or dismisses the question.
const ReasonConsentDeclined = "consent_declined"

// ErrDeclined is in the chain of the error [Elicit] returns when the user
// declines to answer or dismisses the question: errors.Is(err,
// mcpcore.ErrDeclined).
var ErrDeclined = errors.New("mcpcore: the user declined to answer")

// An AskOption adjusts a question put to the client ([Elicit],
// [Context.Sample], [Context.Roots]).
type AskOption func(*ask)

type ask struct {
	key string
	// onDecline is the failure a declined question becomes (OnDecline);
	// nil for the default.
	onDecline *declineAs
}

// declineAs is what [OnDecline] names: an entry, and the options to fail
// with.
type declineAs struct {
	failure Failure
	opts    []mcperr.Option
}

// QuestionKey names a question. Under MCP 2026-07-28 and later the client answers
// each question of a round under its key (see [ErrInputRequired]); without
// QuestionKey, questions are numbered in the order the handler asks them
// ("mcpcore/elicitation-1", …), which is stable as long as the handler
// asks them in the same order every round. Each question of a run needs
// its own key: asking one key twice is an InternalError.
func QuestionKey(key string) AskOption { return func(a *ask) { a.key = key } }

// OnDecline makes a declined or dismissed question of [Elicit] fail as
// the entry f of the definition's contract, as [Context.Fail] builds it
// (with f's code, reason and severity, the message saying the user
// declined, data.action "decline" or "cancel", and [ErrDeclined] as its
// cause), with opts: pass [Context.RecoveryFor] to send f's declared hint.
// A tool whose decline is its own reason maps it so; an f the contract does
// not declare is an InternalError, as with Fail. Other questions ignore
// it.
//
//	r, err := mcpcore.Elicit[retraction](ctx, "Retract it?", mcpcore.OnDecline(cancelled, ctx.RecoveryFor(cancelled)))
func OnDecline(f Failure, opts ...mcperr.Option) AskOption {
	return func(a *ask) { a.onDecline = &declineAs{failure: f, opts: opts} }
}

func askOptions(opts []AskOption) ask {
	var a ask
	for _, o := range opts {
		if o != nil {
			o(&a)
		}
	}
	return a
}

// Elicit asks the user, through the client, to fill in a T, and returns
// the answer. T is a struct of the fields of a form: strings, numbers,
// integers, booleans, and []string multi-selects; its requested schema is
// derived from T as a tool's input schema is, descriptions (`jsonschema`
// tags), defaults (`default`) and closed choices (`enum`, `enumTitles`,
// `enumNames`) included. The answer is validated against that schema and
// its defaults applied before it is decoded into T.
//
// The outcomes, each an error the handler can return as it is:
//   - the user declines or dismisses the question: an error with code
//     InvalidRequest and data.reason "consent_declined" (and data.action,
//     "decline" or "cancel"), which wraps [ErrDeclined]. A tool that declares
//     a Failure with reason "consent_declined" in its Errors gets that
//     failure instead, with its code and severity and no recovery hint:
//     declare one (severity notice) when declining is an ordinary answer.
//     [OnDecline] names the entry to fail with, and its options (its
//     recovery hint);
//   - the client did not declare the elicitation capability: the protocol
//     error of [Context.RequireClient];
//   - under MCP 2026-07-28 and later, before the client has answered: an
//     error wrapping [ErrInputRequired];
//   - an answer that does not fit the schema: ValidationError;
//   - the client failing to answer: ServiceUnavailable.
func Elicit[T any](ctx *Context, message string, opts ...AskOption) (T, error) {
	var zero T
	form, err := elicitationFor(reflect.TypeFor[T]())
	if err != nil {
		return zero, mcperr.InternalError("Elicit: "+err.Error(), mcperr.WithCause(err))
	}
	params := &mcp.ElicitParams{Mode: "form", Message: message, RequestedSchema: form.schema}
	asked := askOptions(opts)
	res, err := askClient(ctx, CapabilityElicitation, asked.key, "Elicit", "elicitation/create", params,
		func(ss *mcp.ServerSession) (*mcp.ElicitResult, error) {
			return ss.Elicit(context.WithValue(ctx, formKey{}, form), params)
		})
	if err != nil {
		return zero, err
	}
	switch res.Action {
	case "accept":
	case "decline", "cancel":
		return zero, ctx.declined(res.Action, asked.onDecline)
	default:
		return zero, mcperr.ValidationError(fmt.Sprintf("The client answered the elicitation with the unknown action %q: want accept, decline or cancel.",
			cutText(res.Action, 64)), mistake(nil))
	}
	raw, err := json.Marshal(res.Content)
	if err != nil {
		return zero, mcperr.ValidationError("The elicitation answer is not valid JSON: " + err.Error())
	}
	// A ValidationError listing the issues, as for a tool's arguments.
	return decodeArgs[T](ctx, form.validator, nil, raw)
}

// formKey carries, in the context of an elicitation/create the server
// sends during a call, the form its answer must fit (see checkAnswers).
type formKey struct{}

// checkAnswers is the sending middleware that checks an answer to
// elicitation/create against its form, as the answers of a later round are
// checked (Elicit), before the SDK's own check: an answer that does not fit
// is then the same ValidationError, listing the same issues and logged at
// notice as the client's mistake, under every protocol version. (The SDK's
// check fails with a plain error, which would be a ServiceUnavailable.)
func checkAnswers(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		f, _ := ctx.Value(formKey{}).(*form)
		r, ok := res.(*mcp.ElicitResult)
		if err != nil || f == nil || !ok || r == nil || r.Action != "accept" || r.Content == nil {
			return res, err
		}
		raw, err := json.Marshal(r.Content)
		if err != nil {
			return nil, mcperr.ValidationError("The elicitation answer is not valid JSON: "+err.Error(), mistake(err))
		}
		if _, err := decodeArgs[map[string]any](ctx, f.validator, nil, raw); err != nil {
			return nil, err
		}
		return res, nil
	}
}

// declined is the error of a declined or dismissed question: the entry
// OnDecline names, else the contract's own consent_declined failure when
// there is one, else the framework's InvalidRequest.
func (c *Context) declined(action string, as *declineAs) *mcperr.Error {
	msg := "The user declined to answer."
	if action == "cancel" {
		msg = "The user dismissed the question without answering."
	}
	opts := []mcperr.Option{mcperr.WithCause(ErrDeclined), mcperr.WithData(map[string]any{"action": action})}
	if as != nil {
		return c.Fail(as.failure, msg, append(opts, as.opts...)...)
	}
	if f, ok := byReason(c.contract, ReasonConsentDeclined); ok {
		return c.Fail(f, msg, opts...)
	}
	return mcperr.InvalidRequest(msg, mcperr.WithCause(ErrDeclined),
		mcperr.WithData(map[string]any{"reason": ReasonConsentDeclined, "action": action}))
}

// clientFailure maps the failure of a request the server sent the client.
// A cancelled or expired call keeps its own outcome (see failureOf).
func clientFailure(ctx *Context, method string, err error) error {
	if ctx.Err() != nil {
		return err
	}
	if e, ok := errchain.As[*mcperr.Error](err); ok && e != nil && isMistake(e) {
		return e // an answer that does not fit its form (checkAnswers)
	}
	return mcperr.ServiceUnavailable(fmt.Sprintf("The client did not answer %s: %s", method, mcperr.Scrub(err.Error())),
		mcperr.WithCause(err), mcperr.WithData(map[string]any{"method": method}))
}

// A form is the requested schema of an elicitation type, and its validator.
type form struct {
	schema    *jsonschema.Schema
	validator *schema.Validator
}

var forms sync.Map // reflect.Type → formOrErr

type formOrErr struct {
	form *form
	err  error
}

// elicitationFor derives (once per type) the form of an elicitation type.
func elicitationFor(t reflect.Type) (*form, error) {
	if f, ok := forms.Load(t); ok {
		fe := f.(formOrErr)
		return fe.form, fe.err
	}
	var fe formOrErr
	s, err := schema.Elicitation(t)
	if err == nil {
		var v *schema.Validator
		if v, err = schema.NewValidator(s); err == nil {
			fe.form = &form{schema: s, validator: v}
		}
	}
	fe.err = err
	forms.Store(t, fe)
	return fe.form, fe.err
}
