package mcpcore_test

// A property test: whatever secrets a failure or a log call carries, in the
// shapes they come in (key=value text, JSON bodies, URLs with credentials,
// bearer tokens, structured log attributes), none reaches the client or a log
// record.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// secretShapes builds an error, a log call or a response that carries s (and
// t, a second secret) in one of the shapes secrets leak in.
var secretShapes = []func(ctx *mcpcore.Context, s, t string) error{
	func(_ *mcpcore.Context, s, _ string) error { return fmt.Errorf("connect to db: password=%s", s) },
	func(_ *mcpcore.Context, s, _ string) error {
		return fmt.Errorf("auth failed; api_key: %s; retry later", s)
	},
	func(_ *mcpcore.Context, s, _ string) error {
		return fmt.Errorf("upstream said: %s", `{"error":"denied","access_token":"`+s+`"}`)
	},
	func(_ *mcpcore.Context, s, t string) error {
		return &url.Error{Op: "Get", URL: "https://admin:" + s + "@api.example.com/v1?api_key=" + t + "&q=1", Err: errors.New("connection refused")}
	},
	func(_ *mcpcore.Context, s, _ string) error {
		return fmt.Errorf("calling upstream: %w", fmt.Errorf("header Authorization: Bearer %s rejected", s))
	},
	func(_ *mcpcore.Context, s, t string) error {
		return fmt.Errorf("layer 1: %w", fmt.Errorf("layer 2: %w", fmt.Errorf("client_secret=%s token=%s", s, t)))
	},
	func(_ *mcpcore.Context, s, _ string) error {
		// An upstream's 401 whose body hands out a token.
		body := `{"error":"invalid_grant","access_token":"` + s + `","expires_in":3600}`
		return mcperr.FromResponse(&http.Response{
			StatusCode: 401, Status: "401 Unauthorized",
			Body:    io.NopCloser(strings.NewReader(body)),
			Request: &http.Request{URL: &url.URL{Scheme: "https", Host: "auth.example.com", Path: "/token"}},
		})
	},
	func(_ *mcpcore.Context, s, _ string) error { panic("lost the password=" + s) },
	// A service's own factory errors: their messages and data were set
	// deliberately, but a credential in them still never leaves.
	func(_ *mcpcore.Context, s, _ string) error {
		err := &url.Error{Op: "Get", URL: "https://eutils.example.gov/efetch.fcgi?api_key=" + s + "&db=pubmed", Err: errors.New("EOF")}
		return mcperr.ServiceUnavailable(fmt.Sprintf("NCBI request failed: %v", err))
	},
	func(_ *mcpcore.Context, s, _ string) error {
		return mcperr.ServiceUnavailable("NCBI response from https://eutils.example.gov/efetch.fcgi?api_key=" + s + "&db=pubmed was cut off.")
	},
	// The shapes of issue 18's scrubber gaps, in a factory's message.
	func(_ *mcpcore.Context, s, t string) error {
		return mcperr.ServiceUnavailable("presigned https://b.s3.example.com/o?X-Amz-Signature=" + s + "&sig=" + t + " refused")
	},
	func(_ *mcpcore.Context, s, t string) error {
		return mcperr.ServiceUnavailable("GET /v1?key=" + s + " with X-Api-Key: " + t + " refused")
	},
	func(_ *mcpcore.Context, s, t string) error {
		return mcperr.ServiceUnavailable("login failed: passwd=" + s + " pwd=" + t + "; password = correct " + s + " horse")
	},
	func(_ *mcpcore.Context, s, _ string) error {
		return mcperr.InternalError("bad key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIE" + s + "\n-----END RSA PRIVATE KEY-----")
	},
	// TryCatch's input, logged through the request's logger.
	func(ctx *mcpcore.Context, s, t string) error {
		_, err := mcperr.TryCatch(ctx, mcperr.TryCatchOptions{Operation: "Upstream.Get", Logger: mcpcore.Logger(ctx),
			Input: map[string]any{"passwd": s, "x-api-key": t, "query": "q"}}, func(context.Context) (int, error) {
			return 0, errors.New("refused")
		})
		return err
	},
	func(_ *mcpcore.Context, s, t string) error {
		return mcperr.NotFound("No such article", mcperr.WithData(map[string]any{
			"url": "https://eutils.example.gov/esearch.fcgi?db=pubmed&api_key=" + s, "apiKey": t,
			"upstream": map[string]any{"body": "password=" + s}, "tried": []any{"Bearer " + t},
		}), mcperr.WithRecovery("Retry with token="+t))
	},
	func(ctx *mcpcore.Context, s, t string) error {
		type creds struct {
			User  string `json:"user"`
			Token string `json:"token"`
		}
		ctx.Logger().Info("calling upstream", "password", s, "apiKey", t, "authorization", "Bearer "+s,
			"nested", map[string]any{"deeper": map[string]any{"secret": s}}, "creds", creds{"me", t})
		ctx.Logger().WithGroup("req").Info("headers", "cookie", s)
		return fmt.Errorf("done with %d", len(s))
	},
}

func TestNoSecretOnTheWireOrInALog(t *testing.T) {
	t.Parallel()
	type in struct {
		Shape  int    `json:"shape"`
		Secret string `json:"secret"`
		Other  string `json:"other"`
	}
	leaky := mcpcore.Tool[in, okOutput]{
		Name: "leaky",
		Handler: func(ctx *mcpcore.Context, i in) (okOutput, error) {
			return okOutput{}, secretShapes[i.Shape](ctx, i.Secret, i.Other)
		},
	}
	type params struct {
		Shape  string `json:"shape"`
		Secret string `json:"secret"`
		Other  string `json:"other"`
	}
	leakyResource := mcpcore.Resource[params, string]{
		Name:        "leaky",
		URITemplate: "test://leaky/{shape}/{secret}/{other}",
		Handler: func(ctx *mcpcore.Context, p params) (string, error) {
			var n int
			fmt.Sscan(p.Shape, &n)
			return "", secretShapes[n](ctx, p.Secret, p.Other)
		},
	}
	srv, logs := newServer(t, &mcpcore.ServerOptions{RepeatWindow: -1}, leaky, leakyResource)
	cs := wiretest.Connect(t, srv.MCPServer())

	rng := rand.New(rand.NewPCG(1, 2))
	secret := func() string {
		const alphabet = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
		b := make([]byte, 12+rng.IntN(20))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	var wire strings.Builder
	var secrets []string
	for i := range 300 {
		shape := i % len(secretShapes)
		s, o := secret(), secret()
		secrets = append(secrets, s, o)
		if i%2 == 0 {
			res := wiretest.CallTool(t, cs, "leaky", map[string]any{"shape": shape, "secret": s, "other": o})
			b, _ := json.Marshal(res)
			wire.Write(b)
			continue
		}
		_, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: fmt.Sprintf("test://leaky/%d/%s/%s", shape, s, o)})
		if err == nil {
			t.Fatalf("resource shape %d succeeded", shape)
		}
		// The error as the client got it: message and data.
		b, _ := json.Marshal(err)
		wire.WriteString(err.Error())
		wire.Write(b)
	}
	w, l := wire.String(), logs.String()
	for _, s := range secrets {
		if strings.Contains(w, s) {
			t.Errorf("secret %s reached the wire:\n%s", s, excerpt(w, s))
		}
		if strings.Contains(l, s) {
			t.Errorf("secret %s reached the log:\n%s", s, excerpt(l, s))
		}
	}
}

// excerpt is the text around s in text.
func excerpt(text, s string) string {
	i := strings.Index(text, s)
	return text[max(0, i-200):min(len(text), i+len(s)+50)]
}
