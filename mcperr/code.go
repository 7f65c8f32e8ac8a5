package mcperr

import "strconv"

// A Code is a JSON-RPC error code. The MCP and JSON-RPC specifications reserve
// the -32768..-32000 range; the codes below are the ones this framework uses.
//
// Any int32 converts to a Code, so a Code received from a peer may be one this
// package does not know: use [Code.Known] to tell.
type Code int32

// The codes of the JSON-RPC 2.0 specification.
const (
	// CodeParseError: the peer sent malformed JSON.
	CodeParseError Code = -32700
	// CodeInvalidRequest: the request is not a valid operation, or asks for an
	// unsupported capability.
	CodeInvalidRequest Code = -32600
	// CodeMethodNotFound: the method does not exist.
	CodeMethodNotFound Code = -32601
	// CodeInvalidParams: the parameters are missing or of the wrong shape.
	CodeInvalidParams Code = -32602
	// CodeInternalError: an unexpected failure or programmer error; the
	// classifier's fallback.
	CodeInternalError Code = -32603
)

// The server-defined codes of the framework.
const (
	// CodeServiceUnavailable: an upstream dependency is down or unreachable.
	CodeServiceUnavailable Code = -32000
	// CodeNotFound: the requested entity does not exist.
	CodeNotFound Code = -32001
	// CodeConflict: a duplicate, a version mismatch or a concurrent change.
	CodeConflict Code = -32002
	// CodeRateLimited: a rate limit or quota was exceeded.
	CodeRateLimited Code = -32003
	// CodeTimeout: a deadline passed before the work finished.
	CodeTimeout Code = -32004
	// CodeForbidden: the caller is authenticated but lacks permission.
	CodeForbidden Code = -32005
	// CodeUnauthorized: credentials are missing, invalid or expired.
	CodeUnauthorized Code = -32006
	// CodeValidationError: input or output broke a schema or business rule.
	CodeValidationError Code = -32007
	// CodeConfigurationError: configuration is missing or invalid.
	CodeConfigurationError Code = -32008
	// CodeInitializationFailed: startup or registration failed.
	CodeInitializationFailed Code = -32009
	// CodeDatabaseError: the persistence layer failed.
	CodeDatabaseError Code = -32010
	// CodeRequestCancelled: the caller cancelled the request or went away.
	CodeRequestCancelled Code = -32011
	// CodeMissingClientCapability: serving the request needs a capability
	// (sampling, elicitation, roots) that the client did not declare. MCP
	// defines it as a protocol error (MissingRequiredClientCapabilityError),
	// with the missing capabilities in data.requiredCapabilities.
	CodeMissingClientCapability Code = -32021
	// CodeSerializationError: encoding or decoding (JSON, XML, a parser) failed.
	CodeSerializationError Code = -32070
	// CodeUnknownError: a generic give-up code, for failures that cannot be
	// described at all.
	CodeUnknownError Code = -32099
)

// codeNames is the single table of known codes; the order is the order of
// [Codes].
var codeNames = []struct {
	code Code
	name string
}{
	{CodeParseError, "ParseError"},
	{CodeInvalidRequest, "InvalidRequest"},
	{CodeMethodNotFound, "MethodNotFound"},
	{CodeInvalidParams, "InvalidParams"},
	{CodeInternalError, "InternalError"},
	{CodeServiceUnavailable, "ServiceUnavailable"},
	{CodeNotFound, "NotFound"},
	{CodeConflict, "Conflict"},
	{CodeRateLimited, "RateLimited"},
	{CodeTimeout, "Timeout"},
	{CodeForbidden, "Forbidden"},
	{CodeUnauthorized, "Unauthorized"},
	{CodeValidationError, "ValidationError"},
	{CodeConfigurationError, "ConfigurationError"},
	{CodeInitializationFailed, "InitializationFailed"},
	{CodeDatabaseError, "DatabaseError"},
	{CodeRequestCancelled, "RequestCancelled"},
	{CodeMissingClientCapability, "MissingClientCapability"},
	{CodeSerializationError, "SerializationError"},
	{CodeUnknownError, "UnknownError"},
}

// Codes returns every code this package defines, in a stable order.
func Codes() []Code {
	codes := make([]Code, len(codeNames))
	for i, c := range codeNames {
		codes[i] = c.code
	}
	return codes
}

// String returns the code's name, such as "NotFound", or its number for a
// code this package does not define.
func (c Code) String() string {
	for _, n := range codeNames {
		if n.code == c {
			return n.name
		}
	}
	return strconv.Itoa(int(c))
}

// Known reports whether c is one of the codes this package defines.
func (c Code) Known() bool {
	for _, n := range codeNames {
		if n.code == c {
			return true
		}
	}
	return false
}

// CodeByName returns the code whose [Code.String] is name.
func CodeByName(name string) (Code, bool) {
	for _, n := range codeNames {
		if n.name == name {
			return n.code, true
		}
	}
	return 0, false
}

// A Category groups codes by who must act on them: the caller, the server's
// operator, or nobody but time (an upstream that may recover).
type Category string

// The categories of [Code.Category].
const (
	CategoryClient   Category = "client"
	CategoryServer   Category = "server"
	CategoryUpstream Category = "upstream"
)

// Category returns the code's category: upstream for ServiceUnavailable,
// RateLimited and Timeout; server for InternalError, UnknownError,
// DatabaseError, ConfigurationError, InitializationFailed and
// SerializationError; client for every other code, unknown ones included.
func (c Code) Category() Category {
	switch c {
	case CodeServiceUnavailable, CodeRateLimited, CodeTimeout:
		return CategoryUpstream
	case CodeInternalError, CodeUnknownError, CodeDatabaseError,
		CodeConfigurationError, CodeInitializationFailed, CodeSerializationError:
		return CategoryServer
	}
	return CategoryClient
}

// Transient reports whether a failure with this code may succeed if tried
// again later: ServiceUnavailable, Timeout and RateLimited. [Retry] retries
// these by default (see [IsTransient]).
func (c Code) Transient() bool {
	return c.Category() == CategoryUpstream
}
