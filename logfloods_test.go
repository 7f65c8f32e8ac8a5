package mcpcore_test

// What a client can make the server log: floods collapse into few records,
// and no record holds more than a few hundred bytes of what a client sent.

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/mcptest"
)

// longestRecord is the size of the longest line of logs.
func longestRecord(logs *wiretest.LogBuffer) int {
	n := 0
	for line := range strings.Lines(logs.String()) {
		n = max(n, len(line))
	}
	return n
}

// recordsWith counts the records of logs whose message holds msg.
func recordsWith(t *testing.T, logs *wiretest.LogBuffer, msg string) int {
	n := 0
	for _, r := range logs.Records(t) {
		if strings.Contains(fmt.Sprint(r["msg"]), msg) {
			n++
		}
	}
	return n
}

// TestTheSDKsRecordsAreCollapsedAndBounded: the records the SDK writes on a
// client's account pass through the collapser and are bounded, those of
// its server as those of its HTTP handler: a client that repeats
// notifications/initialized makes the SDK err each time, sessions without a
// stream to carry their notifications cannot take them, and a resource's
// URI is the client's to choose.
func TestTheSDKsRecordsAreCollapsedAndBounded(t *testing.T) {
	t.Parallel()
	item := mcpcore.Resource[itemParams, string]{
		Name: "item", URITemplate: "test://items/{id}", MIMEType: "text/plain", Subscribe: true,
		Handler: func(_ *mcpcore.Context, p itemParams) (string, error) { return p.ID, nil },
	}
	srv, logs := newServer(t, &mcpcore.ServerOptions{RepeatWindow: time.Hour}, item) // no summary within the test
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	c := rawClient{t: t, endpoint: hs.URL + mcpcore.HTTPPath}

	sid, status, body := c.initialize()
	if sid == "" {
		t.Fatalf("initialize: HTTP %d %s", status, body)
	}
	const repeats = 200
	for range repeats {
		c.do("POST", sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, nil)
	}
	if n := recordsWith(t, logs, "duplicate initialized notification"); n != 1 {
		t.Errorf("%d records of %d duplicate notifications/initialized, want 1 until the window closes", n, repeats)
	}

	// Sessions subscribed without a GET stream, and changes.
	const sessions, changes = 5, 100
	for s := range sessions {
		sid, status, body := c.initialize()
		if sid == "" {
			t.Fatalf("initialize: HTTP %d %s", status, body)
		}
		if status, _, body := c.do("POST", sid, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"resources/subscribe","params":{"uri":"test://items/1"}}`, s+2), nil); status != http.StatusOK {
			t.Fatalf("subscribe: HTTP %d %s", status, body)
		}
	}
	for range changes {
		if err := srv.NotifyResourceUpdated(t.Context(), "test://items/1"); err != nil {
			t.Fatal(err)
		}
	}
	mcptest.WaitFor(t, "an undelivered notification to be logged", func() bool {
		return recordsWith(t, logs, "could not be delivered") > 0
	})
	time.Sleep(100 * time.Millisecond) // room for more records to show
	warnings := 0
	for _, r := range logs.Records(t) {
		if r["level"] == "WARN" {
			warnings++
		}
	}
	if warnings > 2 {
		t.Errorf("%d warnings for %d changes to %d sessions without a stream, want them collapsed", warnings, changes, sessions)
	}

	// A subscription to a 6 KB URI, which the SDK logs (at debug).
	uri := "test://items/" + strings.Repeat("x", 6<<10)
	if status, _, body := c.do("POST", sid, fmt.Sprintf(`{"jsonrpc":"2.0","id":9,"method":"resources/subscribe","params":{"uri":%q}}`, uri), nil); status != http.StatusOK {
		t.Fatalf("subscribe: HTTP %d %s", status, body)
	}
	mcptest.WaitFor(t, "the subscription to be logged", func() bool { return recordsWith(t, logs, "resource subscribed") > 0 })
	if n := longestRecord(logs); n > 2<<10 {
		t.Errorf("the longest record is %d bytes, want what a client sent bounded", n)
	}
	if !strings.Contains(logs.String(), fmt.Sprintf("(%d bytes)", len(uri))) {
		t.Error("the URI cut in the record does not say how long it was")
	}
}

// TestAForeignOriginFloodIsBounded: initializes from foreign origins of
// 60 KB each, every one different, are refused with records that hold at
// most the first few hundred bytes of each origin, with its length, and
// collapse beyond the first distinct ones.
func TestAForeignOriginFloodIsBounded(t *testing.T) {
	t.Parallel()
	logs, c := floodTarget(t)
	const requests = 100
	for i := range requests {
		origin := fmt.Sprintf("https://%s%d.example", strings.Repeat("a", 60<<10), i)
		if status, _, _ := c.do("POST", "", initializeBody, map[string]string{"Origin": origin}); status != http.StatusForbidden {
			t.Fatalf("a foreign origin: HTTP %d", status)
		}
	}
	logged := len(logs.String())
	t.Logf("%d refusals of 60 KB origins: %d records, %d bytes of log", requests, len(logs.Records(t)), logged)
	if n := longestRecord(logs); n > 2<<10 {
		t.Errorf("the longest record is %d bytes, want the origin bounded", n)
	}
	if logged > 16<<10 {
		t.Errorf("%d bytes of log for %d refusals, want them collapsed", logged, requests)
	}
	if !strings.Contains(logs.String(), "bytes)") {
		t.Error("the origin cut in the record does not say how long it was")
	}
}

// TestALongMethodIsBounded: a request with a body and a 60 KB method is
// refused with a record and an answer that hold the start of the method
// only.
func TestALongMethodIsBounded(t *testing.T) {
	t.Parallel()
	srv, logs := newServer(t, nil, searchTool)
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	c := rawClient{t: t, endpoint: hs.URL + mcpcore.HTTPPath}
	status, _, body := c.do(strings.Repeat("X", 60<<10), "", `{}`, nil)
	if status != http.StatusBadRequest || len(body) > 1<<10 {
		t.Errorf("HTTP %d, %d bytes: %.200s", status, len(body), body)
	}
	if n := longestRecord(logs); n > 2<<10 || recordsWith(t, logs, "a body on a XXX") != 1 {
		t.Errorf("the refusal's record (the longest of %d bytes): %.300s", n, logs.String())
	}
}
