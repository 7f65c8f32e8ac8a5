package mcpcore_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/mcperr"
)

func okHandler(*mcpcore.Context, caseInput) (okOutput, error) { return okOutput{OK: true}, nil }

// contractTool is a valid tool but for its contract.
func contractTool(name string, contract ...mcpcore.Failure) mcpcore.Tool[caseInput, okOutput] {
	return mcpcore.Tool[caseInput, okOutput]{Name: name, Errors: contract, Handler: okHandler}
}

// entry is a valid contract entry, adjusted by f.
func entry(f func(*mcpcore.Failure)) mcpcore.Failure {
	e := mcpcore.Failure{
		Reason:   "no_match",
		Code:     mcperr.CodeNotFound,
		When:     "Nothing matched.",
		Recovery: "Broaden the query and call the tool again.",
	}
	if f != nil {
		f(&e)
	}
	return e
}

type errorFieldOutput struct {
	Error string `json:"error" jsonschema:"a field the failure envelope owns"`
}

// newServerErr builds a server expected to be refused and returns the
// error, checking its type and code.
func newServerErr(t *testing.T, defs ...mcpcore.Definition) *mcperr.Error {
	t.Helper()
	srv, err := mcpcore.NewServer(mcpcore.Info{Name: "bad"}, &mcpcore.ServerOptions{}, defs...)
	if err == nil {
		t.Fatalf("NewServer accepted the definitions (server %v)", srv)
	}
	var e *mcperr.Error
	if !errors.As(err, &e) {
		t.Fatalf("error is %T, want *mcperr.Error: %v", err, err)
	}
	return e
}

func TestNewServerRefusesBrokenDefinitions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		def  mcpcore.Definition
		want string
	}{
		{"unknown code", contractTool("t", entry(func(f *mcpcore.Failure) { f.Code = 12345 })),
			`tool "t": error contract entry 0 (reason "no_match"): unknown code 12345`},
		{"empty reason", contractTool("t", entry(func(f *mcpcore.Failure) { f.Reason = "" })),
			`tool "t": error contract entry 0: empty reason`},
		{"duplicate reason", contractTool("t", entry(nil), entry(func(f *mcpcore.Failure) { f.When = "Other." })),
			`tool "t": error contract entry 1 (reason "no_match"): duplicate reason`},
		{"empty When", contractTool("t", entry(func(f *mcpcore.Failure) { f.When = "" })),
			`tool "t": error contract entry 0 (reason "no_match"): empty When`},
		{"empty Recovery", contractTool("t", entry(func(f *mcpcore.Failure) { f.Recovery = "" })),
			`tool "t": error contract entry 0 (reason "no_match"): empty Recovery`},
		{"whitespace Recovery", contractTool("t", entry(func(f *mcpcore.Failure) { f.Recovery = " \t\n" })),
			`tool "t": error contract entry 0 (reason "no_match"): empty Recovery`},
		{"unknown severity", contractTool("t", entry(func(f *mcpcore.Failure) { f.Severity = "critical" })),
			`tool "t": error contract entry 0 (reason "no_match"): unknown severity "critical"`},
		{"unknown ThrownBy", contractTool("t", entry(func(f *mcpcore.Failure) { f.ThrownBy = "elsewhere" })),
			`tool "t": error contract entry 0 (reason "no_match"): unknown ThrownBy "elsewhere"`},
		{"unknown Retryable", contractTool("t", entry(func(f *mcpcore.Failure) { f.Retryable = 7 })),
			`tool "t": error contract entry 0 (reason "no_match"): unknown Retryable 7`},
		{"empty tool name", contractTool(""), "tool with an empty Name"},
		{"nil handler", mcpcore.Tool[caseInput, okOutput]{Name: "t"}, `tool "t": nil Handler`},
		{"output with a top-level error field", mcpcore.Tool[caseInput, errorFieldOutput]{
			Name:    "t",
			Handler: func(*mcpcore.Context, caseInput) (errorFieldOutput, error) { return errorFieldOutput{}, nil },
		}, `tool "t": output type`},
		{"resource contract", mcpcore.Resource[idParams, string]{
			Name:        "r",
			URITemplate: "test://r/{id}",
			Errors:      []mcpcore.Failure{entry(func(f *mcpcore.Failure) { f.When = "  " })},
			Handler:     func(*mcpcore.Context, idParams) (string, error) { return "", nil },
		}, `resource "r": error contract entry 0 (reason "no_match"): empty When`},
		{"resource nil handler", mcpcore.Resource[idParams, string]{Name: "r", URITemplate: "test://r/{id}"}, `resource "r": nil Handler`},
		{"prompt nil handler", mcpcore.Prompt[briefArgs]{Name: "p"}, `prompt "p": nil Handler`},
		{"nil definition", nil, "nil definition"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newServerErr(t, tc.def)
			if e.Code() != mcperr.CodeInitializationFailed {
				t.Errorf("code = %v, want InitializationFailed", e.Code())
			}
			if !strings.Contains(e.Message(), tc.want) {
				t.Errorf("message %q does not contain %q", e.Message(), tc.want)
			}
			if tc.name == "output with a top-level error field" && !strings.Contains(e.Message(), `"error"`) {
				t.Errorf("message %q does not name the reserved field", e.Message())
			}
		})
	}
}

