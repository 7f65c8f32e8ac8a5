package mcperr_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/seed417024ea/mcpcore/mcperr"
)

// exampleLogger logs JSON to stdout without the time, so that the output
// of an example is stable.
func exampleLogger(level slog.Level) *slog.Logger {
	return slog.New(slog.NewJSONHandler(os.Stdout, &slog.HandlerOptions{
		Level: level,
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey && len(groups) == 0 {
				return slog.Attr{}
			}
			return a
		},
	}))
}

func ExampleTryCatch() {
	type lookup struct {
		ID     string `json:"id"`
		APIKey string `json:"apiKey"`
	}
	in := lookup{ID: "7", APIKey: "K-123"}

	title, err := mcperr.TryCatch(context.Background(), mcperr.TryCatchOptions{
		Operation: "ArticleStore.Title",
		Logger:    exampleLogger(slog.LevelInfo),
		Attrs:     []slog.Attr{slog.String("requestId", "R-1")},
		Input:     in,
	}, func(ctx context.Context) (string, error) {
		// The store failed; the service says what that means for the client.
		return "", mcperr.NotFound("Article 7 not found",
			mcperr.WithData(map[string]any{"reason": "no_match"}),
			mcperr.WithCause(errors.New("sql: no rows in result set")))
	})
	fmt.Printf("%q\n", title)
	fmt.Println(mcperr.CodeOf(err), err)
	fmt.Println(mcperr.From(err).Data()) // nothing diagnostic added
	// Output:
	// {"level":"ERROR","msg":"Error in ArticleStore.Title: Article 7 not found","operation":"ArticleStore.Title","requestId":"R-1","input":{"apiKey":"[REDACTED]","id":"7"},"code":-32001,"codeName":"NotFound","originalType":"*mcperr.Error","cause":["sql: no rows in result set"]}
	// ""
	// NotFound Article 7 not found
	// map[reason:no_match]
}

func ExampleTryCatch_code() {
	// A failure without a code gets the one the options give.
	_, err := mcperr.TryCatch(context.Background(), mcperr.TryCatchOptions{
		Operation: "Geocoder.Lookup",
		Logger:    exampleLogger(slog.LevelInfo),
		Code:      mcperr.CodeServiceUnavailable,
		Critical:  true,
	}, func(ctx context.Context) ([]float64, error) {
		return nil, fmt.Errorf("geocoder: %w", errors.New("EOF"))
	})
	e := mcperr.From(err)
	fmt.Println(e.Code(), e.Message(), e.Data() == nil)
	// Output:
	// {"level":"ERROR","msg":"Error in Geocoder.Lookup: geocoder: EOF","operation":"Geocoder.Lookup","code":-32000,"codeName":"ServiceUnavailable","originalType":"*fmt.wrapError","cause":["EOF"],"critical":true}
	// ServiceUnavailable geocoder: EOF true
}

func ExampleRetry() {
	calls := 0
	n, err := mcperr.Retry(context.Background(), mcperr.RetryOptions{
		MaxRetries: 2,
		BaseDelay:  time.Millisecond,
		Jitter:     mcperr.NoJitter, // exact delays: 1ms, then 2ms
		Operation:  "fetchStudy",
		Logger:     exampleLogger(slog.LevelDebug),
	}, func(ctx context.Context) (int, error) {
		calls++
		if calls < 3 {
			return 0, mcperr.ServiceUnavailable("upstream unavailable")
		}
		return 42, nil
	})
	fmt.Println(n, err, calls)
	// Output:
	// {"level":"DEBUG","msg":"Retry 1/2 for fetchStudy: upstream unavailable — waiting 1ms","operation":"fetchStudy","code":-32000,"attempt":1,"maxRetries":2,"delay":1000000,"retryAfter":false}
	// {"level":"DEBUG","msg":"Retry 2/2 for fetchStudy: upstream unavailable — waiting 2ms","operation":"fetchStudy","code":-32000,"attempt":2,"maxRetries":2,"delay":2000000,"retryAfter":false}
	// 42 <nil> 3
}

func ExampleRetry_exhausted() {
	_, err := mcperr.Retry(context.Background(), mcperr.RetryOptions{
		MaxRetries: 1,
		BaseDelay:  time.Millisecond,
		Operation:  "syncCatalog",
	}, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, mcperr.ServiceUnavailable("service still unavailable",
			mcperr.WithData(map[string]any{"upstream": "catalog"}))
	})
	e := mcperr.From(err)
	fmt.Println(e.Code(), e.Message())
	fmt.Println(e.Data())
	// Output:
	// ServiceUnavailable service still unavailable (failed after 2 attempts)
	// map[operation:syncCatalog retryAttempts:2 upstream:catalog]
}

func ExampleRetry_failFast() {
	// Not transient: returned at once, unchanged.
	calls := 0
	_, err := mcperr.Retry(context.Background(), mcperr.RetryOptions{}, func(ctx context.Context) (int, error) {
		calls++
		return 0, mcperr.Forbidden("Token lacks the articles:read scope")
	})
	fmt.Println(calls, mcperr.CodeOf(err), err)

	// The upstream asks for a wait longer than MaxDelay: returned at once.
	calls = 0
	_, err = mcperr.Retry(context.Background(), mcperr.RetryOptions{MaxDelay: 10 * time.Second}, func(ctx context.Context) (int, error) {
		calls++
		return 0, mcperr.RateLimited("Quota exhausted", mcperr.WithData(map[string]any{"retryAfter": "3600"}))
	})
	fmt.Println(calls, mcperr.CodeOf(err), err)
	// Output:
	// 1 Forbidden Token lacks the articles:read scope
	// 1 RateLimited Quota exhausted
}

func ExampleIsTransient() {
	flaky := errors.New("unexpected EOF from the queue")
	opts := mcperr.RetryOptions{
		// Extend the default rather than replace it.
		IsTransient: func(err error) bool {
			return mcperr.IsTransient(err) || errors.Is(err, flaky)
		},
	}
	fmt.Println(opts.IsTransient(flaky))
	fmt.Println(mcperr.IsTransient(mcperr.Timeout("slow")))
	fmt.Println(mcperr.IsTransient(mcperr.Timeout("slow", mcperr.WithData(map[string]any{"retryable": false}))))
	fmt.Println(mcperr.IsTransient(mcperr.Conflict("version moved", mcperr.WithData(map[string]any{"retryable": true}))))
	// Output:
	// true
	// true
	// false
	// true
}
