package httpserve

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

func TestCardGolden(t *testing.T) {
	w := get(t, Card(Fixed(testCatalog()), nil), "127.0.0.1:3010", CardPath)
	if w.Code != http.StatusOK {
		t.Fatalf("status %d", w.Code)
	}
	for k, want := range map[string]string{
		"Content-Type":           "application/json",
		"X-Content-Type-Options": "nosniff",
	} {
		if got := w.Header().Get(k); got != want {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}
	if !json.Valid(w.Body.Bytes()) {
		t.Fatalf("the card is not JSON: %s", w.Body)
	}
	golden(t, "card.golden.json", w.Body.Bytes())
}

// TestCardPublishesContractsAsGiven checks that each tool's _meta is the
// one the server publishes in tools/list, unchanged, and that scopes are
// added beside it without touching the server's map.
func TestCardPublishesContractsAsGiven(t *testing.T) {
	c := testCatalog()
	var got struct {
		ServerInfo struct{ Name string } `json:"serverInfo"`
		Transport  struct{ Type, Endpoint string }
		Tools      []struct {
			Name string
			Meta map[string]any `json:"_meta"`
		}
		Resources []struct {
			URI, URITemplate string
			Meta             map[string]any `json:"_meta"`
		}
	}
	w := get(t, Card(Fixed(c), nil), "127.0.0.1:3010", CardPath)
	if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.ServerInfo.Name != "articles" || got.Transport.Type != "streamable-http" || got.Transport.Endpoint != "/mcp" {
		t.Errorf("serverInfo %+v, transport %+v", got.ServerInfo, got.Transport)
	}
	for i, tool := range c.Tools {
		want := roundTrip(t, tool.Meta)
		if len(tool.Scopes) > 0 {
			want[ScopesMetaKey] = decoded(t, tool.Scopes)
		}
		if d := tool.Disabled; d != nil {
			if want == nil {
				want = map[string]any{}
			}
			want[DisabledMetaKey] = map[string]any{"reason": d.Reason, "hint": d.Hint}
		}
		if !reflect.DeepEqual(got.Tools[i].Meta, want) {
			t.Errorf("tool %s: _meta %v, want %v", tool.Name, got.Tools[i].Meta, want)
		}
		if _, ok := tool.Meta[ScopesMetaKey]; ok {
			t.Errorf("tool %s: the card changed the server's _meta", tool.Name)
		}
	}
	if got.Resources[0].URITemplate != "articles://items/{itemId}" || got.Resources[1].URI != "config://app" {
		t.Errorf("resources: %+v", got.Resources)
	}
	if !reflect.DeepEqual(got.Resources[0].Meta, roundTrip(t, c.Resources[0].Meta)) {
		t.Errorf("resource contract: %v", got.Resources[0].Meta)
	}
}

// roundTrip is v as encoding/json decodes it.
func roundTrip[T any](t *testing.T, v T) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	json.Unmarshal(b, &out)
	return out
}

// decoded is v as encoding/json decodes it into any.
func decoded(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	json.Unmarshal(b, &out)
	return out
}

// TestCardEscapes checks that markup in a definition stays a string in
// the card, and is not markup a browser could sniff.
func TestCardEscapes(t *testing.T) {
	const evil = `<script>alert(1)</script> "quotes"`
	c := testCatalog()
	c.Tools[0].Description = evil
	body := get(t, Card(Fixed(c), nil), "127.0.0.1:3010", CardPath).Body.Bytes()
	if bytes.Contains(body, []byte("<script")) {
		t.Error("the card holds <script> as it is")
	}
	var got struct {
		Tools []struct{ Description string }
	}
	if err := json.Unmarshal(body, &got); err != nil || got.Tools[0].Description != evil {
		t.Errorf("description %q (%v), want %q", got.Tools[0].Description, err, evil)
	}
}

// TestCardFailureIsA500 gives the card a schema that is not JSON: the
// card cannot be encoded, which is logged once and answered with 500.
func TestCardFailureIsA500(t *testing.T) {
	c := testCatalog()
	c.Tools[0].InputSchema = []byte(`{"type":`)
	var logs bytes.Buffer
	h := Card(Fixed(c), slog.New(slog.NewTextHandler(&logs, nil)))
	w := get(t, h, "127.0.0.1:3010", CardPath)
	if w.Code != http.StatusInternalServerError || strings.Contains(w.Body.String(), "serverInfo") {
		t.Errorf("status %d, body %q", w.Code, w.Body)
	}
	if !strings.Contains(logs.String(), "server card cannot be encoded") {
		t.Errorf("log: %q", logs.String())
	}
}
