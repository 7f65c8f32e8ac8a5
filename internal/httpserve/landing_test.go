package httpserve

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"flag"
	"html/template"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/seed417024ea/mcpcore/internal/wiretest"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// golden compares got with testdata/name, or rewrites the file with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	want := wiretest.Golden(t, path, got, *update, "run go test ./internal/httpserve -update to write it")
	if want != nil && !bytes.Equal(got, want) {
		t.Errorf("%s differs from what was rendered; if the change is meant, run go test ./internal/httpserve -update and review the diff.\ngot:\n%s", path, got)
	}
}

func yes() *bool { b := true; return &b }
func no() *bool  { b := false; return &b }

// testCatalog is a server like examples/articles, with one of everything
// the page and the card show: a contract with each kind of retryability and
// a code mcperr does not know, scopes, a hand-written input schema, a
// static resource and a template, prompts with and without arguments.
func testCatalog() *Catalog {
	fetchContract := []Failure{
		{Reason: "no_match", Code: -32001, CodeName: "NotFound", When: "No requested PMID returned data", Recovery: "Try pubmed_search_articles to discover valid PMIDs first."},
		{Reason: "queue_full", Code: -32003, CodeName: "RateLimited", When: "Local request queue is at capacity", Recovery: "Wait 30 seconds and retry, or reduce batch size.", Retryable: yes()},
		{Reason: "ncbi_down", Code: -32000, CodeName: "ServiceUnavailable", When: "NCBI E-utilities unreachable after retries", Recovery: "NCBI is degraded; retry in a few minutes.", Retryable: yes()},
	}
	retractContract := []Failure{
		{Reason: "already_retracted", Code: -32002, CodeName: "Conflict", When: "The article is already retracted", Recovery: "Nothing to do.", Retryable: no()},
		{Reason: "house_rule", Code: -32050, When: "A rule of this deployment refused it", Recovery: "Ask the operator."},
	}
	return &Catalog{
		Name:             "articles",
		Title:            "Articles (reference server)",
		Version:          "1.0.0",
		Instructions:     "Fetch articles by PMID with fetch_articles.\nEvery failure carries a code and a reason.",
		Endpoint:         "/mcp",
		ProtocolVersions: []string{"2026-07-28", "2025-11-25", "2025-06-18"},
		Capabilities:     []byte(`{"logging":{},"prompts":{"listChanged":true},"resources":{"listChanged":true,"subscribe":true},"tools":{"listChanged":true}}`),
		Authentication:   &Authentication{Required: false},
		Tools: []Tool{
			{
				Name:        "fetch_articles",
				Description: "Fetch articles by PMID.",
				Input: []Argument{
					{Name: "pmids", Type: "array of string", Required: true, Description: "PubMed IDs to fetch"},
					{Name: "limit", Type: "integer", Description: "at most this many"},
				},
				Contract:     fetchContract,
				Task:         "optional",
				InputSchema:  []byte(`{"type":"object","required":["pmids"],"properties":{"pmids":{"type":"array","items":{"type":"string"},"description":"PubMed IDs to fetch"},"limit":{"type":"integer","description":"at most this many"}},"additionalProperties":false}`),
				OutputSchema: []byte(`{"type":"object","properties":{"articles":{"type":"array","items":{"type":"string"}}}}`),
				Meta:         map[string]any{"mcpcore/errors": publishedForTest(fetchContract), "mcpcore/task": "optional"},
			},
			{
				Name:        "retract_article",
				Title:       "Retract an article",
				Description: "Retract an article once the user confirms.",
				Input:       []Argument{{Name: "pmid", Type: "string", Required: true}},
				Contract:    retractContract,
				Scopes:      []string{"articles:write", "articles:admin"},
				InputSchema: []byte(`{"type":"object","properties":{"pmid":{"type":"string"}},"required":["pmid"]}`),
				Annotations: []byte(`{"destructiveHint":true}`),
				Meta:        map[string]any{"mcpcore/errors": publishedForTest(retractContract)},
			},
			{
				Name:        "ping",
				Description: "Answers pong.",
				InputSchema: []byte(`{"type":"object"}`),
			},
			{
				Name:        "export_notes",
				Description: "Export the notes to the vault.",
				Input:       []Argument{{Name: "folder", Type: "string", Required: true}},
				InputSchema: []byte(`{"type":"object","properties":{"folder":{"type":"string"}},"required":["folder"]}`),
				Disabled:    &Disabled{Reason: "credential_missing", Hint: "Set NOTES_API_KEY & restart <the> server."},
			},
		},
		Resources: []Resource{
			{
				Name: "item", Title: "Library item", Description: "One article of the library, by PMID.",
				URITemplate: "articles://items/{itemId}", Template: true, MIMEType: "application/json", Subscribe: true,
				Contract: fetchContract[:1],
				Meta:     map[string]any{"mcpcore/errors": publishedForTest(fetchContract[:1])},
			},
			{Name: "config", Description: "The server's settings.", URITemplate: "config://app", MIMEType: "text/plain", Scopes: []string{"config:read"}},
		},
		Prompts: []Prompt{
			{Name: "summarize_article", Description: "Ask the model to fetch and summarize an article.", Arguments: []Argument{
				{Name: "pmid", Description: "the article's PMID", Required: true},
				{Name: "style", Description: "bullet or prose"},
			}},
			{Name: "hello", Title: "Say hello"},
			{Name: "weekly_review", Description: "Review the week's notes.", Disabled: &Disabled{Reason: "vault_unreachable", Hint: "Start the vault's REST plugin."}},
		},
	}
}

