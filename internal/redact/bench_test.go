package redact

import (
	"strings"
	"testing"
)

// benchMessages are typical error messages: most have nothing to hide and
// must cost a scan and no allocation.
var benchMessages = []struct{ name, msg string }{
	{"Clean", `fetch articles: Get "https://eutils.ncbi.nlm.nih.gov/entrez/eutils/esummary.fcgi?db=pubmed&id=123": context deadline exceeded`},
	{"CleanLong", strings.Repeat("the upstream returned an unexpected answer, status 502; retrying later. ", 30)},
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
	for _, k := range []string{"duration", "session_token", "x-api-key"} {
		b.Run(k, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Key(k)
			}
		})
	}
}
