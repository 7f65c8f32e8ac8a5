package mcperr

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestCodeForHTTPStatus(t *testing.T) {
	tests := []struct {
		status int
		want   Code // 0: no code
	}{
		{0, 0}, {100, 0}, {200, 0}, {204, 0}, {301, 0}, {304, 0}, {399, 0},
		{400, CodeInvalidParams},
		{401, CodeUnauthorized},
		{402, CodeForbidden},
		{403, CodeForbidden},
		{404, CodeNotFound},
		{405, CodeInvalidRequest},
		{406, CodeInvalidRequest},
		{407, CodeInvalidRequest},
		{408, CodeTimeout},
		{409, CodeConflict},
		{410, CodeInvalidRequest},
		{411, CodeInvalidRequest},
		{412, CodeInvalidRequest},
		{413, CodeInvalidRequest},
		{415, CodeInvalidRequest},
		{416, CodeInvalidRequest},
		{417, CodeInvalidRequest},
		{418, CodeInvalidRequest},
		{421, CodeInvalidRequest},
		{422, CodeValidationError},
		{423, CodeConflict},
		{424, CodeConflict},
		{425, CodeTimeout},
		{426, CodeInvalidRequest},
		{428, CodeInvalidRequest},
		{429, CodeRateLimited},
		{431, CodeInvalidRequest},
		{451, CodeInvalidRequest},
		{499, CodeInvalidRequest},
		{500, CodeInternalError},
		{501, CodeInternalError},
		{502, CodeServiceUnavailable},
		{503, CodeServiceUnavailable},
		{504, CodeTimeout},
		{505, CodeServiceUnavailable},
		{507, CodeServiceUnavailable},
		{511, CodeServiceUnavailable},
		{599, CodeServiceUnavailable},
		{600, CodeServiceUnavailable},
		{999, CodeServiceUnavailable},
	}
	for _, tt := range tests {
		got, ok := CodeForHTTPStatus(tt.status)
		if ok != (tt.want != 0) || got != tt.want {
			t.Errorf("CodeForHTTPStatus(%d) = %v, %v; want %v, %v", tt.status, got, ok, tt.want, tt.want != 0)
		}
	}
}

func TestHTTPStatus(t *testing.T) {
	want := map[Code]int{
		CodeNotFound:                404,
		CodeUnauthorized:            401,
		CodeForbidden:               403,
		CodeInvalidParams:           400,
		CodeValidationError:         400,
		CodeInvalidRequest:          400,
		CodeMissingClientCapability: 400,
		CodeTimeout:                 504,
		CodeServiceUnavailable:      503,
		CodeConflict:                409,
		CodeRateLimited:             429,
	}
	for _, c := range append(Codes(), 0, -1, 12345) {
		w, ok := want[c]
		if !ok {
			w = 500
		}
		if got := HTTPStatus(c); got != w {
			t.Errorf("HTTPStatus(%v) = %d, want %d", c, got, w)
		}
	}
}

// rawResponse answers with exactly the given bytes, bypassing net/http's
// status line, and closes the connection.
func rawResponse(w http.ResponseWriter, raw string) {
	conn, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(err)
	}
	defer conn.Close()
	buf.WriteString(raw)
	buf.Flush()
}

