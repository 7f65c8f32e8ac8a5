package httpserve

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
)

//go:embed landing.css
var landingCSS string

// landingCSP is the page's Content-Security-Policy: it allows the page
// nothing but its own inline style, by hash: no script, no image, no frame,
// no form, no other origin.
var landingCSP = "default-src 'none'; style-src '" + styleHash(landingCSS) + "'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// page is what the landing page shows: the catalog, and the snippets that
// connect a client to the endpoint at the address the reader used.
type page struct {
	*Catalog
	DisplayName string
	URL         string
	CardPath    string
	Desktop     string
	Inspector   string
	Curl        string
}

// Landing serves the catalog of each request as an HTML page for people
// who open the server's URL in a browser: what the server is, how to
// connect a client, and every tool, resource and prompt with its error
// contract, and why one is disabled. The page has no script; it
// follows the reader's light or dark preference, and everything from the
// definitions is escaped (see escapeHTML). It is written whole before a
// byte is sent, so a failure is a 500 (logged to logger, or slog's default
// when nil), never half a page.
func Landing(source Source, logger *slog.Logger) http.Handler {
	if logger == nil {
		logger = slog.Default()
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		render(w, logger, landingCSP, func(pw *pageWriter) error {
			c := source(r)
			writePage(pw, newPage(c, endpointURL(r, c.Endpoint)))
			return nil
		})
	})
}

// render writes a page into a buffer and sends it with the page's security
// headers, or a plain 500 if writing it fails or panics.
func render(w http.ResponseWriter, logger *slog.Logger, csp string, write func(*pageWriter) error) {
	var buf pageWriter
	if err := safeWrite(&buf, write); err != nil {
		logger.Error("mcpcore: the landing page failed to render", "error", err.Error())
		failed(w)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	// The snippets hold the address the reader used: a shared cache must
	// not hand them to a reader who used another.
	h.Set("Cache-Control", "no-cache")
	h.Set("Vary", "Host")
	w.Write(buf.Bytes())
}

// safeWrite runs write, with a panic (a definition the page cannot show)
// turned into an error.
func safeWrite(buf *pageWriter, write func(*pageWriter) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return write(buf)
}

func newPage(c *Catalog, url string) page {
	p := page{Catalog: c, DisplayName: c.Title, URL: url, CardPath: CardPath}
	if p.DisplayName == "" {
		p.DisplayName = c.Name
	}
	p.Desktop = desktopConfig(c.Name, url)
	p.Inspector = "npx @modelcontextprotocol/inspector --cli " + url + " --transport http --method tools/list"
	p.Curl = curlInitialize(url, initializeVersion(c.ProtocolVersions))
	return p
}

// endpointURL is the absolute URL of the endpoint as the reader reached the
// server. The Host header comes from the client: one that is not a plain
// host[:port] is replaced by a placeholder, so that no snippet a reader
// copies into a shell can carry anything else.
func endpointURL(r *http.Request, endpoint string) string {
	host := r.Host
	if !plainHost(host) {
		host = "HOST:PORT"
	}
	scheme := "http"
	if r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https" {
		scheme = "https"
	}
	return scheme + "://" + host + endpoint
}

func plainHost(h string) bool {
	if h == "" || len(h) > 255 {
		return false
	}
	for _, c := range h {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == '.', c == '-', c == ':', c == '[', c == ']':
		default:
			return false
		}
	}
	return true
}

// desktopConfig is a claude_desktop_config.json entry: Claude Desktop
// launches local commands, so it reaches a remote endpoint through the
// mcp-remote bridge.
func desktopConfig(name, url string) string {
	type server struct {
		Command string   `json:"command"`
		Args    []string `json:"args"`
	}
	return indentJSON(struct {
		MCPServers map[string]server `json:"mcpServers"`
	}{map[string]server{name: {Command: "npx", Args: []string{"-y", "mcp-remote", url}}}})
}

// curlInitialize is an initialize request by hand, laid out to read at a
// glance; -i shows the Mcp-Session-Id header a stateful server answers
// with.
func curlInitialize(url, version string) string {
	v, _ := json.Marshal(version) // a string always encodes
	return "curl -i " + url + " \\\n" +
		"  -H 'Content-Type: application/json' \\\n" +
		"  -H 'Accept: application/json, text/event-stream' \\\n" +
		`  -d '{"jsonrpc": "2.0", "id": 1, "method": "initialize",` + "\n" +
		`       "params": {"protocolVersion": ` + string(v) + `, "capabilities": {},` + "\n" +
		`                  "clientInfo": {"name": "curl", "version": "1.0.0"}}}'`
}

// initializeVersion is the protocol version the curl snippet asks for: the
// newest the server speaks that has an initialize handshake (2026-07-28 has
// none; a server asked for it answers with 2025-11-25).
func initializeVersion(versions []string) string {
	for _, v := range versions {
		if v <= "2025-11-25" {
			return v
		}
	}
	return "2025-11-25"
}

func indentJSON(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // the page escapes it (escapeHTML)
	enc.SetIndent("", "  ")
	enc.Encode(v) // structs of strings always encode
	return strings.TrimSuffix(buf.String(), "\n")
}

// retryable says in words what a contract declares about retrying.
func retryable(r *bool) string {
	switch {
	case r == nil:
		return "not declared"
	case *r:
		return "yes"
	}
	return "no"
}

// styleHash is the CSP source ('sha256-…') of the page's one <style>
// element, whose content is a newline and css (see writePage).
func styleHash(css string) string {
	sum := sha256.Sum256([]byte("\n" + css))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}
