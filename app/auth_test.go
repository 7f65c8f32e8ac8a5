package app_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"runtime/pprof"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/app"
	"github.com/seed417024ea/mcpcore/mcptest"
)

// TestCloseStopsTheKeyRefresh checks that the refresh of an OAuth
// issuer's keys, which runs for the app's life, ends with Close: no
// goroutine started by New outlives it, and the issuer is asked no more.
func TestCloseStopsTheKeyRefresh(t *testing.T) {
	t.Parallel()
	var fetches atomic.Int64
	issuer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fetches.Add(1)
		// No usable key: the server retries in a second, then two, ….
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"keys":[]}`))
	}))
	defer issuer.Close()
	env := map[string]string{
		"MCP_TRANSPORT_TYPE": "http",
		"MCP_AUTH_MODE":      "oauth",
		"OAUTH_ISSUER_URL":   issuer.URL,
		"OAUTH_JWKS_URI":     issuer.URL + "/jwks",
		"OAUTH_AUDIENCE":     "https://mcp.example.com",
	}
	cfg, err := app.ConfigFromEnv(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	var a *app.App
	pprof.Do(context.Background(), pprof.Labels("test", t.Name()), func(context.Context) {
		a, err = app.New(mcpcore.Info{Name: "keys"}, cfg, nil)
	})
	if err != nil {
		t.Fatal(err)
	}
	mcptest.WaitFor(t, "the first fetch", func() bool { return fetches.Load() > 0 })
	refreshing := func() bool {
		for _, g := range labelled(t.Name()) {
			if strings.Contains(g, "jwksCache") {
				return true
			}
		}
		return false
	}
	// The first fetch may be answered before the refresher's goroutine is
	// seen in the profile.
	mcptest.WaitFor(t, "a goroutine to refresh the keys before Close", refreshing)

	a.Close(context.Background())
	deadline := time.Now().Add(5 * time.Second)
	for len(labelled(t.Name())) > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if g := labelled(t.Name()); len(g) > 0 {
		t.Errorf("goroutines New started outlive Close:\n%s", strings.Join(g, "\n\n"))
	}
	after := fetches.Load()
	time.Sleep(1500 * time.Millisecond) // past the first retry
	if n := fetches.Load(); n != after {
		t.Errorf("the issuer was asked %d more times after Close", n-after)
	}
}

// labelled returns the stacks of the goroutines running under the pprof
// label test=label.
func labelled(label string) []string {
	var b bytes.Buffer
	pprof.Lookup("goroutine").WriteTo(&b, 1)
	var found []string
	for _, rec := range strings.Split(b.String(), "\n\n") {
		if strings.Contains(rec, `"test":"`+label+`"`) {
			found = append(found, rec)
		}
	}
	return found
}
