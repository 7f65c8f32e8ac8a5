package httpserve

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"maps"
	"net/http"
	"sync"
)

// CardSchema and CardVersion identify the card's format: the draft of
// SEP-1649 (MCP Server Cards), whose field names the card follows.
const (
	CardSchema  = "https://static.modelcontextprotocol.io/schemas/mcp-server-card/v1.json"
	CardVersion = "1.0"
)

// ScopesMetaKey is the _meta key under which the card lists the OAuth
// scopes a definition needs, next to its error contract: MCP has no field
// for them, and _meta is where extensions say what the protocol does not.
const ScopesMetaKey = "mcpcore/scopes"

// DisabledMetaKey is the _meta key under which the card marks a definition
// the server has but does not serve, with why ({"reason", "hint"}): it is
// listed so that a reader learns what would bring it back, and a client
// that reads no _meta sees it as a definition it may find unknown.
const DisabledMetaKey = "mcpcore/disabled"

// card is the server card. Field order is the order of SEP-1649's list, so
// that a person reading the JSON finds what the proposal describes.
type card struct {
	Schema                    string          `json:"$schema"`
	Version                   string          `json:"version"`
	ProtocolVersion           string          `json:"protocolVersion,omitempty"`
	SupportedProtocolVersions []string        `json:"supportedProtocolVersions,omitempty"`
	ServerInfo                cardServerInfo  `json:"serverInfo"`
	Transport                 cardTransport   `json:"transport"`
	Capabilities              json.RawMessage `json:"capabilities,omitempty"`
	Authentication            *cardAuth       `json:"authentication,omitempty"`
	Instructions              string          `json:"instructions,omitempty"`
	Tools                     []cardTool      `json:"tools"`
	Resources                 []cardResource  `json:"resources"`
	Prompts                   []cardPrompt    `json:"prompts"`
}

type cardServerInfo struct {
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version"`
}

type cardTransport struct {
	Type     string `json:"type"`
	Endpoint string `json:"endpoint"`
}

type cardAuth struct {
	Required bool     `json:"required"`
	Schemes  []string `json:"schemes,omitempty"`
}

// cardTool has the fields of a Tool in tools/list, in its order.
type cardTool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  json.RawMessage `json:"annotations,omitempty"`
	Meta         map[string]any  `json:"_meta,omitempty"`
}

// cardResource is a Resource of resources/list (URI set) or a
// ResourceTemplate of resources/templates/list (URITemplate set).
type cardResource struct {
	URI         string         `json:"uri,omitempty"`
	URITemplate string         `json:"uriTemplate,omitempty"`
	Name        string         `json:"name"`
	Title       string         `json:"title,omitempty"`
	Description string         `json:"description,omitempty"`
	MIMEType    string         `json:"mimeType,omitempty"`
	Meta        map[string]any `json:"_meta,omitempty"`
}

type cardPrompt struct {
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	Arguments   []cardPromptArg `json:"arguments,omitempty"`
	Meta        map[string]any  `json:"_meta,omitempty"`
}

type cardPromptArg struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// Card serves the catalog of each request as the server card
// (application/json), for registries and clients that discover a server
// before connecting. Each tool appears as tools/list lists it, its error
// contract under the same _meta key; a resource's contract is published
// the same way. The card is encoded for each request, since definitions
// are switched on and off while the server runs. A catalog that cannot be
// encoded is answered with 500, never half a card, and logged once.
func Card(source Source, logger *slog.Logger) http.Handler {
	if logger == nil {
		logger = slog.Default()
	}
	var logOnce sync.Once
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := encodeCard(source(r))
		if err != nil {
			logOnce.Do(func() {
				logger.Error("mcpcore: the server card cannot be encoded; "+CardPath+" answers 500", "error", err.Error())
			})
			failed(w)
			return
		}
		h := w.Header()
		h.Set("Content-Type", "application/json")
		h.Set("X-Content-Type-Options", "nosniff")
		// A card is public metadata meant to be fetched from anywhere,
		// browsers included; it holds nothing a token protects.
		h.Set("Access-Control-Allow-Origin", "*")
		h.Set("Cache-Control", "no-cache")
		w.Write(body)
	})
}

func encodeCard(c *Catalog) ([]byte, error) {
	out := card{
		Schema:     CardSchema,
		Version:    CardVersion,
		ServerInfo: cardServerInfo{Name: c.Name, Title: c.Title, Version: c.Version},
		Transport:  cardTransport{Type: "streamable-http", Endpoint: c.Endpoint},
		// Capabilities are given as initialize would; an empty raw
		// message would not encode.
		Capabilities: c.Capabilities,
		Instructions: c.Instructions,
		Tools:        make([]cardTool, len(c.Tools)),
		Resources:    make([]cardResource, len(c.Resources)),
		Prompts:      make([]cardPrompt, len(c.Prompts)),
	}
	if len(c.ProtocolVersions) > 0 {
		out.ProtocolVersion = c.ProtocolVersions[0]
		out.SupportedProtocolVersions = c.ProtocolVersions
	}
	if a := c.Authentication; a != nil {
		out.Authentication = &cardAuth{Required: a.Required, Schemes: a.Schemes}
	}
	for i, t := range c.Tools {
		out.Tools[i] = cardTool{
			Name: t.Name, Title: t.Title, Description: t.Description,
			InputSchema: t.InputSchema, OutputSchema: t.OutputSchema, Annotations: t.Annotations,
			Meta: cardMeta(t.Meta, t.Scopes, t.Disabled),
		}
	}
	for i, r := range c.Resources {
		cr := cardResource{Name: r.Name, Title: r.Title, Description: r.Description, MIMEType: r.MIMEType, Meta: cardMeta(r.Meta, r.Scopes, r.Disabled)}
		if r.Template {
			cr.URITemplate = r.URITemplate
		} else {
			cr.URI = r.URITemplate
		}
		out.Resources[i] = cr
	}
	for i, p := range c.Prompts {
		cp := cardPrompt{Name: p.Name, Title: p.Title, Description: p.Description, Meta: cardMeta(p.Meta, p.Scopes, p.Disabled)}
		for _, a := range p.Arguments {
			cp.Arguments = append(cp.Arguments, cardPromptArg{Name: a.Name, Title: a.Title, Description: a.Description, Required: a.Required})
		}
		out.Prompts[i] = cp
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// cardMeta adds the scopes and why the definition is disabled, if it is,
// to a copy of meta: meta is the map tools/list publishes, shared, and
// stays as it is.
func cardMeta(meta map[string]any, scopes []string, disabled *Disabled) map[string]any {
	if len(scopes) == 0 && disabled == nil {
		return meta
	}
	out := maps.Clone(meta)
	if out == nil {
		out = map[string]any{}
	}
	if len(scopes) > 0 {
		out[ScopesMetaKey] = scopes
	}
	if disabled != nil {
		out[DisabledMetaKey] = cardDisabled{Reason: disabled.Reason, Hint: disabled.Hint}
	}
	return out
}

// cardDisabled is a definition's _meta["mcpcore/disabled"].
type cardDisabled struct {
	Reason string `json:"reason"`
	Hint   string `json:"hint"`
}

// failed answers 500 in plain text, in place of a page or card that could
// not be produced whole.
func failed(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusInternalServerError)
	w.Write([]byte("500 Internal Server Error: this page could not be produced; the server's log says why.\n"))
}
