package rpcguard

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkCheckLine measures what the guard adds to each line the SDK
// reads: a typical tool call, and one with 1 MiB of arguments.
func BenchmarkCheckLine(b *testing.B) {
	for _, size := range []int{0, 1 << 20} {
		line := `{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"fetch_articles","arguments":{"pmids":["12345678","23456789"],"pad":"` +
			strings.Repeat("x", size) + `"}}}` + "\n"
		b.Run(byteSize(len(line)), func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			src := bytes.NewReader(nil)
			g := New(src, io.Discard, 0)
			buf := make([]byte, 64<<10)
			for b.Loop() {
				src.Reset([]byte(line))
				g.in.br.Reset(src)
				g.st.calls, g.st.pending = map[id]struct{}{}, map[id]struct{}{}
				for {
					if _, err := g.in.Read(buf); err != nil {
						break
					}
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
