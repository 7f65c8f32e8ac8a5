package httpserve

import (
	"strconv"
	"strings"
	"testing"
)

// realCodes gives a code to the SDK's code-0 answers in a JSON body and in
// events, and leaves everything else as it is, results holding such an
// object included.
func TestRealCodes(t *testing.T) {
	const (
		zero      = `{"jsonrpc":"2.0","id":7,"error":{"code":0,"message":"context canceled"}}`
		cancelled = `{"jsonrpc":"2.0","id":7,"error":{"code":-32011,"message":"The request was cancelled."}}`
		other     = `{"jsonrpc":"2.0","id":"x","error":{"code":0,"message":"method \"x\" is invalid: secret"}}`
		internal  = `{"jsonrpc":"2.0","id":"x","error":{"code":-32603,"message":"Internal error: the server could not answer this request."}}`
		result    = `{"jsonrpc":"2.0","id":8,"result":{"structuredContent":{"error":{"code":0,"message":"context canceled"}}}}`
	)
	for _, tc := range []struct{ in, want string }{
		{zero, cancelled},
		{zero + "\n", cancelled + "\n"},
		{other, internal},
		{"[" + zero + "," + result + "]", "[" + cancelled + "," + result + "]"},
		{"event: message\ndata: " + zero + "\n\n", "event: message\ndata: " + cancelled + "\n\n"},
		{"event: message\nid: 3\ndata: " + other + "\n\n", "event: message\nid: 3\ndata: " + internal + "\n\n"},
		{result, result},
		{"event: message\ndata: " + result + "\n\n", "event: message\ndata: " + result + "\n\n"},
		{`{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"m"}}`, `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"m"}}`},
		{"", ""},
		{": keep-alive\n\n", ": keep-alive\n\n"},
	} {
		got, changed := realCodes([]byte(tc.in))
		if string(got) != tc.want || changed != (tc.in != tc.want) {
			t.Errorf("realCodes(%q) = %q, %v; want %q", tc.in, got, changed, tc.want)
		}
	}
}

// BenchmarkRealCodes measures what every event of an answer pays to be
// checked: a 1 KiB and a 1 MiB result, whose head alone is read.
func BenchmarkRealCodes(b *testing.B) {
	for _, size := range []int{1 << 10, 1 << 20} {
		event := []byte("event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"" +
			strings.Repeat(`a\"b\":{\"code\":0,`, size/20) + "\"}]}}\n\n")
		b.Run(strconv.Itoa(size>>10)+"KiB", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, changed := realCodes(event); changed {
					b.Fatal("changed a result")
				}
			}
		})
	}
}
