package httpserve

import (
	"encoding/json"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/mcperr"
)

// versionHeader is the header in which a client names its protocol
// version on every request after initialize.
const versionHeader = "Mcp-Protocol-Version"

// guardVersion refuses, with 400 and the SDK's UnsupportedProtocolVersion
// error (-32022, data.supported and data.requested, as SEP-2575 asks of
// any version the server does not implement), a request whose
// Mcp-Protocol-Version is not a version at all: every MCP version is a
// date, YYYY-MM-DD. The SDK passes any value that sorts after its newest
// version on to version negotiation, and on a stateful server echoes it
// twice in its answer and once in a warning of its own, per request; a
// 60 KB header so cost 120 KB of answer and 60 KB of log each time. The
// answer here quotes at most the start of the value, and the refusal is
// logged as every other one, collapsed when repeated. A well-formed date
// that the server does not support goes on to the SDK, whose answer lists
// the versions it does.
func guardVersion(log *Refusals) func(http.Handler) http.Handler {
	versions := supportedVersions
	supported := strings.Join(versions, ",")
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			v := r.Header.Values(versionHeader)
			// An empty value is no version, as the SDK reads it.
			if len(v) == 0 || len(v) == 1 && (v[0] == "" || isVersion(v[0])) {
				next.ServeHTTP(w, r)
				return
			}
			log.Refused(r, "protocol_version", "malformed protocol version header", "bytes", len(strings.Join(v, "")), "values", len(v))
			requested := strings.Join(v, ",")
			msg := "Unsupported protocol version " + clip(requested, 32) + " in the Mcp-Protocol-Version header: send one version, such as 2025-11-25 (supported versions: " + supported + ")."
			data := map[string]any{"supported": versions, "requested": cut(requested, 32)}
			writeRPCError(w, http.StatusBadRequest, errorAnswerData(callOf(w).id, mcperr.Code(mcp.CodeUnsupportedProtocolVersion), msg, data))
		})
	}
}

// isVersion reports whether v has the form of a protocol version,
// YYYY-MM-DD in ASCII digits.
func isVersion(v string) bool {
	if len(v) != len("2025-11-25") {
		return false
	}
	for i := range len(v) {
		switch {
		case i == 4 || i == 7:
			if v[i] != '-' {
				return false
			}
		case v[i] < '0' || v[i] > '9':
			return false
		}
	}
	return true
}

// cut is s cut after n bytes, on a character's boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for i := 1; i < utf8.UTFMax; i++ {
		if r, size := utf8.DecodeLastRuneInString(s); r != utf8.RuneError || size != 1 {
			break
		}
		s = s[:len(s)-1]
	}
	return s
}

// ellipsis is s cut after n bytes (see cut), with "…" after it when it
// was cut.
func ellipsis(s string, n int) string {
	if c := cut(s, n); len(c) < len(s) {
		return c + "…"
	}
	return s
}

// clip is the client's text s for a message: quoted as JSON, and cut after
// n bytes (on a character's boundary), so that what a client sends is
// never echoed at length.
func clip(s string, n int) string {
	c := cut(s, n)
	b, _ := json.Marshal(c)
	if len(c) < len(s) {
		return string(b) + "…"
	}
	return string(b)
}