func TestNewServerReportsEveryProblem(t *testing.T) {
	t.Parallel()
	e := newServerErr(t,
		contractTool("first",
			entry(nil),
			entry(func(f *mcpcore.Failure) { f.Code = 1 }),
			entry(func(f *mcpcore.Failure) { f.Reason = "second"; f.Recovery = "" }),
		),
		contractTool("fine", entry(nil)),
		mcpcore.Tool[caseInput, okOutput]{Name: "no_handler"},
		mcpcore.Resource[idParams, string]{
			Name:        "res",
			URITemplate: "test://res/{id}",
			Errors:      []mcpcore.Failure{entry(nil), entry(nil)},
			Handler:     func(*mcpcore.Context, idParams) (string, error) { return "", nil },
		},
	)
	for _, want := range []string{
		`tool "first": error contract entry 1 (reason "no_match"): unknown code 1`,
		`tool "first": error contract entry 1 (reason "no_match"): duplicate reason`,
		`tool "first": error contract entry 2 (reason "second"): empty Recovery`,
		`tool "no_handler": nil Handler`,
		`resource "res": error contract entry 1 (reason "no_match"): duplicate reason`,
	} {
		if !strings.Contains(e.Message(), want) {
			t.Errorf("message does not contain %q:\n%s", want, e.Message())
		}
	}
	if strings.Contains(e.Message(), `"fine"`) {
		t.Errorf("the valid tool is reported:\n%s", e.Message())
	}
	if n := strings.Count(e.Message(), "\n") + 1; n != 5 {
		t.Errorf("%d problems reported, want 5:\n%s", n, e.Message())
	}
}

func TestNewServerAcceptsAValidContract(t *testing.T) {
	t.Parallel()
	_, err := mcpcore.NewServer(mcpcore.Info{Name: "good"}, &mcpcore.ServerOptions{},
		contractTool("t",
			entry(func(f *mcpcore.Failure) { f.Severity = "error"; f.ThrownBy = "handler" }),
			entry(func(f *mcpcore.Failure) {
				f.Reason, f.Severity, f.ThrownBy, f.Retryable = "other", mcpcore.SeverityDebug, mcpcore.ThrownByService, mcpcore.NotRetryable
			}),
		),
		itemResource, briefPrompt,
	)
	if err != nil {
		t.Fatal(err)
	}
}

func TestNewServerRefusesAnEmptyName(t *testing.T) {
	t.Parallel()
	_, err := mcpcore.NewServer(mcpcore.Info{}, &mcpcore.ServerOptions{})
	if mcperr.CodeOf(err) != mcperr.CodeInitializationFailed || !strings.Contains(err.Error(), "Info.Name") {
		t.Errorf("error = %v, want InitializationFailed naming Info.Name", err)
	}
}

// TestRegisteredToolsAreServed checks that a server lists and serves what it
// was given.
func TestRegisteredToolsAreServed(t *testing.T) {
	t.Parallel()
	cs, _ := connect(t, renderTool, searchTool, plainTool, itemResource, briefPrompt)
	var names []string
	for tool, err := range cs.Tools(t.Context(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tool.Name)
	}
	wiretest.AssertJSON(t, "tools", names, `["plain","render","search"]`)
	res, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: "test://items/1"})
	if err != nil || len(res.Contents) != 1 {
		t.Fatalf("ReadResource: %v %v", res, err)
	}
}

// TestNewServerRefusesDuplicateNames: the SDK replaces a definition added
// twice, which would silently drop the first one's contract.
func TestNewServerRefusesDuplicateNames(t *testing.T) {
	t.Parallel()
	e := newServerErr(t, contractTool("twice"), contractTool("twice", entry(nil)))
	if !strings.Contains(e.Message(), `tool "twice" is defined twice`) {
		t.Errorf("message = %q, want it to name the duplicate tool", e.Message())
	}
}
