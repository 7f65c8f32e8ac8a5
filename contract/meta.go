package contract

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/seed417024ea/mcpcore/mcperr"
)

// MetaKey is the key under which a definition's error contract is published
// in its _meta (in tools/list for a tool): a list of [Entry] objects in
// declaration order, so that clients can read a tool's failure modes without
// parsing schema prose.
const MetaKey = "mcpcore/errors"

// An Entry is the published form of a [Failure], one element of the list
// under [MetaKey]: {reason, code, when, recovery, retryable?}. Severity and
// ThrownBy are operator and linter concerns and stay private.
type Entry struct {
	Reason   string `json:"reason"`
	Code     int32  `json:"code"`
	When     string `json:"when"`
	Recovery string `json:"recovery"`
	// Retryable is nil when the entry declares [RetryUnspecified].
	Retryable *bool `json:"retryable,omitempty"`
}

// Publish returns the published form of a contract, entry by entry in
// declaration order.
func Publish(contract []Failure) []Entry {
	out := make([]Entry, len(contract))
	for i, f := range contract {
		out[i] = Entry{Reason: f.Reason, Code: int32(f.Code), When: f.When, Recovery: f.Recovery}
		if retryable, ok := f.Retryable.Flag(); ok {
			out[i].Retryable = &retryable
		}
	}
	return out
}

// ParseMeta reads back the contract published in meta (a definition's
// _meta, such as an mcp.Tool's Meta) under [MetaKey], in declaration order;
// nil, nil when it declares nothing (no key, null, or an empty list). The
// value may be as a client decoded it (a []any of map[string]any) or as a
// server holds it ([]Entry, json.RawMessage): it is read through JSON.
//
// Each entry must be an object with a non-empty reason, an integer code, and
// when and recovery strings; retryable, when present, is a boolean (true is
// [Retryable], false [NotRetryable]; absent or null is [RetryUnspecified]).
// Unknown keys are ignored. A contract that is not a list of such entries,
// or that names a reason twice, is an error: a client cannot trust half of a
// contract. Severity and ThrownBy are not published, so they are always
// zero.
func ParseMeta(meta map[string]any) ([]Failure, error) {
	v, ok := meta[MetaKey]
	if !ok || v == nil {
		return nil, nil
	}
	raw, ok := v.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(v); err != nil {
			return nil, err
		}
	}
	var entries []json.RawMessage
	if err := json.Unmarshal(raw, &entries); err != nil {
		return nil, fmt.Errorf("not a list of failures: %v", err)
	}
	if len(entries) == 0 {
		return nil, nil
	}
	out := make([]Failure, len(entries))
	seen := make(map[string]bool, len(entries))
	for i, entry := range entries {
		f, err := parseEntry(entry)
		if err != nil {
			return nil, fmt.Errorf("entry %d: %v", i, err)
		}
		if seen[f.Reason] {
			return nil, fmt.Errorf("entry %d: reason %q declared twice", i, f.Reason)
		}
		seen[f.Reason] = true
		out[i] = f
	}
	return out, nil
}

// parseEntry reads one published contract entry, as ParseMeta documents.
// It is stricter than decoding into an Entry: a missing field, a string
// code or a fractional one is an error, not a zero.
func parseEntry(raw json.RawMessage) (Failure, error) {
	var w struct {
		Reason    *string         `json:"reason"`
		Code      json.RawMessage `json:"code"`
		When      *string         `json:"when"`
		Recovery  *string         `json:"recovery"`
		Retryable *bool           `json:"retryable"`
	}
	if raw = bytes.TrimSpace(raw); len(raw) == 0 || raw[0] != '{' {
		return Failure{}, fmt.Errorf("not an object: %s", raw)
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		return Failure{}, err
	}
	switch {
	case w.Reason == nil || *w.Reason == "":
		return Failure{}, errors.New("no reason")
	case w.When == nil:
		return Failure{}, fmt.Errorf("reason %q: no when", *w.Reason)
	case w.Recovery == nil:
		return Failure{}, fmt.Errorf("reason %q: no recovery", *w.Reason)
	}
	code, ok := ParseCode(w.Code)
	if !ok {
		return Failure{}, fmt.Errorf("reason %q: code %s is not a JSON-RPC error code", *w.Reason, orNothing(w.Code))
	}
	return Failure{Reason: *w.Reason, Code: code, When: *w.When, Recovery: *w.Recovery, Retryable: retryabilityOf(w.Retryable)}, nil
}

// ParseCode reads a JSON-RPC error code as the wire carries it, in a
// contract entry or an error object: a JSON integer (not a string) that
// fits a [mcperr.Code].
func ParseCode(raw json.RawMessage) (mcperr.Code, bool) {
	if len(raw) == 0 || (raw[0] != '-' && (raw[0] < '0' || raw[0] > '9')) {
		return 0, false
	}
	i, err := json.Number(raw).Int64()
	if err != nil || i < math.MinInt32 || i > math.MaxInt32 {
		return 0, false
	}
	return mcperr.Code(i), true
}

// orNothing shows a JSON value in an error message, or "(none)".
func orNothing(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "(none)"
	}
	return string(raw)
}
