// Package race is queried by two analyzers at once; it expects nothing.
package race

import (
	"b"
	"c"

	"github.com/seed417024ea/mcpcore"
)

var client = &b.Client{}

var tools = []mcpcore.Tool[string, string]{
	{Name: "one", Handler: func(ctx *mcpcore.Context, id string) (string, error) { return client.Fetch(ctx, id) }},
	{Name: "two", Handler: func(ctx *mcpcore.Context, id string) (string, error) { return "", ctx.Fail(c.Throttled, "") }},
	{Name: "three", Handler: three},
}

func three(ctx *mcpcore.Context, id string) (string, error) {
	_, err := c.Get(ctx, id)
	return "", err
}
