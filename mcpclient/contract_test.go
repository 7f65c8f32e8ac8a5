package mcpclient_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcpclient"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// TestContract reads tools as tools/list sends them (wire JSON decoded by
// the SDK) into their contracts.
func TestContract(t *testing.T) {
	for _, tc := range []struct {
		name string
		meta string // the tool's _meta; "" for none
		want []mcpcore.Failure
		err  string // a part of the error, "" for none
	}{
		{name: "no _meta"},
		{name: "no contract", meta: `{"other":1}`},
		{name: "null", meta: `{"mcpcore/errors":null}`},
		{name: "empty", meta: `{"mcpcore/errors":[]}`},
		{
			name: "three retryabilities",
			meta: `{"mcpcore/errors":[
				{"reason":"no_match","code":-32001,"when":"No requested PMID returned data","recovery":"Try pubmed_search_articles."},
				{"reason":"queue_full","code":-32003,"when":"Queue full","recovery":"Wait 30 seconds.","retryable":true},
				{"reason":"gone","code":-32001,"when":"Deleted","recovery":"Do not ask again.","retryable":false}]}`,
			want: []mcpcore.Failure{
				{Reason: "no_match", Code: mcperr.CodeNotFound, When: "No requested PMID returned data", Recovery: "Try pubmed_search_articles."},
				{Reason: "queue_full", Code: mcperr.CodeRateLimited, When: "Queue full", Recovery: "Wait 30 seconds.", Retryable: mcpcore.Retryable},
				{Reason: "gone", Code: mcperr.CodeNotFound, When: "Deleted", Recovery: "Do not ask again.", Retryable: mcpcore.NotRetryable},
			},
		},
		{
			name: "null retryable is unspecified, unknown keys are ignored, unknown codes kept",
			meta: `{"mcpcore/errors":[{"reason":"odd","code":-31999,"when":"w","recovery":"r","retryable":null,"severity":"notice"}]}`,
			want: []mcpcore.Failure{{Reason: "odd", Code: -31999, When: "w", Recovery: "r"}},
		},
		{name: "not a list", meta: `{"mcpcore/errors":{"reason":"x"}}`, err: "not a list of failures"},
		{name: "an entry that is not an object", meta: `{"mcpcore/errors":["no_match"]}`, err: "entry 0: not an object"},
		{name: "no reason", meta: `{"mcpcore/errors":[{"code":-32001,"when":"w","recovery":"r"}]}`, err: "entry 0: no reason"},
		{name: "empty reason", meta: `{"mcpcore/errors":[{"reason":"","code":-32001,"when":"w","recovery":"r"}]}`, err: "entry 0: no reason"},
		{name: "no code", meta: `{"mcpcore/errors":[{"reason":"x","when":"w","recovery":"r"}]}`, err: `reason "x": code (none) is not`},
		{name: "a string code", meta: `{"mcpcore/errors":[{"reason":"x","code":"-32001","when":"w","recovery":"r"}]}`, err: `code "-32001" is not`},
		{name: "a fractional code", meta: `{"mcpcore/errors":[{"reason":"x","code":-32001.5,"when":"w","recovery":"r"}]}`, err: `code -32001.5 is not`},
		{name: "no when", meta: `{"mcpcore/errors":[{"reason":"x","code":-32001,"recovery":"r"}]}`, err: `reason "x": no when`},
		{name: "no recovery", meta: `{"mcpcore/errors":[{"reason":"x","code":-32001,"when":"w"}]}`, err: `reason "x": no recovery`},
		{name: "a string retryable", meta: `{"mcpcore/errors":[{"reason":"x","code":-32001,"when":"w","recovery":"r","retryable":"yes"}]}`, err: "entry 0"},
		{
			name: "a reason twice",
			meta: `{"mcpcore/errors":[{"reason":"x","code":-32001,"when":"w","recovery":"r"},{"reason":"x","code":-32000,"when":"w","recovery":"r"}]}`,
			err:  `entry 1: reason "x" declared twice`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wire := `{"name":"fetch_articles","inputSchema":{"type":"object"}`
			if tc.meta != "" {
				wire += `,"_meta":` + tc.meta
			}
			var tool mcp.Tool
			if err := json.Unmarshal([]byte(wire+"}"), &tool); err != nil {
				t.Fatalf("decoding the wire tool: %v", err)
			}
			got, err := mcpclient.Contract(&tool)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), "fetch_articles") {
					t.Fatalf("error = %v, want one naming the tool and saying %q", err, tc.err)
				}
				if mcperr.CodeOf(err) != mcperr.CodeSerializationError {
					t.Errorf("error code = %v, want SerializationError", mcperr.CodeOf(err))
				}
				if got != nil {
					t.Errorf("contract = %v with an error, want nil", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("contract:\n got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestContractNil(t *testing.T) {
	if c, err := mcpclient.Contract(nil); c != nil || err != nil {
		t.Errorf("Contract(nil) = %v, %v; want nil, nil", c, err)
	}
}

// TestContractsRoundTrip: what a server declares is what a client reads
// back, but for the fields that are not published (Severity, ThrownBy).
func TestContractsRoundTrip(t *testing.T) {
	declared := []mcpcore.Failure{
		outOfStock, warehouseBusy,
		{Reason: "quiet", Code: mcperr.CodeConflict, When: "w", Recovery: "Read the order first, then retry.",
			Severity: mcpcore.SeverityNotice, ThrownBy: mcpcore.ThrownByService},
	}
	tool := orderItem
	tool.Errors = declared
	other := mcpcore.Tool[orderInput, orderOutput]{Name: "no_contract", Description: "Declares nothing.",
		Handler: func(*mcpcore.Context, orderInput) (orderOutput, error) { return orderOutput{}, nil }}
	cs := session(t, nil, tool, other)

	got, err := mcpclient.Contracts(context.Background(), cs)
	if err != nil {
		t.Fatal(err)
	}
	want := append([]mcpcore.Failure(nil), declared...)
	want[2].Severity, want[2].ThrownBy = "", ""
	if !reflect.DeepEqual(got, map[string][]mcpcore.Failure{"order_item": want}) {
		t.Errorf("contracts:\n got %+v\nwant %+v", got, want)
	}
}

func TestContractsClosedSession(t *testing.T) {
	cs := session(t, nil, orderItem)
	cs.Close()
	_, err := mcpclient.Contracts(context.Background(), cs)
	if mcperr.CodeOf(err) != mcperr.CodeServiceUnavailable {
		t.Errorf("error = %v (code %v), want ServiceUnavailable", err, mcperr.CodeOf(err))
	}
}
