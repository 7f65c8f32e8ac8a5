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
	h := tieRequests(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
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
	if c := RequestContext(header); c == nil || c.Err() != nil {
		t.Fatalf("while the POST is served: %v", c)
	}
	hangUp()
	<-failed
	select {
	case <-returned:
	case <-time.After(10 * time.Second):
		t.Fatal("the handler did not see the hang-up")
	}
	if c := RequestContext(header); c == nil || c.Err() == nil {
		t.Errorf("after the client hung up and the POST ended: %v, want an ended context", c)
	}

	resp, err := http.Post(srv.URL, "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	header = <-headers
	<-returned
	if c := RequestContext(header); c != nil {
		t.Errorf("after the POST was answered: %v, want none", c)
	}
}
