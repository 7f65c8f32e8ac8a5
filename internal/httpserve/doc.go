// Package httpserve is the HTTP deployment surface of an mcpcore server:
// everything between a client's TCP connection and the SDK's Streamable
// HTTP handler, and the pages served beside it.
//
// [New] assembles, in the order a request meets them: the origin check,
// the bounds on the body (with a JSON-RPC error for every refusal), the
// form of the Mcp-Protocol-Version header, the authentication it is given
// (package mcphttp's bearer tokens; none of it, and no JWT library, is
// here), the session cap and each subject's
// share of it, the idle timeout of sessions (which any open request of a
// session, its GET stream included, holds off), then the SDK. Beside the
// endpoint it serves the liveness
// and readiness probes, the routes it is given (the protected-resource
// metadata of RFC 9728), the landing page and the server card, all outside
// authentication.
//
// Every part is configured from mcpcore.Config and mcphttp.AuthConfig;
// none is rewritten here when the SDK or the standard library has it.
package httpserve