// publishedForTest is the contract in the form tools/list publishes it,
// as the server hands it over in Meta.
func publishedForTest(fs []Failure) []map[string]any {
	out := make([]map[string]any, len(fs))
	for i, f := range fs {
		out[i] = map[string]any{"reason": f.Reason, "code": f.Code, "when": f.When, "recovery": f.Recovery}
		if f.Retryable != nil {
			out[i]["retryable"] = *f.Retryable
		}
	}
	return out
}

func get(t *testing.T, h http.Handler, host, path string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(http.MethodGet, path, nil)
	r.Host = host
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func TestLandingGolden(t *testing.T) {
	w := get(t, Landing(Fixed(testCatalog()), nil), "127.0.0.1:3010", "/")
	if w.Code != http.StatusOK {
		t.Fatalf("status %d", w.Code)
	}
	for k, want := range map[string]string{
		"Content-Type":           "text/html; charset=utf-8",
		"X-Content-Type-Options": "nosniff",
		"Content-Security-Policy": "default-src 'none'; style-src '" + styleHash(landingCSS) +
			"'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
	} {
		if got := w.Header().Get(k); got != want {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}
	golden(t, "landing.golden.html", w.Body.Bytes())
}

// TestLandingShowsContracts checks the rows of each contract, with the
// code's number and name, in the table under the tool.
func TestLandingShowsContracts(t *testing.T) {
	page := get(t, Landing(Fixed(testCatalog()), nil), "127.0.0.1:3010", "/").Body.String()
	for _, row := range []string{
		`<tr><th scope="row"><code>no_match</code></th><td class="code">-32001 NotFound</td><td>No requested PMID returned data</td><td>Try pubmed_search_articles to discover valid PMIDs first.</td><td>not declared</td></tr>`,
		`<tr><th scope="row"><code>queue_full</code></th><td class="code">-32003 RateLimited</td><td>Local request queue is at capacity</td><td>Wait 30 seconds and retry, or reduce batch size.</td><td>yes</td></tr>`,
		`<tr><th scope="row"><code>already_retracted</code></th><td class="code">-32002 Conflict</td><td>The article is already retracted</td><td>Nothing to do.</td><td>no</td></tr>`,
		`<tr><th scope="row"><code>house_rule</code></th><td class="code">-32050</td>`,
	} {
		if !strings.Contains(page, row) {
			t.Errorf("the page lacks the row %s", row)
		}
	}
	for _, s := range []string{"<code>articles:write</code>, <code>articles:admin</code>", "<code>config:read</code>"} {
		if !strings.Contains(page, s) {
			t.Errorf("the page lacks the scopes %s", s)
		}
	}
}

// TestLandingShowsTaskSupport: a tool whose calls may or must run as tasks
// says so beside its other facts; one that never does says nothing.
func TestLandingShowsTaskSupport(t *testing.T) {
	c := testCatalog()
	c.Tools[1].Task = "required"
	page := get(t, Landing(Fixed(c), nil), "127.0.0.1:3010", "/").Body.String()
	for tool, want := range map[string]string{
		"fetch_articles":  "<p>May run as a task: for a client that declares the extension <code>io.modelcontextprotocol/tasks</code>",
		"retract_article": "<p>Runs only as a task: a client must declare the extension <code>io.modelcontextprotocol/tasks</code>",
	} {
		article, ok := between(page, `id="tool-`+tool+`"`, "</article>")
		if !ok || !strings.Contains(article, want) {
			t.Errorf("the article of %s lacks %q", tool, want)
		}
	}
	if ping, _ := between(page, `id="tool-ping"`, "</article>"); strings.Contains(ping, "task") {
		t.Errorf("ping, which never runs as a task, mentions tasks:\n%s", ping)
	}
}

// TestLandingEscapes puts markup in every string a definition gives the
// page: it must come out as text, never as an element or an attribute.
func TestLandingEscapes(t *testing.T) {
	const evil = `<script>alert(1)</script><img src=x onerror="alert(2)"> "quotes" & 'apostrophes'`
	c := testCatalog()
	c.Name, c.Title, c.Version, c.Instructions = evil, evil, evil, evil
	tool := &c.Tools[0]
	tool.Name, tool.Title, tool.Description = evil, evil, evil
	tool.Input[0].Name, tool.Input[0].Type, tool.Input[0].Description = evil, evil, evil
	f := &tool.Contract[0]
	f.Reason, f.CodeName, f.When, f.Recovery = evil, evil, evil, evil
	tool.Scopes = []string{evil}
	r := &c.Resources[0]
	r.Name, r.Title, r.Description, r.URITemplate, r.MIMEType = evil, evil, evil, evil, evil
	p := &c.Prompts[0]
	p.Name, p.Title, p.Description, p.Arguments[0].Name, p.Arguments[0].Description = evil, evil, evil, evil, evil

	w := get(t, Landing(Fixed(c), nil), "127.0.0.1:3010", "/")
	if w.Code != http.StatusOK {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	page := w.Body.String()
	lower := strings.ToLower(page)
	for _, bad := range []string{"<script", "<img", "onerror=\"", "alert(2)\">"} {
		if strings.Contains(lower, bad) {
			t.Errorf("the page holds %q unescaped", bad)
		}
	}
	for _, want := range []string{
		"&lt;script&gt;alert(1)&lt;/script&gt;",
		"&#34;quotes&#34;",
		"&amp; &#39;apostrophes&#39;",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks the escaped text %s", want)
		}
	}
	// In an attribute (the ids built from names), the value stays inside
	// its quotes.
	if !strings.Contains(page, `id="tool-&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=&#34;alert(2)&#34;&gt; &#34;quotes&#34; &amp; &#39;apostrophes&#39;"`) {
		t.Error("a name is not escaped whole in its id attribute")
	}
}

// TestLandingSnippetsUseTheReadersHost checks that the snippets name the
// address the page was loaded from, and that a Host header that is not a
// plain host[:port] never reaches them.
func TestLandingSnippetsUseTheReadersHost(t *testing.T) {
	page := get(t, Landing(Fixed(testCatalog()), nil), "mcp.example.com:8443", "/").Body.String()
	for _, want := range []string{
		`&#34;args&#34;: [
        &#34;-y&#34;,
        &#34;mcp-remote&#34;,
        &#34;http://mcp.example.com:8443/mcp&#34;`,
		"npx @modelcontextprotocol/inspector --cli http://mcp.example.com:8443/mcp --transport http --method tools/list",
		"curl -i http://mcp.example.com:8443/mcp",
		`&#34;protocolVersion&#34;: &#34;2025-11-25&#34;, &#34;capabilities&#34;: {},`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	page = get(t, Landing(Fixed(testCatalog()), nil), "x.example;$(touch /tmp/pwned)", "/").Body.String()
	if strings.Contains(page, "touch") || !strings.Contains(page, "curl -i http://HOST:PORT/mcp") {
		t.Error("a Host header with shell syntax reached the snippets")
	}
}

// TestLandingStructure checks what makes the page accessible and safe,
// on the rendered page: the language, one h1 and headings that never skip
// a level, a scope on every table header, no script, and the inline style
// allowed by its hash.
func TestLandingStructure(t *testing.T) {
	w := get(t, Landing(Fixed(testCatalog()), nil), "127.0.0.1:3010", "/")
	page := w.Body.String()
	if !strings.Contains(page, `<html lang="en">`) {
		t.Error("no lang attribute on <html>")
	}
	for _, landmark := range []string{"<header>", "<nav aria-label=", `<main id="main">`, "<footer>"} {
		if !strings.Contains(page, landmark) {
			t.Errorf("no %s landmark", landmark)
		}
	}
	if !strings.Contains(page, `<meta name="color-scheme" content="light dark">`) || !strings.Contains(page, "@media (prefers-color-scheme: dark)") {
		t.Error("the page does not follow the reader's color scheme")
	}
	levels := regexp.MustCompile(`<h([1-6])[ >]`).FindAllStringSubmatch(page, -1)
	prev := 0
	for i, m := range levels {
		n, _ := strconv.Atoi(m[1])
		if (i == 0 && n != 1) || (i > 0 && n == 1) || n > prev+1 {
			t.Errorf("heading %d is h%d after h%d", i, n, prev)
		}
		prev = n
	}
	for _, th := range regexp.MustCompile(`<th[ >][^>]*>?`).FindAllString(page, -1) {
		if !strings.Contains(th, `scope="col"`) && !strings.Contains(th, `scope="row"`) {
			t.Errorf("table header without scope: %s", th)
		}
	}
	if strings.Contains(strings.ToLower(page), "<script") || strings.Contains(page, " on") && regexp.MustCompile(`\son[a-z]+=`).MatchString(page) {
		t.Error("the page has a script or an event handler attribute")
	}
	style, ok := between(page, "<style>", "</style>")
	if !ok {
		t.Fatal("no <style>")
	}
	sum := sha256.Sum256([]byte(style))
	if hash := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"; !strings.Contains(w.Header().Get("Content-Security-Policy"), "style-src "+hash) {
		t.Errorf("the CSP does not allow the page's style %s: %s", hash, w.Header().Get("Content-Security-Policy"))
	}
}

// TestLandingContrast reads the colors of both schemes from the style and
// checks every pair of text and background the page uses against WCAG AA
// (4.5:1 for normal text).
func TestLandingContrast(t *testing.T) {
	light, dark, ok := strings.Cut(landingCSS, "@media (prefers-color-scheme: dark)")
	if !ok {
		t.Fatal("no dark scheme in the style")
	}
	for name, block := range map[string]string{"light": light, "dark": dark} {
		vars := map[string]string{}
		for _, m := range regexp.MustCompile(`--([a-z]+):\s*(#[0-9a-f]{6});`).FindAllStringSubmatch(block, -1) {
			vars[m[1]] = m[2]
		}
		for _, pair := range [][2]string{
			{"fg", "bg"}, {"muted", "bg"}, {"link", "bg"},
			{"fg", "panel"}, {"muted", "panel"}, {"link", "panel"},
			{"fg", "code"}, {"link", "code"},
		} {
			fg, bg := vars[pair[0]], vars[pair[1]]
			if fg == "" || bg == "" {
				t.Fatalf("%s scheme: --%s or --%s is not a #rrggbb color", name, pair[0], pair[1])
			}
			if r := contrast(fg, bg); r < 4.5 {
				t.Errorf("%s scheme: --%s %s on --%s %s has contrast %.2f, below 4.5", name, pair[0], fg, pair[1], bg, r)
			}
		}
	}
}

// contrast is the WCAG 2 contrast ratio of two #rrggbb colors.
func contrast(a, b string) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

func luminance(hex string) float64 {
	var c [3]float64
	for i := range c {
		v, _ := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		s := float64(v) / 255
		if s <= 0.03928 {
			c[i] = s / 12.92
		} else {
			c[i] = math.Pow((s+0.055)/1.055, 2.4)
		}
	}
	return 0.2126*c[0] + 0.7152*c[1] + 0.0722*c[2]
}

// TestRenderFailureIsA500 makes the page fail, by an error and by a panic,
// after it has written part of itself: the reader gets a 500 and none of
// that part, and the log says why.
func TestRenderFailureIsA500(t *testing.T) {
	for name, write := range map[string]func(*pageWriter) error{
		"error": func(w *pageWriter) error {
			w.raw("<!DOCTYPE html><p>half a page</p>")
			return errors.New("the catalog is broken")
		},
		"panic": func(w *pageWriter) error {
			w.raw("<!DOCTYPE html><p>half a page</p>")
			panic("the catalog is broken")
		},
	} {
		t.Run(name, func(t *testing.T) {
			var logs bytes.Buffer
			w := httptest.NewRecorder()
			render(w, slog.New(slog.NewTextHandler(&logs, nil)), "default-src 'none'", write)
			if w.Code != http.StatusInternalServerError {
				t.Errorf("status %d, want 500", w.Code)
			}
			if strings.Contains(w.Body.String(), "half a page") {
				t.Errorf("the 500 carries part of the page: %q", w.Body)
			}
			if ct := w.Header().Get("Content-Type"); ct != "text/plain; charset=utf-8" {
				t.Errorf("Content-Type %q", ct)
			}
			if !strings.Contains(logs.String(), "the catalog is broken") {
				t.Errorf("the log does not say why: %q", logs.String())
			}
		})
	}
}

// TestEscapeHTMLAsHTMLTemplate holds escapeHTML to what html/template
// writes for a value, in element text and in a double-quoted attribute.
func TestEscapeHTMLAsHTMLTemplate(t *testing.T) {
	tmpl := template.Must(template.New("").Parse(`<p title="{{.}}">{{.}}</p>`))
	for _, s := range []string{
		"", "plain", `<script>alert(1)</script>`, `"quotes" & 'apostrophes'`, "a+b=c", "nul\x00byte",
		"\xff\xfe invalid", "\ufdd0 \uffff non-characters", "é ü 漢字 🙂", "`back` =eq", "\t\r\n",
	} {
		var want bytes.Buffer
		if err := tmpl.Execute(&want, s); err != nil {
			t.Fatal(err)
		}
		if got := `<p title="` + escapeHTML(s) + `">` + escapeHTML(s) + `</p>`; got != want.String() {
			t.Errorf("escapeHTML(%q):\n got %s\nwant %s", s, got, want.String())
		}
	}
}

func between(s, open, close string) (string, bool) {
	_, rest, ok := strings.Cut(s, open)
	if !ok {
		return "", false
	}
	inner, _, ok := strings.Cut(rest, close)
	return inner, ok
}
