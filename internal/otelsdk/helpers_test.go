package otelsdk

import (
	"errors"
	"testing"

	"github.com/seed417024ea/mcpcore/internal/telemetry"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// Calls and outcomes the tests record, as the server's dispatch does.
var (
	toolCall = telemetry.CallInfo{Kind: "tool", Name: "fetch_articles", SessionID: "s-1", RequestID: "7",
		Transport: "stdio", ProtocolVersion: "2025-06-18", InputBytes: 42}
	resourceCall = telemetry.CallInfo{Kind: "resource", Name: "article", URI: "articles://host/123",
		SessionID: "s-2", RequestID: "\"abc\"", Transport: "http", InputBytes: 5}
	// A failure whose cause holds a secret: the exception event has the
	// client's message, not the cause's text.
	notFound = telemetry.Outcome{Failed: true, Code: mcperr.CodeNotFound, Message: "None of 2 PMIDs returned data",
		Cause: errors.New("upstream refused: token=s3cr3t-value")}
)

// envOf returns the Env of the variables of m.
func envOf(m map[string]string) Env {
	return ReadEnv(func(k string) string { return m[k] })
}

// built builds the providers of cfg and the server's telemetry on them,
// as package app and the server do.
func built(t testing.TB, cfg Config) (*Providers, *telemetry.Telemetry) {
	t.Helper()
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	tc := telemetry.Config{}
	if p.Tracer != nil {
		tc.TracerProvider = p.Tracer
	}
	if p.Meter != nil {
		tc.MeterProvider = p.Meter
	}
	tel, err := telemetry.New(tc)
	if err != nil {
		t.Fatal(err)
	}
	return p, tel
}
