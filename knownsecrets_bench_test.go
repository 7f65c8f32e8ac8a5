package mcpcore_test

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/internal/redact"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
)

// BenchmarkKnownSecrets is one tools/call round trip, a success and a
// failure, with no secret declared and with three (none of them in the
// answer, the usual case), in memory (the failure's log record and span
// pay), over a stdio stream and over Streamable HTTP (every byte sent
// pays too): what masking the known secrets costs a call, as a ratio.
//
//	go test -run '^$' -bench KnownSecrets -benchmem -count 6 . | benchstat -col /secrets -
func BenchmarkKnownSecrets(b *testing.B) {
	for _, transport := range []string{"memory", "stdio", "http"} {
		for _, fail := range []bool{false, true} {
			for _, secrets := range []string{"none", "3"} {
				outcome := map[bool]string{false: "success", true: "failure"}[fail]
				b.Run("transport="+transport+"/outcome="+outcome+"/secrets="+secrets, func(b *testing.B) {
					redact.Forget()
					b.Cleanup(redact.Forget)
					if secrets != "none" {
						if err := redact.Keep("bench-secret-one-0001", "bench-secret-two-0002", "bench-secret-three-03"); err != nil {
							b.Fatal(err)
						}
					}
					srv := newBenchServer(b)
					var cs *mcp.ClientSession
					switch transport {
					case "memory":
						cs = wiretest.Connect(b, srv.MCPServer())
					case "stdio":
						cs = stdioClient(b, srv, true)
					case "http":
						cs = httpClient(b, srv.Handler(), false)
					}
					loopEcho(b, cs, map[string]any{"message": "hello", "fail": fail}, fail)
				})
			}
		}
	}
}
