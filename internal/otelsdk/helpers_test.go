package otelsdk

import (
	"errors"
	"testing"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
	"github.com/seed417024ea/mcpcore/mcpotel"
)

// Calls and outcomes the tests record, as the server's dispatch does.
var (
	toolCall = mcpcore.CallInfo{Kind: "tool", Name: "fetch_articles", SessionID: "s-1", RequestID: "7",
		Transport: "stdio", ProtocolVersion: "2025-06-18", InputBytes: 42}
	resourceCall = mcpcore.CallInfo{Kind: "resource", Name: "article", URI: "articles://host/123",
		SessionID: "s-2", RequestID: "\"abc\"", Transport: "http", InputBytes: 5}
	// A failure whose cause holds a secret: the exception event has the
	// client's message, not the cause's text.
	notFound = mcpcore.CallOutcome{Failed: true, Code: mcperr.CodeNotFound, Message: "None of 2 PMIDs returned data",
		Cause: errors.New("upstream refused: token=s3cr3t-value")}
)

// envOf returns the Env of the variables of m.
func envOf(m map[string]string) Env {
	return ReadEnv(func(k string) string { return m[k] })
}

// built builds the providers of cfg and the server's observer on them, as
// package app does: none when there is no provider.
func built(t testing.TB, cfg Config) (*Providers, *mcpotel.Observer) {
	t.Helper()
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if p.Tracer == nil && p.Meter == nil {
		return p, nil
	}
	opts := mcpotel.Options{}
	if p.Tracer != nil {
		opts.TracerProvider = p.Tracer
	}
	if p.Meter != nil {
		opts.MeterProvider = p.Meter
	}
	tel, err := mcpotel.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return p, tel
}
