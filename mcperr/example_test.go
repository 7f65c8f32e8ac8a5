package mcperr_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/seed417024ea/mcpcore/mcperr"
)

func ExampleNew() {
	// Codes without a factory are spelled out with New.
	err := mcperr.New(mcperr.CodeMethodNotFound, "no such method: tools/explode")
	fmt.Println(err.Code(), int32(err.Code()))
	fmt.Println(err)
	// Output:
	// MethodNotFound -32601
	// no such method: tools/explode
}

func ExampleNotFound() {
	// Data travels to the client; a top-level "auth" key never does.
	err := mcperr.NotFound("Item 7 not found",
		mcperr.WithData(map[string]any{"itemId": "7", "auth": map[string]any{"token": "SECRET"}}),
		mcperr.WithCause(sql.ErrNoRows))
	wire, _ := json.Marshal(err)
	fmt.Println(string(wire))
	// The cause stays on the server, for errors.Is and logs.
	fmt.Println(errors.Is(err, sql.ErrNoRows))
	// Output:
	// {"code":-32001,"message":"Item 7 not found","data":{"itemId":"7"}}
	// true
}

func ExampleCodeOf() {
	_, openErr := os.Open("/no/such/file")
	for _, err := range []error{
		fmt.Errorf("load item: %w", mcperr.Conflict("version mismatch")),
		context.Canceled,
		openErr,
		errors.New("Request failed with status code 429"),
		errors.New("the payment provider returned an upstream error"),
		errors.New("something broke"),
	} {
		fmt.Println(mcperr.CodeOf(err))
	}
	// Output:
	// Conflict
	// RequestCancelled
	// NotFound
	// RateLimited
	// ServiceUnavailable
	// InternalError
}

func ExampleFrom() {
	// An *Error in the chain comes back as it is, data and all.
	typed := mcperr.RateLimited("quota exhausted", mcperr.WithData(map[string]any{"retryAfter": "30"}))
	fmt.Println(mcperr.From(fmt.Errorf("sync: %w", typed)) == typed)

	// Anything else is classified: its message, no data, itself as the cause.
	err := fmt.Errorf("user 7: %w", sql.ErrNoRows)
	e := mcperr.From(err)
	wire, _ := json.Marshal(e)
	fmt.Println(string(wire))
	fmt.Println(e.Cause() == err, errors.Is(e, sql.ErrNoRows))
	// Output:
	// true
	// {"code":-32001,"message":"user 7: sql: no rows in result set"}
	// true true
}

// overQuotaError is a service's own error type that knows its code.
type overQuotaError struct{ tenant string }

func (e *overQuotaError) Error() string          { return "tenant " + e.tenant + " is over quota" }
func (e *overQuotaError) ErrorCode() mcperr.Code { return mcperr.CodeRateLimited }

func ExampleCoder() {
	err := fmt.Errorf("import: %w", &overQuotaError{tenant: "acme"})
	fmt.Println(mcperr.CodeOf(err), mcperr.CodeOf(err).Transient())
	// Output:
	// RateLimited true
}

func ExampleScrub() {
	// A message for the client built from an upstream's own error text.
	upstream := `invalid_grant: refresh_token=r-7Hq2 rejected for https://ann:pw@auth.example.com/token`
	err := mcperr.Unauthorized("Sign-in failed: " + mcperr.Scrub(upstream))
	fmt.Println(err.Message())

	// From scrubs the message of every error it classifies.
	e := mcperr.From(fmt.Errorf("load profile: %w", errors.New("db: password=hunter2 refused")))
	fmt.Println(e.Code(), e.Message())
	// Output:
	// Sign-in failed: invalid_grant: refresh_token=[REDACTED] rejected for https://[REDACTED]@auth.example.com/token
	// InternalError load profile: db: password=[REDACTED] refused
}
