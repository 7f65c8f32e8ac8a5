// Package notes is a service as the authors of a real server write one,
// for the framework's tests of what leaves the process: the client of a
// note-taking app's HTTP API, in a package of its own, that reads its own
// configuration (the API's address and key), keeps its key secret with
// mcperr.KeepSecret, and passes the upstream's own message on as its
// error's message. [Upstream] is that API, faked on loopback: it quotes
// the key it was sent when it refuses a note, as the one we measured does.
package notes

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"

	"github.com/seed417024ea/mcpcore/mcperr"
)

// A Client reads notes from the app's API.
type Client struct {
	base string
	key  string
}

// New returns a client of the API at base, authenticated with key, which
// it keeps secret: a server that calls it never sends the key on.
func New(base, key string) (*Client, error) {
	if err := mcperr.KeepSecret(key); err != nil {
		return nil, err
	}
	return &Client{base: strings.TrimSuffix(base, "/"), key: key}, nil
}

// Read returns the text of the note at path. A refusal of the API is an
// *mcperr.Error with the API's own message, its code from the status; a
// failure of the API itself (5xx) is what mcperr.FromResponse makes of it.
func (c *Client) Read(ctx context.Context, path string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/vault/"+url.PathEscape(path), nil)
	if err != nil {
		return "", mcperr.InternalError("Cannot build a request for the note", mcperr.WithCause(err))
	}
	req.Header.Set("Authorization", "Bearer "+c.key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", mcperr.ServiceUnavailable("The notes app cannot be reached", mcperr.WithCause(err))
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode >= 500:
		return "", mcperr.FromResponse(resp, mcperr.WithService("Notes"))
	case resp.StatusCode >= 400:
		var refusal struct {
			Message   string `json:"message"`
			ErrorCode int    `json:"errorCode"`
		}
		_ = json.NewDecoder(io.LimitReader(resp.Body, 1<<16)).Decode(&refusal)
		code, _ := mcperr.CodeForHTTPStatus(resp.StatusCode)
		return "", mcperr.New(code, refusal.Message, mcperr.WithData(map[string]any{"reason": "refused", "errorCode": refusal.ErrorCode}))
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return "", mcperr.ServiceUnavailable("The note could not be read whole", mcperr.WithCause(err))
	}
	return string(b), nil
}

// Upstream fakes the app's API on loopback, for the key it accepts:
//
//   - GET /vault/private.md is refused with 400 and a message that quotes
//     the key it was sent: "the key `<key>` is not allowed to read this
//     file";
//   - GET /vault/broken.md fails with 500 and a body of its own;
//   - GET /vault/<name> answers with a note that holds the key, as notes
//     of one's configuration do.
func Upstream(key string) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sent := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		switch name := strings.TrimPrefix(r.URL.Path, "/vault/"); {
		case sent != key:
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprint(w, `{"message":"Unauthorized","errorCode":40101}`)
		case name == "private.md":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			msg, _ := json.Marshal("the key `" + sent + "` is not allowed to read this file")
			fmt.Fprintf(w, `{"message":%s,"errorCode":40301}`, msg)
		case name == "broken.md":
			w.WriteHeader(http.StatusInternalServerError)
			fmt.Fprint(w, `{"message":"vault index is corrupt","errorCode":50001}`)
		default:
			fmt.Fprintf(w, "# %s\n\nsync with api_key %s every hour\n", name, sent)
		}
	}))
}
