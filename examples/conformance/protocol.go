package main

import (
	"encoding/json"
	"fmt"

	"github.com/seed417024ea/mcpcore"
)

// The tools of the suite's newer scenarios (protocol 2026-07-28).

var jsonSchema202012 = mcpcore.Tool[map[string]any, Message]{
	Name:        "json_schema_2020_12_tool",
	Description: "Has a hand-written JSON Schema 2020-12 input schema ($defs, $anchor, allOf, if/then/else).",
	InputSchema: json.RawMessage(`{
		"$schema": "https://json-schema.org/draft/2020-12/schema",
		"type": "object",
		"$defs": {
			"address": {
				"$anchor": "addressDef",
				"type": "object",
				"properties": {"street": {"type": "string"}, "city": {"type": "string"}}
			}
		},
		"properties": {
			"name": {"type": "string"},
			"address": {"$ref": "#/$defs/address"},
			"contactMethod": {"type": "string", "enum": ["phone", "email"]},
			"phone": {"type": "string"},
			"email": {"type": "string"}
		},
		"allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
		"if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
		"then": {"required": ["phone"]},
		"else": {"required": ["email"]},
		"additionalProperties": false
	}`),
	Handler: func(_ *mcpcore.Context, in map[string]any) (Message, error) {
		return Message{fmt.Sprintf("JSON Schema 2020-12 tool called with %d arguments", len(in))}, nil
	},
	Format: text,
}

// RegionInput is the input of test_x_mcp_header.
type RegionInput struct {
	Region string `json:"region,omitempty"`
	Level  int    `json:"level,omitempty"`
}

var xMCPHeader = mcpcore.Tool[RegionInput, Message]{
	Name:        "test_x_mcp_header",
	Description: "Mirrors its region argument into the Mcp-Param-Region header (SEP-2243).",
	InputSchema: json.RawMessage(`{
		"type": "object",
		"properties": {
			"region": {"type": "string", "description": "mirrored into Mcp-Param-Region", "x-mcp-header": "Region"},
			"level": {"type": "integer", "description": "not mirrored"}
		}
	}`),
	Handler: func(_ *mcpcore.Context, in RegionInput) (Message, error) {
		return Message{"region=" + in.Region}, nil
	},
	Format: text,
}

var missingCapability = mcpcore.Tool[None, Message]{
	Name:        "test_missing_capability",
	Description: "Needs the sampling capability of the client; fails with -32021 without it (SEP-2575).",
	Handler: func(ctx *mcpcore.Context, _ None) (Message, error) {
		if err := ctx.RequireClient(mcpcore.CapabilitySampling); err != nil {
			return Message{}, err
		}
		return Message{"Client declared the sampling capability; tool executed."}, nil
	},
	Format: text,
}

var streamingElicitation = mcpcore.Tool[None, Message]{
	Name:        "test_streaming_elicitation",
	Description: "Returns a plain result: its response stream carries no server requests (SEP-2575).",
	Handler: func(*mcpcore.Context, None) (Message, error) {
		return Message{"stream observed: result frames only, no top-level requests"}, nil
	},
	Format: text,
}

var loggingTool = mcpcore.Tool[None, Message]{
	Name:        "test_logging_tool",
	Description: "Logs one message, which reaches the client only if it asked for log messages.",
	Handler: func(ctx *mcpcore.Context, _ None) (Message, error) {
		ctx.Logger().Info("test_logging_tool executed")
		return Message{"Log attempted."}, nil
	},
	Format: text,
}
