package httpserve

import (
	"encoding/json"
	"net/http"
)

// A Source gives the catalog as one reader of the landing page or the
// server card is shown it: the server's definitions as they stand when
// the page is asked for, switched on or off since it started.
type Source func(r *http.Request) *Catalog

// Fixed is the Source of a catalog shown whole to every reader.
func Fixed(c *Catalog) Source { return func(*http.Request) *Catalog { return c } }

// Disabled says why a definition the server has is not served, and what
// would bring it back, as its author declared it.
type Disabled struct {
	// Reason names why, as a contract's reasons do ("credential_missing").
	Reason string
	// Hint tells the reader what would bring it back.
	Hint string
}

// A Catalog is everything a server serves, as the landing page and the
// server card show it. It is plain data, built once by the server from its
// definitions, so that neither page needs the server or its SDK session to
// describe it.
type Catalog struct {
	// Name, Title and Version identify the server as initialize does.
	Name    string
	Title   string
	Version string
	// Instructions are the server's instructions to clients and models.
	Instructions string
	// Endpoint is the path of the Streamable HTTP endpoint, such as "/mcp".
	Endpoint string
	// ProtocolVersions are the MCP versions the server negotiates, newest
	// first.
	ProtocolVersions []string
	// Capabilities is the server's ServerCapabilities object, as initialize
	// announces it (JSON).
	Capabilities json.RawMessage
	// Authentication says how /mcp is protected; nil when it is not known.
	Authentication *Authentication
	// Tools, Resources and Prompts are the definitions, in the order the
	// server was given them.
	Tools     []Tool
	Resources []Resource
	Prompts   []Prompt
}

// Authentication is what a client must present to /mcp.
type Authentication struct {
	// Required is true when a call without credentials is refused.
	Required bool
	// Schemes are the accepted schemes, such as "bearer" or "oauth2".
	Schemes []string
}

// A Tool is one tool of the catalog.
type Tool struct {
	Name        string
	Title       string
	Description string
	// Input summarizes the input schema's top-level properties, for people.
	Input []Argument
	// Contract is the tool's error contract, in declaration order.
	Contract []Failure
	// Scopes are the OAuth scopes a call needs, if the tool declares any.
	Scopes []string
	// Task is whether its calls may run as tasks (the extension
	// io.modelcontextprotocol/tasks), as tools/list publishes it:
	// "optional" or "required"; "" when they never do.
	Task string
	// InputSchema, OutputSchema and Annotations are the JSON that tools/list
	// publishes; OutputSchema and Annotations may be empty.
	InputSchema  json.RawMessage
	OutputSchema json.RawMessage
	Annotations  json.RawMessage
	// Meta is the tool's _meta as tools/list publishes it, the published
	// error contract included; nil when it has none.
	Meta map[string]any
	// Disabled, when not nil, says why the tool is not served.
	Disabled *Disabled
}

// A Resource is one resource, or resource template, of the catalog.
type Resource struct {
	Name        string
	Title       string
	Description string
	// URITemplate is the RFC 6570 template, or the URI of a resource
	// without variables (then Template is false).
	URITemplate string
	Template    bool
	MIMEType    string
	// Subscribe is true when clients may subscribe to its updates.
	Subscribe bool
	// Contract is the resource's error contract, in declaration order.
	Contract []Failure
	// Scopes are the OAuth scopes a read needs, if the resource declares any.
	Scopes []string
	// Meta is the _meta the server card publishes for it: its error
	// contract, in the form tools/list gives a tool's.
	Meta map[string]any
	// Disabled, when not nil, says why the resource is not served.
	Disabled *Disabled
}

// A Prompt is one prompt of the catalog.
type Prompt struct {
	Name        string
	Title       string
	Description string
	// Arguments are the prompt's arguments, all strings, in field order.
	Arguments []Argument
	// Scopes are the OAuth scopes a get needs, if the prompt declares any.
	Scopes []string
	// Contract is the prompt's error contract, in declaration order.
	Contract []Failure
	// Meta is the _meta prompts/list gives it: its error contract and
	// the prompt's own keys.
	Meta map[string]any
	// Disabled, when not nil, says why the prompt is not served.
	Disabled *Disabled
}

// An Argument is one input of a tool or prompt.
type Argument struct {
	Name  string
	Title string
	// Type is a short JSON Schema type for people, such as "string" or
	// "array of string"; empty for prompt arguments, which are strings.
	Type        string
	Required    bool
	Description string
}

// A Failure is one entry of an error contract.
type Failure struct {
	Reason string
	Code   int32
	// CodeName is the code's name, such as "NotFound"; empty for a code
	// mcperr does not define.
	CodeName string
	When     string
	Recovery string
	// Retryable is nil when the contract says nothing about retrying.
	Retryable *bool
}
