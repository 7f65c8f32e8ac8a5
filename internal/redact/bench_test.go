package redact

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// benchMessages are typical error messages: most have nothing to hide and
// must cost a scan and no allocation.
var benchMessages = []struct{ name, msg string }{
	{"Clean", `fetch articles: Get "https://eutils.ncbi.nlm.nih.gov/entrez/eutils/esummary.fcgi?db=pubmed&id=123": context deadline exceeded`},
	{"CleanLong", strings.Repeat("the upstream returned an unexpected answer, status 502; retrying later. ", 30)},
	{"Issue18", "login: password = correct horse battery staple; X-Api-Key: abc123\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----\nGet https://b.s3.amazonaws.com/o?X-Amz-Signature=abc&key=def: 403"},
	{"Secrets", `login: Get "https://admin:pw@api.example.com/v1?api_key=K3Y&q=1": header Authorization: Bearer abc.def rejected, {"access_token":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig"}`},
}

func BenchmarkString(b *testing.B) {
	for _, bm := range benchMessages {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bm.msg)))
			for b.Loop() {
				sinkString = String(bm.msg)
			}
		})
	}
}

func BenchmarkKey(b *testing.B) {
	for _, k := range []string{"duration", "session_token", "x-api-key", "max_tokens", "X-Amz-Signature"} {
		b.Run(k, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Key(k)
			}
		})
	}
}

// BenchmarkHandler compares a record through the wrapper with the same
// record through the bare handler: the wrapper's cost on the path of every
// log record.
func BenchmarkHandler(b *testing.B) {
	ctx := context.Background()
	records := []struct {
		name  string
		attrs []slog.Attr
	}{
		{"Clean", []slog.Attr{slog.String("tool", "fetch_articles"), slog.Int("status", 200),
			slog.Duration("duration", time.Millisecond), slog.String("requestId", "R-1")}},
		{"Secrets", []slog.Attr{slog.String("tool", "fetch_articles"), slog.String("password", "hunter2"),
			slog.String("detail", "retry with api_key=K3Y"), slog.Any("creds", map[string]any{"user": "ann", "token": "t"})}},
	}
	for _, rec := range records {
		for _, w := range []struct {
			name string
			h    slog.Handler
		}{
			{"bare", slog.NewJSONHandler(discard{}, nil)},
			{"redact", Handler(slog.NewJSONHandler(discard{}, nil))},
		} {
			b.Run(rec.name+"/"+w.name, func(b *testing.B) {
				l := slog.New(w.h)
				b.ReportAllocs()
				for b.Loop() {
					l.LogAttrs(ctx, slog.LevelInfo, "tool call done", rec.attrs...)
				}
			})
		}
	}
}
