package redis

import (
	"net"
	"sync"
	"testing"
)

// stallProxy stands between a Fleet and Redis, forwarding bytes both ways
// until stalled: then it holds every byte it reads, on the connections
// open and those it accepts after, as a Redis that is SIGSTOPped does (the
// connections stay open, nothing comes back), until resumed.
type stallProxy struct {
	ln     net.Listener
	target string

	mu      sync.Mutex
	stalled bool
	resumed *sync.Cond
	conns   []net.Conn
}

func newStallProxy(t testing.TB, target string) *stallProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &stallProxy{ln: ln, target: target}
	p.resumed = sync.NewCond(&p.mu)
	go p.accept()
	t.Cleanup(p.close)
	return p
}

// Addr is where a client dials the proxy.
func (p *stallProxy) Addr() string { return p.ln.Addr().String() }

// stall holds every byte from now on.
func (p *stallProxy) stall() {
	p.mu.Lock()
	p.stalled = true
	p.mu.Unlock()
}

// resume forwards again, the bytes held first.
func (p *stallProxy) resume() {
	p.mu.Lock()
	p.stalled = false
	p.resumed.Broadcast()
	p.mu.Unlock()
}

func (p *stallProxy) close() {
	_ = p.ln.Close()
	p.resume()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		_ = c.Close()
	}
}

func (p *stallProxy) accept() {
	for {
		in, err := p.ln.Accept()
		if err != nil {
			return
		}
		out, err := net.Dial("tcp", p.target)
		if err != nil {
			_ = in.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, in, out)
		p.mu.Unlock()
		go p.pipe(in, out)
		go p.pipe(out, in)
	}
}

// pipe copies from src to dst, holding each read while stalled; a closed
// end closes the other.
func (p *stallProxy) pipe(src, dst net.Conn) {
	defer func() { _ = src.Close(); _ = dst.Close() }()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			p.mu.Lock()
			for p.stalled {
				p.resumed.Wait()
			}
			p.mu.Unlock()
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}
