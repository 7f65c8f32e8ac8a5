package otlp_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/app"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/otlp"
)

type greetInput struct {
	Name string `json:"name"`
}

type greetOutput struct {
	Greeting string `json:"greeting"`
}

var greet = mcpcore.Tool[greetInput, greetOutput]{
	Name:        "greet",
	Description: "Greet someone by name.",
	Handler: func(_ *mcpcore.Context, in greetInput) (greetOutput, error) {
		return greetOutput{Greeting: "Hello, " + in.Name + "!"}, nil
	},
}

// collector is an OTLP/HTTP collector that keeps what each path received.
type collector struct {
	mu       sync.Mutex
	bodies   map[string][]byte
	apiKeys  map[string]string
	contents map[string]string
}

func (c *collector) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.bodies[r.URL.Path] = append(c.bodies[r.URL.Path], b...)
	c.apiKeys[r.URL.Path] = r.Header.Get("X-Api-Key")
	c.contents[r.URL.Path] = r.Header.Get("Content-Type")
	w.Header().Set("Content-Type", "application/x-protobuf")
}

// TestServerExportsOverOTLP: an app given otlp.HTTP{} and an OTLP
// endpoint exports the span and the metrics of a call to it, over
// http/protobuf with the headers of OTEL_EXPORTER_OTLP_HEADERS, by the
// time Close returns.
func TestServerExportsOverOTLP(t *testing.T) {
	col := &collector{bodies: map[string][]byte{}, apiKeys: map[string]string{}, contents: map[string]string{}}
	srv := httptest.NewServer(col)
	defer srv.Close()
	env := map[string]string{
		"OTEL_EXPORTER_OTLP_ENDPOINT": srv.URL,
		"OTEL_EXPORTER_OTLP_HEADERS":  "x-api-key=collector-key-1",
	}
	cfg, err := app.ConfigFromEnv(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	a, err := app.New(mcpcore.Info{Name: "hello", Version: "0.1.0"}, cfg, &app.Options{OTLP: otlp.HTTP{}, KeepOTelGlobals: true}, greet)
	if err != nil {
		t.Fatal(err)
	}
	cs := wiretest.Connect(t, a.Server().MCPServer())
	if res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{"name": "Ada"}}); err != nil || res.IsError {
		t.Fatalf("greet failed: %v %v", res, err)
	}
	a.Close(context.Background())
	col.mu.Lock()
	defer col.mu.Unlock()
	for path, want := range map[string]string{"/v1/traces": "tools/call greet", "/v1/metrics": "mcp.server.operation.duration"} {
		if !bytes.Contains(col.bodies[path], []byte(want)) {
			t.Errorf("%s: received %d bytes without %q", path, len(col.bodies[path]), want)
		}
		if col.apiKeys[path] != "collector-key-1" || col.contents[path] != "application/x-protobuf" {
			t.Errorf("%s: X-Api-Key %q, Content-Type %q", path, col.apiKeys[path], col.contents[path])
		}
	}
}
