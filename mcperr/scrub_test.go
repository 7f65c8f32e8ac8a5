package mcperr

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
)

func TestFromScrubs(t *testing.T) {
	tests := []struct {
		name     string
		err      error
		wantCode Code
		wantMsg  string
	}{
		{"wrapped key=value",
			fmt.Errorf("load: %w", fmt.Errorf("connect to db: password=hunter2")),
			CodeInternalError, "load: connect to db: password=[REDACTED]"},
		{"url.Error",
			&url.Error{Op: "Get", URL: "https://admin:pw@api.example.com/v1?api_key=K3Y&q=1", Err: errors.New("connection refused")},
			CodeServiceUnavailable, `Get "https://[REDACTED]@api.example.com/v1?api_key=[REDACTED]&q=1": connection refused`},
		{"bearer",
			fmt.Errorf("calling upstream: %w", errors.New("header Authorization: Bearer abc.def rejected")),
			CodeInternalError, "calling upstream: header Authorization: [REDACTED] rejected"},
		{"json body",
			fmt.Errorf("upstream said: %s", `{"error":"denied","access_token":"eyJhbGciOiJIUzI1NiJ9.e30.sig"}`),
			CodeInternalError, `upstream said: {"error":"denied","access_token":"[REDACTED]"}`},
		// Classification reads the original: scrubbed, neither message
		// would match its pattern.
		{"classified before scrubbing",
			errors.New("lookup failed: token=not found"),
			CodeNotFound, "lookup failed: token=[REDACTED] found"},
		{"classified before scrubbing, provider",
			errors.New("api_key: ECONNREFUSED9xQ2mZ7w"),
			CodeServiceUnavailable, "api_key: [REDACTED]"},
		{"native error keeps its code",
			fmt.Errorf("password=hunter2: %w", sql.ErrNoRows),
			CodeNotFound, "password=[REDACTED]: sql: no rows in result set"},
		{"clean message unchanged",
			errors.New("template produced an empty document"),
			CodeInternalError, "template produced an empty document"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := From(tt.err)
			if e.Code() != tt.wantCode || e.Message() != tt.wantMsg {
				t.Errorf("From = %v %q\nwant %v %q", e.Code(), e.Message(), tt.wantCode, tt.wantMsg)
			}
			if e.Cause() != tt.err {
				t.Error("the cause is not the original error")
			}
			if CodeOf(tt.err) != e.Code() {
				t.Errorf("CodeOf = %v, From %v", CodeOf(tt.err), e.Code())
			}
		})
	}
}

// An *Error in the chain was written deliberately: From returns the same
// pointer, message untouched, and still allocates nothing.
func TestFromLeavesErrorUnscrubbed(t *testing.T) {
	e := Unauthorized("token=abc is not accepted here", WithData(map[string]any{"hint": "password=x"}))
	for _, err := range []error{e, fmt.Errorf("api_key=K3Y: %w", e)} {
		if got := From(err); got != e || got.Message() != "token=abc is not accepted here" {
			t.Errorf("From = %p %q, want %p unchanged", got, got.Message(), e)
		}
	}
	if n := testing.AllocsPerRun(100, func() { sinkError = From(e) }); n != 0 {
		t.Errorf("From(*Error) allocates %v times", n)
	}
}

func TestScrub(t *testing.T) {
	in := `upstream 401: {"error":"invalid_grant","refresh_token":"r-123"} (Bearer abc123)`
	want := `upstream 401: {"error":"invalid_grant","refresh_token":"[REDACTED]"} (Bearer [REDACTED])`
	if got := Scrub(in); got != want {
		t.Errorf("Scrub = %q\nwant %q", got, want)
	}
	if got := Scrub(want); got != want {
		t.Errorf("Scrub is not idempotent: %q", got)
	}
	clean := "no rows for item 7"
	if n := testing.AllocsPerRun(100, func() { _ = Scrub(clean) }); n != 0 {
		t.Errorf("Scrub of clean text allocates %v times", n)
	}
	// The wire form carries the scrubbed message and nothing else.
	b, _ := json.Marshal(From(errors.New("dial: password=hunter2")))
	if strings.Contains(string(b), "hunter2") || string(b) != `{"code":-32603,"message":"dial: password=[REDACTED]"}` {
		t.Errorf("wire form %s", b)
	}
}
