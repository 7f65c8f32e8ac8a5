package mcpcore_test

// The recorder of TestHTTPWireGolden: it sends each exchange of a script to
// a real HTTP server and writes down what went and what came back, as text
// that stays the same from run to run, to compare with a golden file.

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seed417024ea/mcpcore"
)

// An exchange is one request of a script and how to read its answer.
type exchange struct {
	name   string
	method string // "" is POST
	path   string // "" is mcpcore.HTTPPath
	// header is the request's headers, "Name: value" each, on top of the
	// defaults of its method (see defaultHeaders); "Name:" removes one. A
	// value may name a session or a token of the script as {name}.
	header []string
	body   string
	// save keeps the answer's Mcp-Session-Id under this name.
	save string
	// open reads the answer's status line, headers and first event only,
	// and keeps the request open under this name until an exchange with
	// shut set to it; shut ends such a request instead of sending one.
	open, shut string
	// raw sends the request's head as written, without a body, on a
	// connection of its own: for a body that is declared and never sent.
	raw bool
	// async sends the request and goes on without its answer, which the
	// exchange with await set to the same name waits for and records (with
	// the request): for a call held in its handler meanwhile.
	async, await string
	// sortEvents sorts the events of the answer: the SDK answers the
	// requests of a batch as they finish.
	sortEvents bool
	// before runs before the request is sent (draining the server, say);
	// its error fails the test.
	before func() error
	note   string // said in the golden file, above the request
}

// defaultHeaders are what a client sends unless an exchange says
// otherwise.
var defaultHeaders = map[string][]string{
	http.MethodPost: {"Content-Type: application/json", "Accept: application/json, text/event-stream"},
	http.MethodGet:  {"Accept: text/event-stream"},
}

// answerHeaders are the headers of an answer that the golden files keep:
// the ones a client reads. The others (Date, Content-Length) say nothing of
// the wire's meaning, or vary.
var answerHeaders = []string{"Allow", "Cache-Control", "Connection", "Content-Type", "Mcp-Session-Id", "Retry-After", "Www-Authenticate", "X-Content-Type-Options"}

// A wireScript sends exchanges to one server, in order, and records them.
type wireScript struct {
	t      *testing.T
	srv    *httptest.Server
	client *http.Client
	// names are the values an exchange names as {name}: the sessions it
	// saved and the tokens it was given.
	names map[string]string
	// sessions are the names of the saved sessions, by id.
	sessions map[string]string
	open     map[string]func()
	pending  map[string]pendingAnswer
	out      bytes.Buffer
}

// A pendingAnswer is the answer to an exchange sent with async, once it
// comes.
type pendingAnswer struct {
	x      exchange
	answer chan answer
}

type answer struct {
	resp *http.Response
	body []byte
	err  error
}

// newWireScript serves h on a loopback address for the length of the test.
func newWireScript(t *testing.T, h http.Handler, tokens map[string]string) *wireScript {
	t.Helper()
	srv := httptest.NewServer(h)
	transport := &http.Transport{}
	t.Cleanup(func() {
		transport.CloseIdleConnections()
		srv.Close()
	})
	s := &wireScript{t: t, srv: srv, client: &http.Client{Transport: transport},
		names: map[string]string{}, sessions: map[string]string{}, open: map[string]func(){}, pending: map[string]pendingAnswer{}}
	for k, v := range tokens {
		s.names[k] = v
	}
	return s
}

// run sends each exchange in turn and records it.
func (s *wireScript) run(exchanges []exchange) {
	s.t.Helper()
	for _, x := range exchanges {
		if x.before != nil {
			if err := x.before(); err != nil {
				s.t.Fatalf("%s: %v", x.name, err)
			}
		}
		if x.shut != "" {
			stop, ok := s.open[x.shut]
			if !ok {
				s.t.Fatalf("%s: nothing open under %q", x.name, x.shut)
			}
			stop()
			delete(s.open, x.shut)
			continue
		}
		switch {
		case x.async != "":
			p := pendingAnswer{x: x, answer: make(chan answer, 1)}
			s.pending[x.async] = p
			req := s.request(x)
			go func() {
				resp, body, err := s.roundTrip(req)
				p.answer <- answer{resp, body, err}
			}()
		case x.await != "":
			p, ok := s.pending[x.await]
			if !ok {
				s.t.Fatalf("%s: nothing sent under %q", x.name, x.await)
			}
			delete(s.pending, x.await)
			a := <-p.answer
			if a.err != nil {
				s.t.Fatalf("%s: %v", p.x.name, a.err)
			}
			p.x.name, p.x.note = x.name, x.note
			s.writeRequest(p.x)
			s.writeAnswer(p.x, a.resp, a.body)
		default:
			s.record(x)
		}
	}
	for _, stop := range s.open {
		stop()
	}
}

