package mcperr

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// respond builds a response with the given status and body, as an
// upstream's client would receive it.
func respond(status int, body string) *http.Response {
	return &http.Response{StatusCode: status, Body: io.NopCloser(strings.NewReader(body))}
}

const testJWT = "eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ.eyJzdWIiOiJhbm4iLCJzY29wZSI6InJlYWQifQ.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg"

func TestFromResponseRedactsBody(t *testing.T) {
	long := strings.Repeat("x", 40)
	tests := []struct {
		name  string
		body  string
		limit int
		want  string
	}{
		{"oauth 401 json", `{"error":"invalid_grant","access_token":"` + testJWT + `"}`, 0,
			`{"access_token":"[REDACTED]","error":"invalid_grant"}`},
		{"nested keys and strings", `{"data":{"user":{"name":"ann","password":"hunter2"},"tokens":[{"refresh_token":"r1"}]},"detail":"retry with api_key=K3Y"}`, 0,
			`{"data":{"tokens":[{"refresh_token":"[REDACTED]"}],"user":{"name":"ann","password":"[REDACTED]"}},"detail":"retry with api_key=[REDACTED]"}`},
		{"escaped key", `{"tok\u0065n":"abc"}`, 0, `{"token":"[REDACTED]"}`},
		{"clean json keeps its bytes", "{\n  \"error\": \"not_found\",\n  \"ids\": [1, 2.50]\n}", 0,
			"{\n  \"error\": \"not_found\",\n  \"ids\": [1, 2.50]\n}"},
		{"html stays readable", `{"error":"<b>bad</b>","secret":"s"}`, 0, `{"error":"<b>bad</b>","secret":"[REDACTED]"}`},
		{"text bearer", "invalid credentials: Bearer abc.DEF-123 rejected", 0, "invalid credentials: Bearer [REDACTED] rejected"},
		{"text key=value", "error=invalid_client&client_secret=s3cr3t", 0, "error=invalid_client&client_secret=[REDACTED]"},
		{"clean text", "slow down", 0, "slow down"},
		// The token straddles the limit. The body is read a little past
		// it, so this one parses whole: redacted, re-encoded, then cut.
		{"json secret straddles the cut", `{"msg":"` + long + `","access_token":"` + testJWT + `","n":1}`, 80,
			`{"access_token":"[REDACTED]","msg":"` + long + `","n…`},
		// Too long to read whole, this one is JSON cut short: scrubbed as
		// text, whose "key":"value" form still names the token.
		{"cut json secret straddles the cut", `{"msg":"` + long + `","access_token":"` + testJWT + `","pad":"` + strings.Repeat("p", 2000) + `"}`, 80,
			`{"msg":"` + long + `","access_token":"[REDACTED]","p…`},
		// A token longer than what is read: its quote is never closed.
		{"token longer than the read", `{"msg":"` + long + `","access_token":"` + strings.Repeat("T0k", 700) + `"}`, 80,
			`{"msg":"` + long + `","access_token":"[REDACTED]…`},
		{"text token straddles the cut", long + " Authorization: Bearer " + testJWT, 80,
			long + " Authorization: [REDACTED]…"},
		{"bare jwt straddles the cut", long + " token " + testJWT, 60,
			long + " token [REDACTED]…"},
		// Redaction may make a short body longer than the limit: the cut
		// never splits the marker.
		{"marker never split", `{"token":"ab"}`, 14, `{"token":"…`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var opts []ResponseOption
			if tt.limit > 0 {
				opts = append(opts, WithBodyLimit(tt.limit))
			}
			e := FromResponse(respond(401, tt.body), opts...)
			if got := e.Data()["body"]; got != tt.want {
				t.Errorf("body = %q\nwant %q", got, tt.want)
			}
			wire, _ := json.Marshal(e)
			for _, s := range []string{testJWT[:20], testJWT[len(testJWT)-20:], "hunter2", "s3cr3t", "K3Y", "r1\"", "T0kT0k"} {
				if strings.Contains(string(wire), s) {
					t.Errorf("%q reached the wire: %s", s, wire)
				}
			}
		})
	}
}

func TestCutHead(t *testing.T) {
	tests := []struct {
		s     string
		limit int
		want  string
	}{
		{"abc", 5, "abc"},
		{"abcdef", 5, "abcde"},
		{"abcdé", 5, "abcd"},
		{"x[REDACTED]y", 1, "x"},
		{"x[REDACTED]y", 2, "x"},
		{"x[REDACTED]y", 10, "x"},
		{"x[REDACTED]y", 11, "x[REDACTED]"},
		{"[REDACTED][REDACTED]", 15, "[REDACTED]"},
		{"[REDAC", 4, "[RED"}, // not a marker
	}
	for _, tt := range tests {
		if got := cutHead(tt.s, tt.limit); got != tt.want {
			t.Errorf("cutHead(%q, %d) = %q, want %q", tt.s, tt.limit, got, tt.want)
		}
	}
}
