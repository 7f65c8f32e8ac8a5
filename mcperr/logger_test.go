package mcperr_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/seed417024ea/mcpcore/mcperr"
)

// Within a request, TryCatch and Retry write to the request's logger, and
// TryCatch's record is at debug: the request's answer reports the failure.
func TestRequestLogger(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})).With("requestId", "R-1")
	ctx := mcperr.WithRequestLogger(context.Background(), log)

	_, err := mcperr.TryCatch(ctx, mcperr.TryCatchOptions{Operation: "Store.Get"}, func(context.Context) (int, error) {
		return 0, errors.New("connection refused")
	})
	if err == nil {
		t.Fatal("TryCatch returned nil")
	}
	if got := buf.String(); !strings.Contains(got, "level=DEBUG") || !strings.Contains(got, "requestId=R-1") || !strings.Contains(got, "Error in Store.Get") {
		t.Errorf("TryCatch record: %q", got)
	}

	// A logger of the caller's own takes the record at error, request or
	// not: the caller chose where it goes.
	buf.Reset()
	own := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	_, _ = mcperr.TryCatch(ctx, mcperr.TryCatchOptions{Operation: "Store.Put", Logger: own}, func(context.Context) (int, error) {
		return 0, errors.New("disk full")
	})
	if got := buf.String(); !strings.Contains(got, "level=ERROR") || !strings.Contains(got, "Error in Store.Put") {
		t.Errorf("TryCatch record with a logger: %q", got)
	}

	buf.Reset()
	attempts := 0
	_, _ = mcperr.Retry(ctx, mcperr.RetryOptions{Operation: "fetch", MaxRetries: 1, BaseDelay: time.Millisecond}, func(context.Context) (int, error) {
		attempts++
		return 0, mcperr.ServiceUnavailable("down")
	})
	if got := buf.String(); attempts != 2 || !strings.Contains(got, "requestId=R-1") || !strings.Contains(got, "Retry 1/1 for fetch") {
		t.Errorf("Retry: %d attempts, records %q", attempts, got)
	}
}