// record sends x and writes down the request and its answer.
func (s *wireScript) record(x exchange) {
	s.t.Helper()
	s.writeRequest(x)
	var (
		resp *http.Response
		body []byte
		err  error
	)
	switch {
	case x.raw:
		resp, body, err = s.sendRaw(x)
	case x.open != "":
		resp, body, err = s.openStream(x)
	default:
		resp, body, err = s.roundTrip(s.request(x))
	}
	if err != nil {
		s.t.Fatalf("%s: %v", x.name, err)
	}
	s.writeAnswer(x, resp, body)
}

// target is the method and path of x, with the defaults filled in.
func target(x exchange) (method, path string) {
	method, path = x.method, x.path
	if method == "" {
		method = http.MethodPost
	}
	if path == "" {
		path = mcpcore.HTTPPath
	}
	return method, path
}

// writeRequest writes down the request of x, as the script names its
// sessions and tokens.
func (s *wireScript) writeRequest(x exchange) {
	method, path := target(x)
	header := requestHeader(method, path, x.header)
	fmt.Fprintf(&s.out, "### %s\n", x.name)
	if x.note != "" {
		fmt.Fprintf(&s.out, "# %s\n", x.note)
	}
	fmt.Fprintf(&s.out, "%s %s\n", method, path)
	for _, k := range slices.Sorted(maps.Keys(header)) {
		fmt.Fprintf(&s.out, "%s: %s\n", k, header[k])
	}
	if x.body != "" {
		fmt.Fprintf(&s.out, "\n%s\n", elide(x.body))
	}
}

// writeAnswer writes down the answer to x: its status line, the headers
// a client reads and its body, normalised.
func (s *wireScript) writeAnswer(x exchange, resp *http.Response, body []byte) {
	if id := resp.Header.Get("Mcp-Session-Id"); id != "" && x.save != "" {
		s.names[x.save], s.sessions[id] = id, x.save
	}
	fmt.Fprintf(&s.out, "--- answer\n%s %s\n", resp.Proto, resp.Status)
	for _, k := range answerHeaders {
		for _, v := range resp.Header.Values(k) {
			fmt.Fprintf(&s.out, "%s: %s\n", k, s.normalise(v, k == "Mcp-Session-Id"))
		}
	}
	if body = dropKeepAlives(body); x.sortEvents {
		body = sortedEvents(body)
	}
	if len(body) > 0 {
		fmt.Fprintf(&s.out, "\n%s", s.normalise(string(body), false))
		if !bytes.HasSuffix(body, []byte("\n")) {
			s.out.WriteString("\n")
		}
	}
	s.out.WriteString("\n")
}

// request is the request of x, to the script's server; it ends with the
// test, or when the answer to an open exchange is shut.
func (s *wireScript) request(x exchange) *http.Request {
	s.t.Helper()
	method, path := target(x)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	s.t.Cleanup(cancel)
	var body io.Reader = http.NoBody
	if x.body != "" {
		body = strings.NewReader(x.body)
	}
	req, err := http.NewRequestWithContext(ctx, method, s.srv.URL+path, body)
	if err != nil {
		s.t.Fatal(err)
	}
	header := requestHeader(method, path, x.header)
	for k, v := range header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, s.expand(v))
	}
	if header["Transfer-Encoding"] == "chunked" {
		req.ContentLength = -1 // unknown until read: the body goes in chunks
		req.Header.Del("Transfer-Encoding")
	}
	return req
}

// roundTrip sends req through the script's client and reads the whole
// answer.
func (s *wireScript) roundTrip(req *http.Request) (*http.Response, []byte, error) {
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp, body, err
}

