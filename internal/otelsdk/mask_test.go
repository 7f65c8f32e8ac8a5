package otelsdk

import (
	"context"
	"errors"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"

	"github.com/seed417024ea/mcpcore"
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

// TestExportMasksKeptSecrets: an exporter built from the environment
// masks the kept secrets in every span it exports, a service's own
// included: its name, attributes, status and events.
func TestExportMasksKeptSecrets(t *testing.T) {
	var out wiretest.LogBuffer
	p, tel := built(t, Config{ServiceName: "notes", Console: &out, Env: envOf(map[string]string{"OTEL_TRACES_EXPORTER": "console"})})
	ctx, c := tel.StartCall(context.Background(), toolCall)
	_, span := tel.TracerProvider().Tracer("notes/upstream").Start(ctx, "GET "+spanSecret)
	span.SetAttributes(attribute.String("url.full", "https://api.notes.example/v1?key="+spanSecret),
		attribute.StringSlice("args", []string{"x", spanSecret}), attribute.Int("n", 3))
	span.RecordError(errors.New("the key `" + spanSecret + "` is not allowed"))
	span.SetStatus(codes.Error, "400: "+spanSecret)
	span.End()
	c.End(mcpcore.CallOutcome{Failed: true, Code: mcperr.CodeInvalidParams, Message: "refused: " + spanSecret, Cause: errors.New("x")})
	if err := p.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	if strings.Contains(s, spanSecret) || strings.Count(s, redact.Marker) != 7 || !strings.Contains(s, `"Value":3`) {
		t.Errorf("console output:\n%s", s)
	}
}