func newUpstream(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "30")
		w.WriteHeader(http.StatusTooManyRequests)
		io.WriteString(w, "slow down")
	})
	mux.HandleFunc("/status/{code}", func(w http.ResponseWriter, r *http.Request) {
		var code int
		fmt.Sscan(r.PathValue("code"), &code)
		w.WriteHeader(code)
		io.WriteString(w, r.URL.Query().Get("body"))
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadGateway)
		io.WriteString(w, strings.Repeat("x", 10000))
	})
	mux.HandleFunc("/empty-text", func(w http.ResponseWriter, r *http.Request) {
		rawResponse(w, "HTTP/1.1 599 \r\nContent-Length: 4\r\nConnection: close\r\n\r\noops")
	})
	mux.HandleFunc("/teapot", func(w http.ResponseWriter, r *http.Request) {
		rawResponse(w, "HTTP/1.1 418 Short And Stout\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
	})
	mux.HandleFunc("/truncated", func(w http.ResponseWriter, r *http.Request) {
		// Promise 100 bytes, send 5 and hang up: reading the body fails.
		rawResponse(w, "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 100\r\nConnection: close\r\n\r\nshort")
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func get(t *testing.T, srv *httptest.Server, path string) *http.Response {
	t.Helper()
	resp, err := srv.Client().Get(srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func TestFromResponse(t *testing.T) {
	srv := newUpstream(t)
	host := strings.TrimPrefix(srv.URL, "http://")

	tests := []struct {
		name     string
		path     string
		opts     []ResponseOption
		wantCode Code
		wantMsg  string
		wantData map[string]any // url is checked separately
	}{
		{
			name:     "rate limited, service, Retry-After",
			path:     "/slow",
			opts:     []ResponseOption{WithService("NCBI")},
			wantCode: CodeRateLimited,
			wantMsg:  "NCBI returned HTTP 429 Too Many Requests.",
			wantData: map[string]any{"status": 429, "statusText": "Too Many Requests", "body": "slow down", "retryAfter": int64(30)},
		},
		{
			name:     "host as subject",
			path:     "/status/404?body=nope",
			wantCode: CodeNotFound,
			wantMsg:  host + " returned HTTP 404 Not Found.",
			wantData: map[string]any{"status": 404, "statusText": "Not Found", "body": "nope"},
		},
		{
			name:     "empty body is captured as empty",
			path:     "/status/500",
			wantCode: CodeInternalError,
			wantMsg:  host + " returned HTTP 500 Internal Server Error.",
			wantData: map[string]any{"status": 500, "statusText": "Internal Server Error", "body": ""},
		},
		{
			name:     "body exactly at the limit",
			path:     "/status/503?body=0123456789",
			opts:     []ResponseOption{WithBodyLimit(10)},
			wantCode: CodeServiceUnavailable,
			wantMsg:  host + " returned HTTP 503 Service Unavailable.",
			wantData: map[string]any{"status": 503, "statusText": "Service Unavailable", "body": "0123456789"},
		},
		{
			name:     "body one byte over the limit",
			path:     "/status/503?body=0123456789A",
			opts:     []ResponseOption{WithBodyLimit(10)},
			wantCode: CodeServiceUnavailable,
			wantMsg:  host + " returned HTTP 503 Service Unavailable.",
			wantData: map[string]any{"status": 503, "statusText": "Service Unavailable", "body": "0123456789…"},
		},
		{
			name:     "cut inside a multibyte rune keeps the rune whole",
			path:     "/status/400?body=" + url.QueryEscape("abcd€fg"),
			opts:     []ResponseOption{WithBodyLimit(6)}, // € is bytes 4..6
			wantCode: CodeInvalidParams,
			wantMsg:  host + " returned HTTP 400 Bad Request.",
			wantData: map[string]any{"status": 400, "statusText": "Bad Request", "body": "abcd…"},
		},
		{
			name:     "default limit is 500 bytes",
			path:     "/big",
			wantCode: CodeServiceUnavailable,
			wantMsg:  host + " returned HTTP 502 Bad Gateway.",
			wantData: map[string]any{"status": 502, "statusText": "Bad Gateway", "body": strings.Repeat("x", 500) + "…"},
		},
		{
			name:     "big body, limit 50",
			path:     "/big",
			opts:     []ResponseOption{WithBodyLimit(50)},
			wantCode: CodeServiceUnavailable,
			wantMsg:  host + " returned HTTP 502 Bad Gateway.",
			wantData: map[string]any{"status": 502, "statusText": "Bad Gateway", "body": strings.Repeat("x", 50) + "…"},
		},
		{
			name:     "limit 0 captures nothing",
			path:     "/big",
			opts:     []ResponseOption{WithBodyLimit(0)},
			wantCode: CodeServiceUnavailable,
			wantMsg:  host + " returned HTTP 502 Bad Gateway.",
			wantData: map[string]any{"status": 502, "statusText": "Bad Gateway"},
		},
		{
			name:     "negative limit captures nothing",
			path:     "/big",
			opts:     []ResponseOption{WithBodyLimit(-1)},
			wantCode: CodeServiceUnavailable,
			wantMsg:  host + " returned HTTP 502 Bad Gateway.",
			wantData: map[string]any{"status": 502, "statusText": "Bad Gateway"},
		},
		{
			name:     "WithoutBody",
			path:     "/slow",
			opts:     []ResponseOption{WithoutBody()},
			wantCode: CodeRateLimited,
			wantMsg:  host + " returned HTTP 429 Too Many Requests.",
			wantData: map[string]any{"status": 429, "statusText": "Too Many Requests", "retryAfter": int64(30)},
		},
		{
			name:     "a later WithBodyLimit undoes WithoutBody",
			path:     "/slow",
			opts:     []ResponseOption{WithoutBody(), WithBodyLimit(4)},
			wantCode: CodeRateLimited,
			wantMsg:  host + " returned HTTP 429 Too Many Requests.",
			wantData: map[string]any{"status": 429, "statusText": "Too Many Requests", "body": "slow…", "retryAfter": int64(30)},
		},
		{
			name:     "no status text",
			path:     "/empty-text",
			wantCode: CodeServiceUnavailable,
			wantMsg:  host + " returned HTTP 599.",
			wantData: map[string]any{"status": 599, "body": "oops"},
		},
		{
			name:     "status text from the status line",
			path:     "/teapot",
			wantCode: CodeInvalidRequest,
			wantMsg:  host + " returned HTTP 418 Short And Stout.",
			wantData: map[string]any{"status": 418, "statusText": "Short And Stout", "body": ""},
		},
		{
			name:     "body read error omits the body",
			path:     "/truncated",
			wantCode: CodeServiceUnavailable,
			wantMsg:  host + " returned HTTP 503 Service Unavailable.",
			wantData: map[string]any{"status": 503, "statusText": "Service Unavailable"},
		},
		{
			name:     "success status has no code",
			path:     "/status/200",
			wantCode: CodeInternalError,
			wantMsg:  host + " returned HTTP 200 OK.",
			wantData: map[string]any{"status": 200, "statusText": "OK", "body": ""},
		},
		{
			name: "code override",
			path: "/status/404",
			opts: []ResponseOption{WithCodeOverride(func(status int) (Code, bool) {
				return CodeInvalidParams, status == 404
			})},
			wantCode: CodeInvalidParams,
			wantMsg:  host + " returned HTTP 404 Not Found.",
			wantData: map[string]any{"status": 404, "statusText": "Not Found", "body": ""},
		},
		{
			name: "code override falls through",
			path: "/status/409",
			opts: []ResponseOption{WithCodeOverride(func(status int) (Code, bool) {
				return CodeInvalidParams, status == 404
			})},
			wantCode: CodeConflict,
			wantMsg:  host + " returned HTTP 409 Conflict.",
			wantData: map[string]any{"status": 409, "statusText": "Conflict", "body": ""},
		},
		{
			name: "WithData adds and overrides, auth is dropped",
			path: "/slow",
			opts: []ResponseOption{
				WithService("NCBI"),
				WithData(map[string]any{"reason": "ncbi_busy", "retryAfter": 5, "auth": "secret"}),
			},
			wantCode: CodeRateLimited,
			wantMsg:  "NCBI returned HTTP 429 Too Many Requests.",
			wantData: map[string]any{"status": 429, "statusText": "Too Many Requests", "body": "slow down", "retryAfter": 5, "reason": "ncbi_busy"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := FromResponse(get(t, srv, tt.path), tt.opts...)
			if e.Code() != tt.wantCode {
				t.Errorf("code = %v, want %v", e.Code(), tt.wantCode)
			}
			if e.Message() != tt.wantMsg {
				t.Errorf("message = %q, want %q", e.Message(), tt.wantMsg)
			}
			data := e.Data()
			wantURL := srv.URL + tt.path
			if data["url"] != wantURL {
				t.Errorf("data.url = %v, want %q", data["url"], wantURL)
			}
			data = without(data, "url")
			if !reflect.DeepEqual(data, tt.wantData) {
				t.Errorf("data = %#v\nwant %#v", data, tt.wantData)
			}
			if e.Cause() != nil {
				t.Errorf("cause = %v, want none", e.Cause())
			}
		})
	}
}

// without returns a copy of m without key.
func without(m map[string]any, key string) map[string]any {
	c := make(map[string]any, len(m))
	for k, v := range m {
		if k != key {
			c[k] = v
		}
	}
	return c
}

func TestFromResponseCause(t *testing.T) {
	srv := newUpstream(t)
	sentinel := errors.New("fetching article 7")
	e := FromResponse(get(t, srv, "/status/503"), WithCause(sentinel), WithService("catalog"))
	if !errors.Is(e, sentinel) || e.Cause() != sentinel {
		t.Errorf("cause = %v, want %v", e.Cause(), sentinel)
	}
	if e.Message() != "catalog returned HTTP 503 Service Unavailable." {
		t.Errorf("message = %q", e.Message())
	}
}

func TestFromResponseURLRedaction(t *testing.T) {
	srv := newUpstream(t)
	u, _ := url.Parse(srv.URL)
	u.User = url.UserPassword("ann", "hunter2")
	u.Path = "/status/401"
	u.RawQuery = "q=cats&api_key=K3Y&access_token=T0K&page=2&flag"
	u.Fragment = "top"
	resp, err := srv.Client().Get(u.String())
	if err != nil {
		t.Fatal(err)
	}
	e := FromResponse(resp)
	want := srv.URL + "/status/401?q=cats&api_key=[REDACTED]&access_token=[REDACTED]&page=2&flag"
	if got := e.Data()["url"]; got != want {
		t.Errorf("data.url = %v\nwant %v", got, want)
	}
	if strings.Contains(fmt.Sprint(e.Data()), "hunter2") || strings.Contains(e.Message(), "hunter2") {
		t.Error("password leaked")
	}
	if e.Code() != CodeUnauthorized {
		t.Errorf("code = %v", e.Code())
	}
}

// countingBody is an endless body that counts what is read from it and
// whether it was closed.
type countingBody struct {
	read   int
	closed bool
	err    error // returned after the first read when set
}

func (b *countingBody) Read(p []byte) (int, error) {
	if b.err != nil && b.read > 0 {
		return 0, b.err
	}
	for i := range p {
		p[i] = 'z'
	}
	b.read += len(p)
	return len(p), nil
}

func (b *countingBody) Close() error { b.closed = true; return nil }

func TestFromResponseReadsBoundedAndCloses(t *testing.T) {
	for _, limit := range []int{0, 1, 10, 500, 4096} {
		body := &countingBody{}
		resp := &http.Response{StatusCode: 502, Body: body}
		e := FromResponse(resp, WithBodyLimit(limit))
		if body.read > limit+bodyLookahead {
			t.Errorf("limit %d: read %d bytes, want at most %d", limit, body.read, limit+bodyLookahead)
		}
		if !body.closed {
			t.Errorf("limit %d: body not closed", limit)
		}
		got, ok := e.Data()["body"]
		if limit == 0 {
			if ok {
				t.Errorf("limit 0: body = %q, want no body key", got)
			}
			continue
		}
		if want := strings.Repeat("z", limit) + "…"; got != want {
			t.Errorf("limit %d: body = %q, want %q", limit, got, want)
		}
	}
}

func TestFromResponseReadError(t *testing.T) {
	body := &countingBody{err: errors.New("connection reset")}
	e := FromResponse(&http.Response{StatusCode: 503, Body: body}, WithBodyLimit(1<<20))
	if _, ok := e.Data()["body"]; ok {
		t.Errorf("body = %q, want none after a read error", e.Data()["body"])
	}
	if !body.closed {
		t.Error("body not closed")
	}
}

func TestFromResponseHandBuilt(t *testing.T) {
	tests := []struct {
		name     string
		resp     *http.Response
		opts     []ResponseOption
		wantCode Code
		wantMsg  string
		wantData map[string]any
	}{
		{
			name:     "no request, no status text: standard text",
			resp:     &http.Response{StatusCode: 500},
			wantCode: CodeInternalError,
			wantMsg:  "Upstream returned HTTP 500 Internal Server Error.",
			wantData: map[string]any{"status": 500, "statusText": "Internal Server Error"},
		},
		{
			name:     "unknown status, no text at all",
			resp:     &http.Response{StatusCode: 598, Status: "598"},
			wantCode: CodeServiceUnavailable,
			wantMsg:  "Upstream returned HTTP 598.",
			wantData: map[string]any{"status": 598},
		},
		{
			name:     "status without a number",
			resp:     &http.Response{StatusCode: 429, Status: "Slow Down"},
			wantCode: CodeRateLimited,
			wantMsg:  "Upstream returned HTTP 429 Slow Down.",
			wantData: map[string]any{"status": 429, "statusText": "Slow Down"},
		},
		{
			name:     "redirect status",
			resp:     &http.Response{StatusCode: 302, Status: "302 Found", Request: &http.Request{URL: &url.URL{Scheme: "https", Host: "api.example.com:8443", Path: "/x"}}},
			wantCode: CodeInternalError,
			wantMsg:  "api.example.com:8443 returned HTTP 302 Found.",
			wantData: map[string]any{"status": 302, "statusText": "Found", "url": "https://api.example.com:8443/x"},
		},
		{
			name:     "request without URL",
			resp:     &http.Response{StatusCode: 404, Request: &http.Request{}},
			wantCode: CodeNotFound,
			wantMsg:  "Upstream returned HTTP 404 Not Found.",
			wantData: map[string]any{"status": 404, "statusText": "Not Found"},
		},
		{
			name:     "nil response",
			resp:     nil,
			wantCode: CodeInternalError,
			wantMsg:  "Upstream returned no HTTP response.",
		},
		{
			name:     "nil response, service",
			resp:     nil,
			opts:     []ResponseOption{WithService("NCBI"), WithData(map[string]any{"k": 1})},
			wantCode: CodeInternalError,
			wantMsg:  "NCBI returned no HTTP response.",
			wantData: map[string]any{"k": 1},
		},
		{
			name:     "nil options are ignored",
			resp:     &http.Response{StatusCode: 403},
			opts:     []ResponseOption{nil, Option(nil)},
			wantCode: CodeForbidden,
			wantMsg:  "Upstream returned HTTP 403 Forbidden.",
			wantData: map[string]any{"status": 403, "statusText": "Forbidden"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := FromResponse(tt.resp, tt.opts...)
			if e.Code() != tt.wantCode || e.Message() != tt.wantMsg {
				t.Errorf("got %v %q, want %v %q", e.Code(), e.Message(), tt.wantCode, tt.wantMsg)
			}
			if !reflect.DeepEqual(e.Data(), tt.wantData) {
				t.Errorf("data = %#v, want %#v", e.Data(), tt.wantData)
			}
		})
	}
}

func TestReadBodyHead(t *testing.T) {
	tests := []struct {
		body  string
		limit int
		want  string
	}{
		{"", 5, ""},
		{"abc", 5, "abc"},
		{"abcde", 5, "abcde"},
		{"abcdef", 5, "abcde…"},
		// é is 2 bytes, € 3, 😀 4: a cut inside one drops the whole rune.
		{"abcdé", 5, "abcd…"},
		{"abcdé", 6, "abcdé"},
		{"ab€", 3, "ab…"},
		{"ab€", 4, "ab…"},
		{"ab€x", 5, "ab€…"},
		{"a😀b", 2, "a…"},
		{"a😀b", 3, "a…"},
		{"a😀b", 4, "a…"},
		{"a😀b", 5, "a😀…"},
		{"😀😀", 1, "…"},
		// Not UTF-8: cut at the limit.
		{"\x80\x80\x80\x80\x80\x80", 4, "\x80\x80\x80\x80…"},
	}
	for _, tt := range tests {
		got, ok := readBodyHead(strings.NewReader(tt.body), tt.limit)
		if !ok || got != tt.want {
			t.Errorf("readBodyHead(%q, %d) = %q, %v; want %q", tt.body, tt.limit, got, ok, tt.want)
		}
		if utf8.ValidString(tt.body) && !utf8.ValidString(got) {
			t.Errorf("readBodyHead(%q, %d) = %q splits a rune", tt.body, tt.limit, got)
		}
	}
}

// FuzzReadBodyHead: the excerpt is bounded, never splits a rune of valid
// text, is the head of the redacted body, and is the plain head of the body
// when there is nothing to redact.
func FuzzReadBodyHead(f *testing.F) {
	f.Add("abcdé", 5)
	f.Add("a😀b", 3)
	f.Add("", 0)
	f.Add("\xf0\x9f\x98", 2)
	f.Add(`{"token":"abc"}`, 12)
	f.Add("Bearer abcdefghijkl", 10)
	f.Fuzz(func(t *testing.T, body string, limit int) {
		limit %= 64
		got, ok := readBodyHead(strings.NewReader(body), limit)
		if limit <= 0 {
			if ok {
				t.Fatalf("limit %d captured %q", limit, got)
			}
			return
		}
		if !ok {
			t.Fatal("read failed")
		}
		read := body[:min(len(body), limit+bodyLookahead)]
		redacted := redactBody([]byte(read))
		if len(read) <= limit && len(redacted) <= limit {
			if got != redacted {
				t.Fatalf("short body %q: got %q, want %q", body, got, redacted)
			}
			return
		}
		head, found := strings.CutSuffix(got, "…")
		if !found {
			t.Fatalf("long body %q not marked: %q", body, got)
		}
		if len(head) > limit || !strings.HasPrefix(redacted, head) {
			t.Fatalf("readBodyHead(%q, %d) = %q, not a head of %q", body, limit, got, redacted)
		}
		if redacted == read && len(head) < limit-(utf8.UTFMax-1) && !strings.Contains(read, "[REDACTED]") {
			t.Fatalf("readBodyHead(%q, %d) = %q cut too short", body, limit, got)
		}
		if utf8.ValidString(body) && !utf8.ValidString(head) {
			t.Fatalf("readBodyHead(%q, %d) = %q splits a rune", body, limit, got)
		}
	})
}

func TestFromResponseRetryAfterIsSeconds(t *testing.T) {
	later := time.Now().Add(90 * time.Second).UTC().Format(http.TimeFormat)
	for header, want := range map[string]any{
		"30":                            int64(30),
		"0":                             int64(0),
		later:                           int64(90),
		"Wed, 21 Oct 2015 07:28:00 GMT": int64(0), // past
		"soon":                          nil,      // unreadable: left out
	} {
		resp := &http.Response{StatusCode: 429, Status: "429 Too Many Requests", Header: http.Header{"Retry-After": {header}},
			Request: &http.Request{URL: &url.URL{Scheme: "https", Host: "api.example"}}}
		got := FromResponse(resp).Data()["retryAfter"]
		if n, ok := got.(int64); ok && header == later && (n < 88 || n > 90) {
			t.Errorf("Retry-After %q: retryAfter = %v, want about 90", header, got)
		} else if header != later && got != want {
			t.Errorf("Retry-After %q: retryAfter = %#v, want %#v", header, got, want)
		}
	}
}
