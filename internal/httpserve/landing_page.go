package httpserve

import (
	"bytes"
	"strconv"
	"strings"
)

// The landing page is written by Go code rather than html/template: a
// binary that links text/template keeps every exported method of every
// type it puts in an interface (templates call methods by name), which
// made a server on mcpcore 13 MB larger, and its resident size at start
// 1.8 MiB larger, for a page that is rarely read. The page has two
// contexts only, element text and double-quoted attribute values, and
// every value from a definition goes through escapeHTML, which escapes as
// html/template does in both.

// pageWriter builds the page: raw writes markup, text writes a value.
type pageWriter struct {
	bytes.Buffer
}

func (w *pageWriter) raw(parts ...string) {
	for _, p := range parts {
		w.WriteString(p)
	}
}

// text writes s escaped for element text or a double-quoted attribute
// value.
func (w *pageWriter) text(s string) {
	w.WriteString(escapeHTML(s))
}

// htmlEscapes is what html/template replaces in text and attribute values.
var htmlEscapes = strings.NewReplacer(
	"\x00", "\uFFFD",
	`"`, "&#34;",
	"&", "&amp;",
	"'", "&#39;",
	"+", "&#43;",
	"<", "&lt;",
	">", "&gt;",
)

func escapeHTML(s string) string { return htmlEscapes.Replace(s) }

// writePage writes the whole page for p, one line of markup at a time.
func writePage(w *pageWriter, p page) {
	w.raw("<!DOCTYPE html>\n",
		"<html lang=\"en\">\n",
		"<head>\n",
		"<meta charset=\"utf-8\">\n",
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
		"<meta name=\"color-scheme\" content=\"light dark\">\n",
		"<title>")
	w.text(p.DisplayName)
	w.raw(" · MCP server</title>\n",
		"<style>\n", landingCSS, "</style>\n",
		"</head>\n",
		"<body>\n",
		"<a class=\"skip\" href=\"#main\">Skip to the content</a>\n",
		"<header>\n",
		"<h1>")
	w.text(p.DisplayName)
	w.raw("</h1>\n", `<p class="lead">An MCP server: <code>`)
	w.text(p.Name)
	w.raw("</code>")
	if p.Version != "" {
		w.raw(" version ")
		w.text(p.Version)
	}
	w.raw(", over Streamable HTTP at <code>")
	w.text(p.URL)
	w.raw("</code>.</p>\n",
		"<nav aria-label=\"Contents\">\n",
		"<ul>\n")
	if p.Instructions != "" {
		w.raw("<li><a href=\"#instructions\">Instructions</a></li>\n")
	}
	w.raw("<li><a href=\"#connect\">Connect</a></li>\n",
		"<li><a href=\"#tools\">Tools (", strconv.Itoa(len(p.Tools)), ")</a></li>\n",
		"<li><a href=\"#resources\">Resources (", strconv.Itoa(len(p.Resources)), ")</a></li>\n",
		"<li><a href=\"#prompts\">Prompts (", strconv.Itoa(len(p.Prompts)), ")</a></li>\n",
		"<li><a href=\"")
	w.text(p.CardPath)
	w.raw("\">Server card (JSON)</a></li>\n",
		"</ul>\n",
		"</nav>\n",
		"</header>\n",
		"<main id=\"main\">\n")
	if p.Instructions != "" {
		w.raw("<section aria-labelledby=\"instructions\">\n",
			"<h2 id=\"instructions\">Instructions</h2>\n",
			"<p class=\"instructions\">")
		w.text(p.Instructions)
		w.raw("</p>\n", "</section>\n")
	}
	writeConnect(w, p)
	writeTools(w, p.Tools)
	writeResources(w, p.Resources)
	writePrompts(w, p.Prompts)
	w.raw("</main>\n",
		"<footer>\n",
		"<p>The same description for programs: the server card at <a href=\"")
	w.text(p.CardPath)
	w.raw("\">")
	w.text(p.CardPath)
	w.raw("</a>.</p>\n",
		"</footer>\n",
		"</body>\n",
		"</html>\n")
}

func writeConnect(w *pageWriter, p page) {
	w.raw("<section aria-labelledby=\"connect\">\n",
		"<h2 id=\"connect\">Connect</h2>\n",
		"<p>Any MCP client that speaks Streamable HTTP connects to <code>")
	w.text(p.URL)
	w.raw("</code>.</p>\n",
		"<h3>Claude Desktop</h3>\n",
		"<p>In <code>claude_desktop_config.json</code>; the <code>mcp-remote</code> bridge connects the desktop app to the endpoint:</p>\n",
		"<pre><code>")
	w.text(p.Desktop)
	w.raw("</code></pre>\n",
		"<h3>MCP Inspector</h3>\n",
		"<p>Lists the tools from a terminal (Node.js 22 or later):</p>\n",
		"<pre><code>")
	w.text(p.Inspector)
	w.raw("</code></pre>\n",
		"<h3>curl</h3>\n",
		"<p>An <code>initialize</code> request by hand. A stateful server answers with an <code>Mcp-Session-Id</code> header: send it with every later request.</p>\n",
		"<pre><code>")
	w.text(p.Curl)
	w.raw("</code></pre>\n", "</section>\n")
}

