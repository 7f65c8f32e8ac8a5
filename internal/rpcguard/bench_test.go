package rpcguard

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkCheckLine measures what the guard does to each line before the
// SDK gets it (the check, and the message built from what it read): a
// typical tool call, and one with 1 MiB of arguments.
func BenchmarkCheckLine(b *testing.B) {
	for _, size := range []int{0, 1 << 20} {
		line := `{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"fetch_articles","arguments":{"pmids":["12345678","23456789"],"pad":"` +
			strings.Repeat("x", size) + `"}}}` + "\n"
		b.Run(byteSize(len(line)), func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			src := bytes.NewReader(nil)
			g := New(src, io.Discard, 0)
			queued := func() bool { return len(g.in.dec.queue) > 0 }
			for b.Loop() {
				src.Reset([]byte(line))
				g.in.br.Reset(src)
				g.st.calls, g.st.pending = map[id]struct{}{}, map[id]struct{}{}
				for g.in.fill(queued) == nil {
					g.in.dec.queue = g.in.dec.queue[:0]
				}
				g.in.err = nil
			}
		})
	}
}

func byteSize(n int) string {
	if n < 1<<20 {
		return strconv.Itoa(n) + "B"
	}
	return strconv.Itoa(n>>20) + "MiB"
}

// BenchmarkCheckBody measures Check on the body of a typical tool call, as
// the HTTP endpoint checks every POST.
func BenchmarkCheckBody(b *testing.B) {
	body := []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hello"},"_meta":{"progressToken":3}}}`)
	b.ReportAllocs()
	for b.Loop() {
		if Check(body) != nil {
			b.Fatal("refused")
		}
	}
}
