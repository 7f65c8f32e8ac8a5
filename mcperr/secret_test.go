package mcperr_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/seed417024ea/mcpcore/mcperr"
)

func TestKeepSecret(t *testing.T) {
	const key = "mcperr-test-key-51Hx"
	if err := mcperr.KeepSecret(key); err != nil {
		t.Fatal(err)
	}
	err := mcperr.KeepSecret("1234567")
	if mcperr.CodeOf(err) != mcperr.CodeConfigurationError || !strings.Contains(err.Error(), "a secret of 7 bytes is too short to mask") ||
		strings.Contains(err.Error(), "1234567") {
		t.Errorf("KeepSecret(7 bytes) = %v", err)
	}
	// A TryCatch record goes through the redaction of the server's own:
	// the kept key is masked whatever the logger.
	var buf bytes.Buffer
	_, _ = mcperr.TryCatch(context.Background(), mcperr.TryCatchOptions{Operation: "Notes.Read", Logger: slog.New(slog.NewJSONHandler(&buf, nil))},
		func(context.Context) (int, error) { return 0, errors.New("the key `" + key + "` is not allowed") })
	if out := buf.String(); strings.Contains(out, key) || !strings.Contains(out, "the key `[REDACTED]` is not allowed") {
		t.Errorf("the record: %s", out)
	}
}
