package rpcguard

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// pingBatch is one line holding a batch of n pings, ids 1 to n, every
// third written 1.0, 2.0, … (the same id as 1, 2 to the guard and the
// SDK), so that the answers find their slot by value, not by spelling.
func pingBatch(n int) []byte {
	b := []byte{'['}
	for i := 1; i <= n; i++ {
		if i > 1 {
			b = append(b, ',')
		}
		b = append(b, `{"jsonrpc":"2.0","id":`...)
		b = strconv.AppendInt(b, int64(i), 10)
		if i%3 == 0 {
			b = append(b, ".0"...)
		}
		b = append(b, `,"method":"ping"}`...)
	}
	return append(b, "]\n"...)
}

// serveBatch has the guard check line, a batch of n pings, and its
// connection answer each request in the reverse order of the batch, as the
// SDK may write them (its calls run concurrently): the guard's whole part
// in a batch, without the SDK's, and without the goroutine that hands each
// message over (one channel send per message, whatever the batch).
func serveBatch(tb testing.TB, line []byte, n int, out io.Writer) {
	g := New(bytes.NewReader(line), out, 0)
	c := &conn{g: g, dec: g.in.dec}
	if err := g.in.fill(func() bool { return len(c.dec.queue) > 0 }); err != nil {
		tb.Fatalf("reading the batch: %v", err)
	}
	if len(c.dec.queue) != n {
		tb.Fatalf("%d messages passed on, want %d", len(c.dec.queue), n)
	}
	for i := n - 1; i >= 0; i-- {
		resp := &jsonrpc.Response{ID: c.dec.queue[i].(*jsonrpc.Request).ID, Result: json.RawMessage("{}")}
		if err := c.Write(context.Background(), resp); err != nil {
			tb.Fatalf("Write: %v", err)
		}
	}
}

// TestBatchWorkIsLinear: the guard's work on a batch grows as the batch,
// not as its square, in time and in memory. A 40,000-ping batch is set
// against forty 1,000-ping ones: the same number of requests. The CPU
// time of each is measured a few times and the least kept; the budget is
// generous (linear work gives about 1.1; the search of the batch's ids for
// each answer that this guards against gave 9). The bytes allocated are
// counted, which is exact: linear work gives 1.
func TestBatchWorkIsLinear(t *testing.T) {
	const small, times = 1000, 40
	smallLine, bigLine := pingBatch(small), pingBatch(small*times)
	fastest := func(run func()) time.Duration {
		best := time.Duration(1<<63 - 1)
		for range 3 {
			start := cpuTime()
			run()
			best = min(best, cpuTime()-start)
		}
		return best
	}
	// Served once to count the bytes allocated, which also warms up, and
	// checks the answers.
	allocated := func(batches, n int, line []byte) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range batches {
			var out bytes.Buffer
			serveBatch(t, line, n, &out)
			if got := bytes.Count(out.Bytes(), []byte(`"result":{}`)); got != n {
				t.Fatalf("%d answers to a batch of %d", got, n)
			}
			if !bytes.HasPrefix(out.Bytes(), []byte(`[{"jsonrpc":"2.0","id":1,"result":{}},`)) {
				t.Fatalf("the answer array does not start with the batch's first request: %.80s", out.Bytes())
			}
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	tensBytes, oneBytes := allocated(times, small, smallLine), allocated(1, small*times, bigLine)
	if ratio := float64(oneBytes) / float64(tensBytes); ratio > 1.5 {
		t.Errorf("one batch of %d requests allocated %d bytes, %d batches of %d %d: %.2f times as much, want at most 1.5",
			small*times, oneBytes, times, small, tensBytes, ratio)
	} else {
		t.Logf("bytes allocated: one batch of %d: %d; %d of %d: %d; ratio %.2f", small*times, oneBytes, times, small, tensBytes, ratio)
	}
	tens := fastest(func() {
		for range times {
			serveBatch(t, smallLine, small, io.Discard)
		}
	})
	one := fastest(func() { serveBatch(t, bigLine, small*times, io.Discard) })
	if ratio := float64(one) / float64(tens); ratio > 4 {
		t.Errorf("one batch of %d requests took %v, %d batches of %d took %v: %.1f times as long, want at most 4",
			small*times, one, times, small, tens, ratio)
	} else {
		t.Logf("one batch of %d: %v; %d of %d: %v; ratio %.2f", small*times, one, times, small, tens, ratio)
	}
}

// BenchmarkBatch measures the guard's part in a batch of pings, per
// request: the check of the line, the messages handed over and the answers
// collected into one array.
func BenchmarkBatch(b *testing.B) {
	for _, n := range []int{100, 10000} {
		line := pingBatch(n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(line)))
			for b.Loop() {
				serveBatch(b, line, n, io.Discard)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/request")
		})
	}
}

// cpuTime is the CPU time the process has used: the work a test measures,
// whatever else the machine runs meanwhile.
func cpuTime() time.Duration {
	var u syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &u)
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