func writeTools(w *pageWriter, tools []Tool) {
	openSection(w, "tools", "Tools", len(tools) == 0)
	if len(tools) > 0 {
		w.raw("<p>A tool that fails returns an error result with a JSON-RPC code; a declared failure also carries its reason in <code>data.reason</code>. Each tool's declared failures are listed below, and published in <code>tools/list</code> under <code>_meta[\"mcpcore/errors\"]</code>.</p>\n")
	}
	for _, t := range tools {
		id := "tool-" + t.Name
		writeHeading(w, id, t.Name, t.Title)
		writeDisabled(w, t.Disabled, "a call")
		writeDescription(w, t.Description)
		writeScopes(w, t.Scopes)
		writeTask(w, t.Task)
		writeSubheading(w, id+"-input", "Input")
		writeArguments(w, id+"-input", t.Input, true)
		writeErrors(w, id, t.Contract)
	}
	w.raw("</section>\n")
}

func writeResources(w *pageWriter, resources []Resource) {
	openSection(w, "resources", "Resources", len(resources) == 0)
	for i, r := range resources {
		id := "resource-" + strconv.Itoa(i)
		w.raw(`<article class="def" id="`, id, `" aria-labelledby="`, id, `-name">`, "\n",
			`<h3 id="`, id, `-name"><code>`)
		w.text(r.URITemplate)
		w.raw("</code></h3>\n")
		writeDisabled(w, r.Disabled, "a read")
		writeDescription(w, r.Description)
		w.raw("<dl>\n", "<dt>Name</dt><dd><code>")
		w.text(r.Name)
		w.raw("</code>")
		if r.Title != "" {
			w.raw(" (")
			w.text(r.Title)
			w.raw(")")
		}
		w.raw("</dd>\n", "<dt>Kind</dt><dd>")
		if r.Template {
			w.raw("URI template: read any URI it matches")
		} else {
			w.raw("a single resource")
		}
		w.raw("</dd>\n")
		if r.MIMEType != "" {
			w.raw("<dt>MIME type</dt><dd><code>")
			w.text(r.MIMEType)
			w.raw("</code></dd>\n")
		}
		w.raw("<dt>Subscriptions</dt><dd>")
		if r.Subscribe {
			w.raw("yes: clients may subscribe to updates")
		} else {
			w.raw("no")
		}
		w.raw("</dd>\n", "</dl>\n")
		writeScopes(w, r.Scopes)
		writeErrors(w, id, r.Contract)
	}
	w.raw("</section>\n")
}

func writePrompts(w *pageWriter, prompts []Prompt) {
	openSection(w, "prompts", "Prompts", len(prompts) == 0)
	for _, p := range prompts {
		id := "prompt-" + p.Name
		writeHeading(w, id, p.Name, p.Title)
		writeDisabled(w, p.Disabled, "a get")
		writeDescription(w, p.Description)
		writeScopes(w, p.Scopes)
		writeSubheading(w, id+"-args", "Arguments")
		writeArguments(w, id+"-args", p.Arguments, false)
		w.raw("</article>\n")
	}
	w.raw("</section>\n")
}

// openSection opens the section of tools, resources or prompts; empty says
// the server has none.
func openSection(w *pageWriter, id, heading string, empty bool) {
	w.raw(`<section aria-labelledby="`, id, `">`, "\n", `<h2 id="`, id, `">`, heading, "</h2>\n")
	if empty {
		w.raw("<p>This server has no ", id, ".</p>\n")
	}
}

// writeArguments writes the table of a tool's input, with each argument's
// type, or of a prompt's arguments, labelled by the heading id.
func writeArguments(w *pageWriter, id string, args []Argument, typed bool) {
	if len(args) == 0 {
		w.raw("<p>No arguments.</p>\n")
		return
	}
	if typed {
		writeTableHead(w, id, "Argument", "Type", "Required", "Description")
	} else {
		writeTableHead(w, id, "Argument", "Required", "Description")
	}
	for _, a := range args {
		w.raw(`<tr><th scope="row"><code>`)
		w.text(a.Name)
		w.raw("</code></th>")
		if typed {
			w.raw("<td>")
			w.text(a.Type)
			w.raw("</td>")
		}
		w.raw("<td>", requiredWord(a.Required), "</td><td>")
		w.text(a.Description)
		w.raw("</td></tr>\n")
	}
	writeTableFoot(w)
}

