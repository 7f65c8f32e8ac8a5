package mcpotel

import (
	"go.opentelemetry.io/otel/attribute"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
)

// This file is the vocabulary: every instrument and attribute name the
// package emits, in both of the vocabularies it speaks (DESIGN decision 13).
// Nothing else in the package spells a name, so this table is what an
// operator's dashboards depend on.

// ScopeName is the instrumentation scope of the meter and the tracer.
const ScopeName = "github.com/seed417024ea/mcpcore"

// The framework's own vocabulary, shared with mcp-ts-core so that
// dashboards carry over. One surface per kind of call.
//
//	instrument               kind       unit            attributes                                 when
//	mcp.tool.calls           counter    {calls}         mcp.tool.name, mcp.tool.success            every call
//	mcp.tool.duration        histogram  ms              mcp.tool.name, mcp.tool.success            every call
//	mcp.tool.errors          counter    {errors}        mcp.tool.name, mcp.tool.error_category     failures
//	mcp.tool.input_bytes     histogram  By              mcp.tool.name                              every call
//	mcp.tool.output_bytes    histogram  By              mcp.tool.name                              successes
//	mcp.resource.reads       counter    {reads}         mcp.resource.name, mcp.resource.success    every call
//	mcp.resource.duration    histogram  ms              mcp.resource.name, mcp.resource.success    every call
//	mcp.resource.errors      counter    {errors}        mcp.resource.name, mcp.resource.error_category  failures
//	mcp.resource.output_bytes histogram By              mcp.resource.name                          successes
//	mcp.prompt.generations   counter    {generations}   mcp.prompt.name, mcp.prompt.success        every call
//	mcp.prompt.duration      histogram  ms              mcp.prompt.name, mcp.prompt.success        every call
//	mcp.prompt.errors        counter    {errors}        mcp.prompt.name, mcp.prompt.error_category failures
//	mcp.prompt.input_bytes   histogram  By              mcp.prompt.name                            every call
//	mcp.prompt.output_bytes  histogram  By              mcp.prompt.name                            successes
//	mcp.prompt.message_count histogram  {messages}      mcp.prompt.name                            successes
//	mcp.requests.active      updown     {requests}      none                                       +1 at Start, -1 at End
//	mcp.errors.classified    counter    {errors}        mcp.error.classified_code, operation,      failures
//	                                                    mcp.error.severity (declared only)
//
// The error category is the failure's code name (NotFound, Timeout…), not
// a coarse client/server/upstream. Resources have the category too, so that
// the three surfaces answer the same questions.
var surfaces = [...]surface{
	kindTool: {
		calls:       instrument{"mcp.tool.calls", "{calls}", "Tool calls, by tool and outcome."},
		duration:    instrument{"mcp.tool.duration", "ms", "Tool call duration."},
		errors:      instrument{"mcp.tool.errors", "{errors}", "Failed tool calls, by tool and code."},
		inputBytes:  instrument{"mcp.tool.input_bytes", "By", "Size of a tool call's arguments."},
		outputBytes: instrument{"mcp.tool.output_bytes", "By", "Size of a successful tool call's structured result."},
		name:        "mcp.tool.name",
		success:     "mcp.tool.success",
		category:    "mcp.tool.error_category",
	},
	kindResource: {
		calls:       instrument{"mcp.resource.reads", "{reads}", "Resource reads, by resource and outcome."},
		duration:    instrument{"mcp.resource.duration", "ms", "Resource read duration."},
		errors:      instrument{"mcp.resource.errors", "{errors}", "Failed resource reads, by resource and code."},
		outputBytes: instrument{"mcp.resource.output_bytes", "By", "Size of a successful read's contents."},
		name:        "mcp.resource.name",
		success:     "mcp.resource.success",
		category:    "mcp.resource.error_category",
	},
	kindPrompt: {
		calls:        instrument{"mcp.prompt.generations", "{generations}", "Prompt generations, by prompt and outcome."},
		duration:     instrument{"mcp.prompt.duration", "ms", "Prompt generation duration."},
		errors:       instrument{"mcp.prompt.errors", "{errors}", "Failed prompt generations, by prompt and code."},
		inputBytes:   instrument{"mcp.prompt.input_bytes", "By", "Size of a prompt request's arguments."},
		outputBytes:  instrument{"mcp.prompt.output_bytes", "By", "Size of a generated prompt."},
		messageCount: instrument{"mcp.prompt.message_count", "{messages}", "Messages in a generated prompt."},
		name:         "mcp.prompt.name",
		success:      "mcp.prompt.success",
		category:     "mcp.prompt.error_category",
	},
}

