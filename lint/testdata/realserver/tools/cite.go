package tools

import (
	"slices"
	"strings"

	"example.com/realserver/upstream"
	"github.com/seed417024ea/mcpcore"
)

// styles are the citation styles the catalog formats.
var styles = []string{"apa", "mla", "chicago", "harvard", "ieee", "bibtex"}

type citeInput struct {
	ID    string `json:"id" jsonschema:"the record's catalog ID"`
	Style string `json:"style,omitempty" jsonschema:"the citation style" default:"apa"`
}

type citeOutput struct {
	Citation string `json:"citation" jsonschema:"the formatted citation"`
	Style    string `json:"style" jsonschema:"the style it is formatted in"`
}

func citeTool(svc *upstream.Client) mcpcore.Tool[citeInput, citeOutput] {
	return mcpcore.Tool[citeInput, citeOutput]{
		Name:        "cite_record",
		Description: "Format a record of the catalog as a citation in a given style.",
		Errors:      withService(noRecord, unknownStyle),
		Handler: func(ctx *mcpcore.Context, in citeInput) (citeOutput, error) {
			style, err := checkStyle(ctx, in.Style)
			if err != nil {
				return citeOutput{}, err
			}
			text, err := svc.Citation(ctx, in.ID, style)
			if err != nil {
				return citeOutput{}, ctx.FailFrom(err, noRecord, queueFull, upstreamDown, apiKeyRejected)
			}
			return citeOutput{Citation: text, Style: style}, nil
		},
	}
}

// checkStyle returns the style to format in: apa when none is given, or
// the given one when the catalog knows it; it fails with unknownStyle
// otherwise.
func checkStyle(ctx *mcpcore.Context, style string) (string, error) {
	style = strings.ToLower(strings.TrimSpace(style))
	if style == "" {
		return "apa", nil
	}
	if !slices.Contains(styles, style) {
		return "", ctx.Fail(unknownStyle, "The catalog has no citation style "+style, ctx.RecoveryFor(unknownStyle))
	}
	return style, nil
}
