package mcpcore

import (
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// An answer's bytes are bounded (ServerOptions.MaxResultBytes): a handler
// that returns 20 MB would otherwise have it encoded twice (text and
// structuredContent), held by the SDK while it is written, and sent to a
// client that may not want it; one such call took 381 MB of memory. The
// bound counts what the answer carries, as the wire would: text, data
// (base64 for blobs and images) and structured content.

// tooLarge returns the error of an answer of size bytes over the bound, or
// nil.
func (s *Server) tooLarge(what string, size int) error {
	if s.maxResult <= 0 || int64(size) <= s.maxResult {
		return nil
	}
	return mcperr.InternalError(
		fmt.Sprintf("The %s is %d bytes, over this server's limit of %d bytes for one answer (MCP_MAX_RESULT_BYTES): it was not sent. Ask for less, such as fewer items or a smaller page.",
			what, size, s.maxResult),
		mcperr.WithData(map[string]any{"limit": s.maxResult, "size": size}))
}

// contentBytes is the size of content blocks on the wire.
func contentBytes(content []mcp.Content) int {
	n := 0
	for _, c := range content {
		switch c := c.(type) {
		case *mcp.TextContent:
			n += len(c.Text)
		case *mcp.ImageContent:
			n += base64Len(len(c.Data))
		case *mcp.AudioContent:
			n += base64Len(len(c.Data))
		case *mcp.EmbeddedResource:
			if c.Resource != nil {
				n += resourceBytes(c.Resource)
			}
		}
	}
	return n
}

// resourceBytes is the size of a resource's contents on the wire.
func resourceBytes(rc *mcp.ResourceContents) int {
	return len(rc.Text) + base64Len(len(rc.Blob))
}

func base64Len(n int) int { return (n + 2) / 3 * 4 }