// Instruments and attributes shared by every kind of call.
var (
	activeRequests = instrument{"mcp.requests.active", "{requests}", "Calls in progress."}
	classified     = instrument{"mcp.errors.classified", "{errors}", "Failures sent to clients, by code and operation."}
)

const (
	// keyClassifiedCode is the failure's code as a decimal string
	// ("-32001"), as mcp-ts-core writes it.
	keyClassifiedCode = attribute.Key("mcp.error.classified_code")
	// keyOperation is "<kind>:<name>", as in the log record's operation.
	keyOperation = attribute.Key("operation")
	// keySeverity is present only for a declared failure with a declared
	// severity: it lets an alert on errors skip the modelled outcomes. The
	// reason is never an attribute: it has no bound.
	keySeverity = attribute.Key("mcp.error.severity")
)

// The OpenTelemetry semantic conventions for MCP (semconv v1.41.0,
// development status), so that a backend that knows them reads our servers
// without configuration. The instruments come from mcpconv.
//
//	instrument                     kind       unit  attributes
//	mcp.server.operation.duration  histogram  s     mcp.method.name, gen_ai.tool.name | mcp.resource.uri | gen_ai.prompt.name,
//	                                                gen_ai.operation.name (tools), error.type, rpc.response.status_code,
//	                                                network.transport, network.protocol.name, mcp.protocol.version
//	mcp.server.session.duration    histogram  s     error.type, network.transport, network.protocol.name, mcp.protocol.version
//
//	span "<mcp.method.name> <target>", kind SERVER: the operation's attributes above, plus mcp.session.id and
//	jsonrpc.request.id; on failure status Error, and an "exception" event with exception.type and
//	exception.message (scrubbed).
//
//	A tool call that becomes a task (the extension io.modelcontextprotocol/tasks): its SERVER span ends
//	when the request is answered, with mcp.task.id; the span "execute_tool <gen_ai.tool.name>", kind
//	INTERNAL, a child of it with a link to it, runs from then to the task's end, with the same attributes
//	and mcp.task.id, and the outcome a SERVER span would have had. The metrics above are recorded once,
//	at the task's end, with its final outcome; mcp.task.id is never a metric attribute (it has no bound).
var (
	keyMethod          = semconv.McpMethodNameKey
	keyToolName        = semconv.GenAIToolNameKey
	keyPromptName      = semconv.GenAIPromptNameKey
	keyResourceURI     = semconv.McpResourceURIKey
	keyOperationName   = semconv.GenAIOperationNameKey
	keyErrorType       = semconv.ErrorTypeKey
	keyStatusCode      = semconv.RPCResponseStatusCodeKey
	keyTransport       = semconv.NetworkTransportKey
	keyProtocolName    = semconv.NetworkProtocolNameKey
	keyProtocolVersion = semconv.McpProtocolVersionKey
	keySessionID       = semconv.McpSessionIDKey
	keyRequestID       = semconv.JSONRPCRequestIDKey
	keyExceptionType   = semconv.ExceptionTypeKey
	keyExceptionMsg    = semconv.ExceptionMessageKey
)

// The values of mcp.method.name, by kind, and of gen_ai.operation.name for a
// tool call.
var methods = [...]string{
	kindTool:     "tools/call",
	kindResource: "resources/read",
	kindPrompt:   "prompts/get",
}

const executeTool = "execute_tool"

// keyTaskID is the id of the task a tool call became. The semantic
// conventions name no attribute for it yet; this one follows their mcp.*
// names.
const keyTaskID = attribute.Key("mcp.task.id")

// Trace context travels in params._meta under the W3C Trace Context header
// names, traceparent and tracestate (and baggage), as the MCP semantic
// conventions recommend; the propagator names them (see metaCarrier).

// An instrument is a name, its unit and its description.
type instrument struct {
	name, unit, desc string
}

// A surface is the vocabulary of one kind of call. An instrument with no
// name does not exist for that kind (resources take no input).
type surface struct {
	calls, duration, errors instrument
	inputBytes, outputBytes instrument
	messageCount            instrument
	name, success, category attribute.Key
}
