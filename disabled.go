package mcpcore

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/internal/errchain"
)

// Disabled declares a definition the server has but does not serve, and
// says why: a tool it ships that needs an upstream credential this
// deployment lacks, say. Set it on a [Tool], [Resource] or [Prompt] when
// building the server:
//
//	if os.Getenv("NOTES_API_KEY") == "" {
//		exportNotes.Disabled = &mcpcore.Disabled{Reason: "credential_missing",
//			Hint: "Set NOTES_API_KEY and restart the server."}
//	}
//
// A disabled definition is listed nowhere a client lists definitions
// (tools/list, …) and completes nothing, as one switched off with
// [Server.SetEnabled]; but the landing page and the server card show it as
// disabled, with its reason and hint, and a use of it is answered with the
// SDK's answer for one it does not have (`unknown tool "…"`, -32602;
// `unknown prompt "…"`, -32602; `Resource not found`, -32602), its data
// carrying them: {"reason": Reason, "recovery": {"hint": Hint}}, beside
// the SDK's "uri" for a resource. A caller that [ServerOptions.Visible]
// does not let see the definition gets the SDK's answer alone, and the
// landing page and card show only what a caller without a token sees.
//
// It is the definition's own state, the same on every replica that builds
// it so: SetEnabled cannot switch it on (the program must build it
// without Disabled), and the state it records for the fleet applies again
// once the definition is built without Disabled.
type Disabled struct {
	// Reason names why, in snake_case as a contract's reasons do
	// ("credential_missing"); it reaches the client as data.reason.
	Reason string
	// Hint tells the user, or the model, what would bring the definition
	// back; it reaches the client as data.recovery.hint.
	Hint string
}

// check refuses a Disabled without a reason or a hint: a definition shown
// as disabled must say why, and what to do.
func (d *Disabled) check(kind, name string) error {
	if d == nil {
		return nil
	}
	if strings.TrimSpace(d.Reason) == "" || strings.TrimSpace(d.Hint) == "" {
		return fmt.Errorf("%s %q: Disabled needs a Reason and a Hint", kind, name)
	}
	return nil
}

// disabledData is the JSON-RPC error data of a use of a disabled
// definition: the SDK's own "uri" for a resource, then why.
type disabledData struct {
	URI      string           `json:"uri,omitempty"`
	Reason   string           `json:"reason"`
	Recovery disabledRecovery `json:"recovery"`
}

type disabledRecovery struct {
	Hint string `json:"hint"`
}

// disabledAnswer is the answer to a request the SDK answered with err: the
// same, with the reason and hint as its data, when err is the SDK's answer
// for a definition it does not have and the request named one declared
// Disabled that its caller sees; err as it is otherwise.
func (s *Server) disabledAnswer(ctx context.Context, req mcp.Request, err error) error {
	sdk, ok := errchain.As[*jsonrpc.Error](err)
	if !ok || sdk == nil || error(sdk) != err {
		return err
	}
	var d *switchable
	var data disabledData
	switch p := req.GetParams().(type) {
	case *mcp.CallToolParamsRaw:
		if sdk.Code != jsonrpc.CodeInvalidParams || sdk.Message != fmt.Sprintf("unknown tool %q", p.Name) {
			return err
		}
		d = s.switches.defs[definitionKey(KindTool, p.Name)]
	case *mcp.GetPromptParams:
		if sdk.Code != jsonrpc.CodeInvalidParams || sdk.Message != fmt.Sprintf("unknown prompt %q", p.Name) {
			return err
		}
		d = s.switches.defs[definitionKey(KindPrompt, p.Name)]
	case *mcp.ReadResourceParams:
		if notFound, _ := mcp.ResourceNotFoundError(p.URI).(*jsonrpc.Error); sdk.Code != notFound.Code || sdk.Message != notFound.Message {
			return err
		}
		d = s.switches.disabledResource(p.URI)
		data.URI = p.URI
	default:
		return err
	}
	if d == nil || d.why == nil || !s.visibleTo(ctx, req.GetExtra(), &d.info) {
		return err
	}
	data.Reason, data.Recovery.Hint = d.why.Reason, d.why.Hint
	raw, mErr := json.Marshal(data)
	if mErr != nil {
		return err
	}
	return &jsonrpc.Error{Code: sdk.Code, Message: sdk.Message, Data: raw}
}

// disabledResource is the first resource declared Disabled whose template
// matches uri, or nil. Only resources declared so are tried, in the order
// they were given.
func (sw *switches) disabledResource(uri string) *switchable {
	for _, d := range sw.disabledResources {
		if d.matches(uri) {
			return d
		}
	}
	return nil
}
