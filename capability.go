//lint:file-ignore SA1019 sampling and roots are deprecated from protocol 2026-07-28 (SEP-2577) but stay in the protocol through its deprecation window, and clients use them.

package mcpcore

import (
	"fmt"
	"strings"

	"github.com/seed417024ea/mcpcore/mcperr"
)

// A Capability is a feature a client declares when it connects (or, from
// MCP 2026-07-28, with each request), which a handler may need.
type Capability string

// The client capabilities a handler can use through its [Context].
const (
	// CapabilitySampling: the client lets the server ask its model for a
	// completion ([Context.Sample]).
	CapabilitySampling Capability = "sampling"
	// CapabilityElicitation: the client can ask its user for input
	// ([Elicit]).
	CapabilityElicitation Capability = "elicitation"
	// CapabilityRoots: the client lists its roots ([Context.Roots]).
	CapabilityRoots Capability = "roots"
)

// ClientSupports reports whether the client declared capability c.
func (c *Context) ClientSupports(capability Capability) bool {
	caps := c.x.clientCaps()
	if caps == nil {
		return false
	}
	switch capability {
	case CapabilitySampling:
		return caps.Sampling != nil
	case CapabilityElicitation:
		return caps.Elicitation != nil
	case CapabilityRoots:
		return caps.RootsV2 != nil || caps.Roots.ListChanged
	}
	return false
}

// RequireClient returns nil when the client declared every capability
// given, and otherwise the error MCP defines for a request that needs an
// undeclared capability: code MissingClientCapability (-32021), with
// data.requiredCapabilities naming the missing ones ({"sampling": {}}).
// Return it as it is: it is a protocol error, so a tool sends it as a
// JSON-RPC error (HTTP 400 on a stateless server), not as an error result.
// [Context.Sample], [Elicit] and [Context.Roots] check their own
// capability this way.
func (c *Context) RequireClient(capabilities ...Capability) error {
	if c.x != nil && !c.x.mrtr && c.srv != nil && c.srv.cfg.Stateless && len(capabilities) > 0 {
		// Before 2026-07-28 a client declares its capabilities when it
		// opens a session; a stateless server has none to send requests on.
		return mcperr.ServiceUnavailable(fmt.Sprintf("This server cannot ask the client for %s: it serves without sessions, and under protocol versions before %s a server can ask a client only within a session. Use a stateful server, or a client of protocol %s.",
			joinCapabilities(capabilities), mrtrVersion, mrtrVersion))
	}
	missing := map[string]any{}
	var names []string
	for _, capability := range capabilities {
		if !c.ClientSupports(capability) {
			missing[string(capability)] = map[string]any{}
			names = append(names, string(capability))
		}
	}
	if len(names) == 0 {
		return nil
	}
	return mcperr.New(mcperr.CodeMissingClientCapability,
		fmt.Sprintf("This request needs the client capabilities %s, which the client did not declare.", strings.Join(names, ", ")),
		mcperr.WithData(map[string]any{"requiredCapabilities": missing}))
}

func joinCapabilities(cs []Capability) string {
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = string(c)
	}
	return strings.Join(names, ", ")
}
