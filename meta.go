package mcpcore

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// metaPrefix is the prefix of the _meta keys mcpcore publishes itself
// (contract.MetaKey): a definition's own Meta may not use it, so that what
// a client reads under it is always mcpcore's.
const metaPrefix = "mcpcore/"

// publishedMeta returns the _meta a definition publishes: mcpcore's own
// keys, and the definition's Meta beside them. It refuses, naming the key,
// an empty key, a key under mcpcore's prefix, and a value that does not
// encode as JSON, so that a mistake stops NewServer rather than every list.
func publishedMeta(kind, name string, own mcp.Meta, user map[string]any) (mcp.Meta, error) {
	if len(user) == 0 {
		return own, nil
	}
	keys := make([]string, 0, len(user))
	for k := range user {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	meta := mcp.Meta{}
	for k, v := range own {
		meta[k] = v
	}
	for _, k := range keys {
		switch {
		case k == "":
			return nil, fmt.Errorf("%s %q: Meta has an empty key", kind, name)
		case strings.HasPrefix(k, metaPrefix):
			return nil, fmt.Errorf("%s %q: Meta key %q is mcpcore's own (keys under %q are reserved for what mcpcore publishes)", kind, name, k, metaPrefix)
		}
		if _, err := json.Marshal(user[k]); err != nil {
			return nil, fmt.Errorf("%s %q: Meta key %q: %w", kind, name, k, err)
		}
		meta[k] = user[k]
	}
	return meta, nil
}
