package telemetry

import (
	"context"
	"errors"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"

	"github.com/seed417024ea/mcpcore/internal/redact"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// spanSecret is kept by the tests below; nothing else here writes it.
const spanSecret = "telemetry-test-secret-8Rw"

func init() {
	if err := redact.Keep(spanSecret); err != nil {
		panic(err)
	}
}

// TestSpanMasksKeptSecrets: the span of a failure whose message quotes a
// kept secret has it masked in its status and exception event, and so
// does a resource URI that holds one; with a provider of the program's
// own (a recorder here), as with one built from the environment.
func TestSpanMasksKeptSecrets(t *testing.T) {
	h := newHarness(t)
	quote := "the key `" + spanSecret + "` is not allowed to read this file"
	h.call(toolCall, Outcome{Failed: true, Code: mcperr.CodeInvalidParams, Message: quote, Cause: errors.New(quote)})
	h.call(CallInfo{Kind: "resource", Name: "note", URI: "notes://" + spanSecret + "/1", Transport: "stdio"}, Outcome{})
	spans := h.ended()
	if len(spans) != 2 {
		t.Fatalf("%d spans", len(spans))
	}
	want := "the key `[REDACTED]` is not allowed to read this file"
	if s := spans[0]; s.Status != "Error: "+want || len(s.Events) != 1 || !strings.Contains(s.Events[0], "exception.message="+want) {
		t.Errorf("failure span: %+v", s)
	}
	if s := spans[1]; strings.Contains(s.Attrs, spanSecret) || !strings.Contains(s.Attrs, "mcp.resource.uri=notes://[REDACTED]/1") {
		t.Errorf("resource span: %+v", s)
	}
}

// TestExportMasksKeptSecrets: an exporter built from the environment
// masks the kept secrets in every span it exports, a service's own
// included: its name, attributes, status and events.
func TestExportMasksKeptSecrets(t *testing.T) {
	var out wiretest.LogBuffer
	tel, err := New(Config{ServiceName: "notes", Console: &out, Env: envOf(map[string]string{"OTEL_TRACES_EXPORTER": "console"})})
	if err != nil {
		t.Fatal(err)
	}
	ctx, c := tel.Start(context.Background(), toolCall)
	_, span := tel.TracerProvider().Tracer("notes/upstream").Start(ctx, "GET "+spanSecret)
	span.SetAttributes(attribute.String("url.full", "https://api.notes.example/v1?key="+spanSecret),
		attribute.StringSlice("args", []string{"x", spanSecret}), attribute.Int("n", 3))
	span.RecordError(errors.New("the key `" + spanSecret + "` is not allowed"))
	span.SetStatus(codes.Error, "400: "+spanSecret)
	span.End()
	c.End(Outcome{Failed: true, Code: mcperr.CodeInvalidParams, Message: "refused: " + spanSecret, Cause: errors.New("x")})
	if err := tel.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	if strings.Contains(s, spanSecret) || strings.Count(s, redact.Marker) != 7 || !strings.Contains(s, `"Value":3`) {
		t.Errorf("console output:\n%s", s)
	}
}
