package httpserve

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestHungUpPOSTsStayKnown: a call that begins after its client hung up on
// the POST, and after the POST's handler returned, still finds the POST's
// context ended; one whose POST was answered finds none.
func TestHungUpPOSTsStayKnown(t *testing.T) {
	t.Parallel()
	headers := make(chan http.Header, 1)
	returned := make(chan struct{}, 1)
	var e Endpoints
	h := e.add().tie(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() { returned <- struct{}{} }()
		// The server notices a hang-up once the body is read.
		io.ReadAll(r.Body)
		headers <- r.Header.Clone()
		if r.URL.Query().Has("hang") {
			<-r.Context().Done()
		}
	}))
	srv := httptest.NewServer(h)
	defer srv.Close()

	ctx, hangUp := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL+"/?hang", strings.NewReader("{}"))
	failed := make(chan error, 1)
	go func() {
		_, err := http.DefaultClient.Do(req)
		failed <- err
	}()
	header := <-headers
	if c := e.RequestContext(header); c == nil || c.Err() != nil {
		t.Fatalf("while the POST is served: %v", c)
	}
	hangUp()
	<-failed
	select {
	case <-returned:
	case <-time.After(10 * time.Second):
		t.Fatal("the handler did not see the hang-up")
	}
	if c := e.RequestContext(header); c == nil || c.Err() == nil {
		t.Errorf("after the client hung up and the POST ended: %v, want an ended context", c)
	}

	resp, err := http.Post(srv.URL, "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	header = <-headers
	<-returned
	if c := e.RequestContext(header); c != nil {
		t.Errorf("after the POST was answered: %v, want none", c)
	}
}

// holdPOST serves one POST through an endpoint of e, held open until its
// client hangs up, and returns the headers its calls would carry, the
// hang-up, and a channel closed once the endpoint has seen it.
func holdPOST(t *testing.T, e *Endpoints) (header http.Header, hangUp func(), ended <-chan struct{}) {
	t.Helper()
	headers, returned := make(chan http.Header, 1), make(chan struct{})
	srv := httptest.NewServer(e.add().tie(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer close(returned)
		io.ReadAll(r.Body)
		headers <- r.Header.Clone()
		<-r.Context().Done()
	})))
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL, strings.NewReader("{}"))
	go func() {
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	select {
	case header = <-headers:
	case <-time.After(10 * time.Second):
		t.Fatal("the POST did not reach its handler")
	}
	return header, cancel, returned
}

// TestServersKeepTheirPOSTsApart: each of two servers in one process
// (each with its Endpoints) finds only its own POSTs: a header naming a
// POST of one, looked up by the other, never finds it, so the client of
// one hanging up ends no call of the other's. Two endpoints of one server
// name their POSTs apart.
func TestServersKeepTheirPOSTsApart(t *testing.T) {
	t.Parallel()
	var a, b Endpoints
	ha, hangUpA, endedA := holdPOST(t, &a)
	hb, _, _ := holdPOST(t, &b)
	hangUpA()
	select {
	case <-endedA:
	case <-time.After(10 * time.Second):
		t.Fatal("the endpoint did not see the hang-up")
	}
	if c := a.RequestContext(ha); c == nil || c.Err() == nil {
		t.Errorf("server a, after its client hung up: %v, want an ended context", c)
	}
	// Names are the server's own: a's may read as one of b's, but then
	// b finds its own POST, whose client is still there.
	if c := b.RequestContext(ha); c != nil && c.Err() != nil {
		t.Errorf("server b found server a's POST %q, ended", ha.Get(requestHeader))
	}
	if c := b.RequestContext(hb); c == nil || c.Err() != nil {
		t.Errorf("server b, whose client is still there: %v, want its POST's live context", c)
	}

	// A second endpoint of server b names its POSTs apart from the first's.
	hb2, hangUpB2, endedB2 := holdPOST(t, &b)
	if hb2.Get(requestHeader) == hb.Get(requestHeader) {
		t.Fatalf("two endpoints of one server named their POSTs alike: %q", hb.Get(requestHeader))
	}
	hangUpB2()
	<-endedB2
	if c := b.RequestContext(hb2); c == nil || c.Err() == nil {
		t.Errorf("b's second endpoint, after its client hung up: %v, want an ended context", c)
	}
	if c := b.RequestContext(hb); c == nil || c.Err() != nil {
		t.Errorf("b's first endpoint: %v, want its POST's live context", c)
	}
	for _, v := range []string{"7.1", "1", "0.zzzz", "x.1", "-1.1"} {
		if c := b.RequestContext(http.Header{"Mcpcore-Request": {v}}); c != nil {
			t.Errorf("%q names no POST of b's, but found %v", v, c)
		}
	}
}
