package mcperr_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/seed417024ea/mcpcore/mcperr"
)

func ExampleFromResponse() {
	// An upstream that is rate limiting us.
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "30")
		w.WriteHeader(http.StatusTooManyRequests)
		io.WriteString(w, "slow down")
	}))
	defer upstream.Close()

	resp, err := http.Get(upstream.URL + "/esearch?term=cats&api_key=SECRET")
	if err != nil {
		fmt.Println(err)
		return
	}
	if resp.StatusCode != http.StatusOK {
		e := mcperr.FromResponse(resp, mcperr.WithService("NCBI"),
			mcperr.WithData(map[string]any{"reason": "ncbi_busy"}))
		fmt.Println(e.Code(), e.Message())

		data := e.Data()
		fmt.Println(data["status"], data["statusText"], data["body"], data["retryAfter"], data["reason"])
		fmt.Println(data["url"] == upstream.URL+"/esearch?term=cats&api_key=[REDACTED]")
		return
	}
	defer resp.Body.Close()
	// … use the response …

	// Output:
	// RateLimited NCBI returned HTTP 429 Too Many Requests.
	// 429 Too Many Requests slow down 30 ncbi_busy
	// true
}

func ExampleFromResponse_options() {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"esearchresult":{"count":"0"}}`)
	}))
	defer upstream.Close()

	resp, err := http.Get(upstream.URL)
	if err != nil {
		fmt.Println(err)
		return
	}
	// This upstream answers an empty search with 404: not a missing entity
	// but a query the caller should change. Keep its body out of the error.
	e := mcperr.FromResponse(resp,
		mcperr.WithService("search"),
		mcperr.WithoutBody(),
		mcperr.WithCodeOverride(func(status int) (mcperr.Code, bool) {
			return mcperr.CodeInvalidParams, status == http.StatusNotFound
		}))
	_, hasBody := e.Data()["body"]
	fmt.Println(e.Code(), e.Message(), hasBody)
	// Output:
	// InvalidParams search returned HTTP 404 Not Found. false
}

func ExampleCodeForHTTPStatus() {
	for _, status := range []int{200, 400, 404, 410, 429, 500, 503, 504} {
		code, ok := mcperr.CodeForHTTPStatus(status)
		fmt.Println(status, code, ok)
	}
	// Output:
	// 200 0 false
	// 400 InvalidParams true
	// 404 NotFound true
	// 410 InvalidRequest true
	// 429 RateLimited true
	// 500 InternalError true
	// 503 ServiceUnavailable true
	// 504 Timeout true
}

func ExampleHTTPStatus() {
	for _, code := range []mcperr.Code{mcperr.CodeValidationError, mcperr.CodeRateLimited, mcperr.CodeDatabaseError} {
		fmt.Println(code, mcperr.HTTPStatus(code))
	}
	// Output:
	// ValidationError 400
	// RateLimited 429
	// DatabaseError 500
}

func ExampleFromResponse_redactedBody() {
	// An OAuth server that refuses a grant yet echoes a token in its body.
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `{"error":"invalid_grant","access_token":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbm4ifQ.c2ln","expires_in":3600}`)
	}))
	defer upstream.Close()

	resp, err := http.Get(upstream.URL + "/token")
	if err != nil {
		fmt.Println(err)
		return
	}
	e := mcperr.FromResponse(resp, mcperr.WithService("auth"))
	fmt.Println(e.Code(), e.Message())
	fmt.Println(e.Data()["body"])
	// Output:
	// Unauthorized auth returned HTTP 401 Unauthorized.
	// {"access_token":"[REDACTED]","error":"invalid_grant","expires_in":3600}
}