// writeErrors ends the article of a tool or a resource with its error
// contract.
func writeErrors(w *pageWriter, id string, failures []Failure) {
	writeSubheading(w, id+"-errors", "Error contract")
	writeContract(w, id+"-errors", failures)
	w.raw("</article>\n")
}

// writeHeading opens the article of a tool or a prompt, with its name and
// title as its heading.
func writeHeading(w *pageWriter, id, name, title string) {
	w.raw(`<article class="def" id="`)
	w.text(id)
	w.raw(`" aria-labelledby="`)
	w.text(id)
	w.raw(`-name">`, "\n", `<h3 id="`)
	w.text(id)
	w.raw(`-name"><code>`)
	w.text(name)
	w.raw("</code>")
	if title != "" {
		w.raw(` <span class="title">`)
		w.text(title)
		w.raw("</span>")
	}
	w.raw("</h3>\n")
}

func writeDescription(w *pageWriter, desc string) {
	if desc != "" {
		w.raw(`<p class="desc">`)
		w.text(desc)
		w.raw("</p>\n")
	}
}

func writeSubheading(w *pageWriter, id, heading string) {
	w.raw(`<h4 id="`)
	w.text(id)
	w.raw(`">`, heading, "</h4>\n")
}

// writeTableHead opens a table labelled by the heading id, with a header
// cell for each of cols.
func writeTableHead(w *pageWriter, id string, cols ...string) {
	w.raw(`<div class="scroll">`, "\n", `<table aria-labelledby="`)
	w.text(id)
	w.raw(`">`, "\n", "<thead><tr>")
	for _, c := range cols {
		w.raw(`<th scope="col">`, c, "</th>")
	}
	w.raw("</tr></thead>\n", "<tbody>\n")
}

func writeTableFoot(w *pageWriter) {
	w.raw("</tbody>\n", "</table>\n", "</div>\n")
}

// writeDisabled says that a definition is not served, and why, if it is
// not; use is what a client does with it ("a call").
func writeDisabled(w *pageWriter, d *Disabled, use string) {
	if d == nil {
		return
	}
	w.raw(`<p class="disabled"><strong>Disabled:</strong> not served now; `, use, " is refused with the reason <code>")
	w.text(d.Reason)
	w.raw("</code>. ")
	w.text(d.Hint)
	w.raw("</p>\n")
}

// writeScopes says which scopes a definition needs, if any.
func writeScopes(w *pageWriter, scopes []string) {
	if len(scopes) == 0 {
		return
	}
	w.raw("<p>Needs the ")
	if len(scopes) == 1 {
		w.raw("scope ")
	} else {
		w.raw("scopes ")
	}
	for i, s := range scopes {
		if i > 0 {
			w.raw(", ")
		}
		w.raw("<code>")
		w.text(s)
		w.raw("</code>")
	}
	w.raw(".</p>\n")
}

// writeTask says whether a tool's calls may run as tasks, if they may.
func writeTask(w *pageWriter, mode string) {
	switch mode {
	case "":
		return
	case "optional":
		w.raw("<p>May run as a task: for a client that declares the extension <code>io.modelcontextprotocol/tasks</code>, a call still running after a moment is answered with a task to poll.</p>\n")
	case "required":
		w.raw("<p>Runs only as a task: a client must declare the extension <code>io.modelcontextprotocol/tasks</code>, and is answered with a task to poll.</p>\n")
	default:
		w.raw("<p>Task support: <code>")
		w.text(mode)
		w.raw("</code>.</p>\n")
	}
}

// writeContract writes an error contract as a table labelled by the
// heading id.
func writeContract(w *pageWriter, id string, failures []Failure) {
	if len(failures) == 0 {
		w.raw("<p>No declared failures. A failure is still an error with a JSON-RPC code and a message.</p>\n")
		return
	}
	writeTableHead(w, id, "Reason", "Code", "When", "Recovery", "Retryable")
	for _, f := range failures {
		w.raw(`<tr><th scope="row"><code>`)
		w.text(f.Reason)
		w.raw(`</code></th><td class="code">`, strconv.Itoa(int(f.Code)))
		if f.CodeName != "" {
			w.raw(" ")
			w.text(f.CodeName)
		}
		w.raw("</td><td>")
		w.text(f.When)
		w.raw("</td><td>")
		w.text(f.Recovery)
		w.raw("</td><td>", retryable(f.Retryable), "</td></tr>\n")
	}
	writeTableFoot(w)
}

func requiredWord(r bool) string {
	if r {
		return "required"
	}
	return "optional"
}