// openStream sends the request of x and reads its answer up to its first
// event, keeping the request open under x.open.
func (s *wireScript) openStream(x exchange) (*http.Response, []byte, error) {
	req := s.request(x)
	ctx, cancel := context.WithCancel(req.Context())
	resp, err := s.client.Do(req.WithContext(ctx))
	if err != nil {
		cancel()
		return nil, nil, err
	}
	s.open[x.open] = func() {
		cancel()
		resp.Body.Close()
	}
	body, err := firstEvent(resp.Body)
	return resp, body, err
}

// sendRaw writes the head of the request of x on a connection of its own,
// and reads the answer.
func (s *wireScript) sendRaw(x exchange) (*http.Response, []byte, error) {
	s.t.Helper()
	method, path := target(x)
	conn, err := net.Dial("tcp", s.srv.Listener.Addr().String())
	if err != nil {
		return nil, nil, err
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	var head strings.Builder
	fmt.Fprintf(&head, "%s %s HTTP/1.1\r\nHost: %s\r\n", method, path, s.srv.Listener.Addr())
	header := requestHeader(method, path, x.header)
	for _, k := range slices.Sorted(maps.Keys(header)) {
		fmt.Fprintf(&head, "%s: %s\r\n", k, s.expand(header[k]))
	}
	head.WriteString("\r\n")
	if _, err := io.WriteString(conn, head.String()); err != nil {
		return nil, nil, err
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp, body, err
}

// requestHeader is the headers of a request with method to path: the
// defaults of a request to the endpoint, then set on top.
func requestHeader(method, path string, set []string) map[string]string {
	h := map[string]string{}
	var defaults []string
	if path == mcpcore.HTTPPath {
		defaults = defaultHeaders[method]
	}
	for _, kv := range append(slices.Clone(defaults), set...) {
		k, v, _ := strings.Cut(kv, ":")
		k, v = http.CanonicalHeaderKey(strings.TrimSpace(k)), strings.TrimSpace(v)
		if v == "" {
			delete(h, k)
			continue
		}
		h[k] = v
	}
	return h
}

// expand is v with each {name} of the script replaced by its value.
func (s *wireScript) expand(v string) string {
	for k, val := range s.names {
		v = strings.ReplaceAll(v, "{"+k+"}", val)
	}
	return v
}

// normalise is what the golden file keeps of v, a header's value or a
// body: a session id is its name ({name}, or <session> for a session no
// exchange saved), the server's address <host>.
func (s *wireScript) normalise(v string, isSessionID bool) string {
	if isSessionID {
		if name, ok := s.sessions[v]; ok {
			return "{" + name + "}"
		}
		return "<session>"
	}
	for id, name := range s.sessions {
		v = strings.ReplaceAll(v, id, "{"+name+"}")
	}
	return strings.ReplaceAll(v, s.srv.Listener.Addr().String(), "<host>")
}

// firstEvent reads an event stream up to the end of its first event (or
// comment), for a stream that stays open.
func firstEvent(body io.Reader) ([]byte, error) {
	lines := bufio.NewReader(body)
	var event bytes.Buffer
	for {
		line, err := lines.ReadString('\n')
		event.WriteString(line)
		if err != nil {
			return nil, fmt.Errorf("the stream ended before its first event: %w (%q)", err, event.String())
		}
		if line == "\n" && event.Len() > 1 {
			if kept := dropKeepAlives(event.Bytes()); len(kept) > 0 {
				return kept, nil
			}
			event.Reset()
		}
	}
}

// dropKeepAlives removes the endpoint's keep-alive comments from an event
// stream: they come when a stream is quiet long enough, which depends on
// the machine, not on the wire.
func dropKeepAlives(b []byte) []byte {
	return bytes.ReplaceAll(b, []byte(": keep-alive\n\n"), nil)
}

// sortedEvents is the events of b in order of their bytes.
func sortedEvents(b []byte) []byte {
	events := strings.SplitAfter(string(b), "\n\n")
	slices.Sort(events)
	return []byte(strings.Join(events, ""))
}

// elide shortens a body that is long only to be long.
func elide(body string) string {
	if len(body) <= 512 {
		return body
	}
	return fmt.Sprintf("%s… (%d bytes)", body[:128], len(body))
}
