package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// Contract returns the error contract tool publishes in its
// _meta[[mcpcore.ContractMetaKey]], as tools/list lists it, in declaration
// order; nil, nil when tool is nil or declares nothing (no key, null, or an
// empty list).
//
// Each entry must be an object with a non-empty reason, an integer code, and
// when and recovery strings; retryable, when present, is a boolean (true is
// [mcpcore.Retryable], false [mcpcore.NotRetryable]; absent or null is
// [mcpcore.RetryUnspecified]). Unknown keys are ignored. A contract that is
// not a list of such entries, or that names a reason twice, is an error, a
// SerializationError: a client cannot trust half of a contract. Severity and
// ThrownBy are not published, so they are always zero.
func Contract(tool *mcp.Tool) ([]mcpcore.Failure, error) {
	if tool == nil {
		return nil, nil
	}
	v, ok := tool.Meta[mcpcore.ContractMetaKey]
	if !ok || v == nil {
		return nil, nil
	}
	bad := func(format string, args ...any) error {
		return mcperr.SerializationError(fmt.Sprintf("Tool %s: _meta[%q]: ", tool.Name, mcpcore.ContractMetaKey) + fmt.Sprintf(format, args...))
	}
	raw, ok := v.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(v); err != nil {
			return nil, bad("%v", err)
		}
	}
	var entries []json.RawMessage
	if err := json.Unmarshal(raw, &entries); err != nil {
		return nil, bad("not a list of failures: %v", err)
	}
	if len(entries) == 0 {
		return nil, nil
	}
	out := make([]mcpcore.Failure, len(entries))
	seen := make(map[string]bool, len(entries))
	for i, entry := range entries {
		f, err := parseFailure(entry)
		if err != nil {
			return nil, bad("entry %d: %v", i, err)
		}
		if seen[f.Reason] {
			return nil, bad("entry %d: reason %q declared twice", i, f.Reason)
		}
		seen[f.Reason] = true
		out[i] = f
	}
	return out, nil
}

// parseFailure reads one published contract entry, as Contract documents.
func parseFailure(raw json.RawMessage) (mcpcore.Failure, error) {
	var w struct {
		Reason    *string         `json:"reason"`
		Code      json.RawMessage `json:"code"`
		When      *string         `json:"when"`
		Recovery  *string         `json:"recovery"`
		Retryable *bool           `json:"retryable"`
	}
	if raw = bytes.TrimSpace(raw); len(raw) == 0 || raw[0] != '{' {
		return mcpcore.Failure{}, fmt.Errorf("not an object: %s", raw)
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		return mcpcore.Failure{}, err
	}
	switch {
	case w.Reason == nil || *w.Reason == "":
		return mcpcore.Failure{}, errors.New("no reason")
	case w.When == nil:
		return mcpcore.Failure{}, fmt.Errorf("reason %q: no when", *w.Reason)
	case w.Recovery == nil:
		return mcpcore.Failure{}, fmt.Errorf("reason %q: no recovery", *w.Reason)
	}
	code, ok := parseCode(w.Code)
	if !ok {
		return mcpcore.Failure{}, fmt.Errorf("reason %q: code %s is not a JSON-RPC error code", *w.Reason, orNothing(w.Code))
	}
	f := mcpcore.Failure{Reason: *w.Reason, Code: code, When: *w.When, Recovery: *w.Recovery}
	if w.Retryable != nil {
		f.Retryable = mcpcore.NotRetryable
		if *w.Retryable {
			f.Retryable = mcpcore.Retryable
		}
	}
	return f, nil
}

// Contracts lists the tools of the session's server and returns the contract
// of each tool that declares one, by tool name, as [Contract] reads it. The
// error of the listing is an [*mcperr.Error] as [FromRPC] gives it; that of
// a malformed contract is [Contract]'s.
func Contracts(ctx context.Context, cs *mcp.ClientSession) (map[string][]mcpcore.Failure, error) {
	out := make(map[string][]mcpcore.Failure)
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, FromRPC(err)
		}
		c, err := Contract(tool)
		if err != nil {
			return nil, err
		}
		if c != nil {
			out[tool.Name] = c
		}
	}
	return out, nil
}

// orNothing shows a JSON value in an error message, or "(none)".
func orNothing(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "(none)"
	}
	return string(raw)
}
