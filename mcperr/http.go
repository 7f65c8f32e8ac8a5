package mcperr

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/seed417024ea/mcpcore/internal/redact"
)

// CodeForHTTPStatus returns the code for an HTTP response status. It reports
// false for a status below 400, which is not a failure.
//
//	400                InvalidParams
//	401                Unauthorized
//	402, 403           Forbidden
//	404                NotFound
//	408, 425           Timeout
//	409, 423, 424      Conflict
//	422                ValidationError
//	429                RateLimited
//	other 4xx          InvalidRequest
//	500, 501           InternalError
//	502, 503           ServiceUnavailable
//	504                Timeout
//	other 5xx or more  ServiceUnavailable
//
// Note that 500 and 501 are InternalError here (the upstream failed in a way
// retrying will not fix), whereas an error whose message merely says "status
// code 500" classifies as ServiceUnavailable.
func CodeForHTTPStatus(status int) (Code, bool) {
	switch {
	case status < 400:
		return 0, false
	case status == http.StatusBadRequest:
		return CodeInvalidParams, true
	case status == http.StatusUnauthorized:
		return CodeUnauthorized, true
	case status == http.StatusPaymentRequired, status == http.StatusForbidden:
		return CodeForbidden, true
	case status == http.StatusNotFound:
		return CodeNotFound, true
	case status == http.StatusRequestTimeout, status == http.StatusTooEarly:
		return CodeTimeout, true
	case status == http.StatusConflict, status == http.StatusLocked, status == http.StatusFailedDependency:
		return CodeConflict, true
	case status == http.StatusUnprocessableEntity:
		return CodeValidationError, true
	case status == http.StatusTooManyRequests:
		return CodeRateLimited, true
	case status < 500:
		return CodeInvalidRequest, true
	case status == http.StatusInternalServerError, status == http.StatusNotImplemented:
		return CodeInternalError, true
	case status == http.StatusGatewayTimeout:
		return CodeTimeout, true
	default: // 502, 503 and every other status from 500 up
		return CodeServiceUnavailable, true
	}
}

// HTTPStatus returns the HTTP status with which a failure of this code is
// answered when it escapes to an HTTP transport:
//
//	InvalidParams, ValidationError, InvalidRequest  400
//	MissingClientCapability                         400
//	Unauthorized                                    401
//	Forbidden                                       403
//	NotFound                                        404
//	Conflict                                        409
//	RateLimited                                     429
//	ServiceUnavailable                              503
//	Timeout                                         504
//	any other code                                  500
//
// It is not the inverse of [CodeForHTTPStatus]: several statuses share a code.
func HTTPStatus(code Code) int {
	switch code {
	case CodeInvalidParams, CodeValidationError, CodeInvalidRequest, CodeMissingClientCapability:
		return http.StatusBadRequest
	case CodeUnauthorized:
		return http.StatusUnauthorized
	case CodeForbidden:
		return http.StatusForbidden
	case CodeNotFound:
		return http.StatusNotFound
	case CodeConflict:
		return http.StatusConflict
	case CodeRateLimited:
		return http.StatusTooManyRequests
	case CodeServiceUnavailable:
		return http.StatusServiceUnavailable
	case CodeTimeout:
		return http.StatusGatewayTimeout
	}
	return http.StatusInternalServerError
}

// DefaultBodyLimit is how many bytes of an upstream response body
// [FromResponse] keeps in the error's data unless [WithBodyLimit] or
// [WithoutBody] says otherwise.
const DefaultBodyLimit = 500

// A ResponseOption adjusts how [FromResponse] builds its error.
//
// Besides the options below, every [Option] is a ResponseOption and applies
// to the error after FromResponse has filled it in: [WithData] adds keys and
// overrides the defaults, and [WithCause] records the error that led to the
// failed request.
type ResponseOption interface {
	applyResponse(*responseConfig)
}

// responseConfig collects the ResponseOptions of one FromResponse call.
type responseConfig struct {
	service   string
	bodyLimit int
	override  func(status int) (Code, bool)
	errOpts   []Option
}

// responseOptionFunc is a ResponseOption that sets part of the config.
type responseOptionFunc func(*responseConfig)

func (f responseOptionFunc) applyResponse(c *responseConfig) { f(c) }

// applyResponse makes every Option a ResponseOption: it is applied to the
// error FromResponse builds, after the defaults.
func (o Option) applyResponse(c *responseConfig) {
	if o != nil {
		c.errOpts = append(c.errOpts, o)
	}
}

// WithService names the upstream in the error message, "<name> returned HTTP
// …", instead of the request's host.
func WithService(name string) ResponseOption {
	return responseOptionFunc(func(c *responseConfig) { c.service = name })
}

// WithBodyLimit sets how many bytes of the response body are kept in the
// data's "body" key (default [DefaultBodyLimit]). The body is redacted
// before it is cut (see [FromResponse]); a longer one is then cut at that
// many bytes, or fewer so as not to split a UTF-8 sequence or a
// "[REDACTED]" marker, and marked with a trailing "…". A limit of 0 or less
// captures nothing: the data then has no "body" key, as with [WithoutBody].
func WithBodyLimit(n int) ResponseOption {
	return responseOptionFunc(func(c *responseConfig) { c.bodyLimit = max(n, 0) })
}

// WithoutBody keeps the response body out of the error: the data has no
// "body" key and the body is closed unread. Use it when the upstream may echo
// secrets or personal data back.
func WithoutBody() ResponseOption {
	return WithBodyLimit(0)
}

// WithCodeOverride lets the caller choose the code for a status: when f
// reports true its code wins, otherwise [CodeForHTTPStatus] decides. Use it
// for an upstream whose statuses mean something particular, such as a 404
// that is an empty search rather than a missing entity.
func WithCodeOverride(f func(status int) (Code, bool)) ResponseOption {
	return responseOptionFunc(func(c *responseConfig) { c.override = f })
}

// FromResponse returns the error for an upstream HTTP response that failed,
// typically one whose status is not 2xx. It reads a bounded head of the body
// and closes the body; the caller must not use the body afterwards.
//
// The code is the one [WithCodeOverride] gives, if any, else the one
// [CodeForHTTPStatus] gives, else InternalError (for a status below 400). The
// message is "<subject> returned HTTP <status> <status text>.", where the
// subject is the [WithService] name, else the host (with its port, if any)
// of the request URL, else "Upstream"; the status text comes from
// resp.Status, else [http.StatusText], and is left out when both are empty.
//
// The data has these keys, each only when known:
//
//	url         the request URL, without credentials, fragment or the
//	            values of secret query parameters
//	status      the status code (int)
//	statusText  the status text
//	body        the head of the body, redacted (see below, [WithBodyLimit]
//	            and [WithoutBody]); absent when capture is off or reading
//	            failed
//	retryAfter  the Retry-After header as a number of seconds (int64,
//	            rounded up; an HTTP date is converted, a date past is 0,
//	            an unreadable header is left out); [Retry] honours it
//
// and the keys of any [WithData] option, which win over these.
//
// At most limit+1024 bytes of the body are read, so a huge or endless body
// is never buffered. What was read is redacted before it is cut to the
// limit, so that a secret straddling the limit is recognised whole,
// because upstreams echo tokens back (an OAuth 401 with its access_token):
// a JSON body has the values of its sensitive keys replaced at any depth,
// its other strings scrubbed as [Scrub] does, and is re-encoded compactly
// if anything changed; any other body, JSON cut short by the limit
// included, is scrubbed as text. A nil resp yields an InternalError saying that the
// subject returned no response.
func FromResponse(resp *http.Response, opts ...ResponseOption) *Error {
	cfg := responseConfig{bodyLimit: DefaultBodyLimit}
	for _, opt := range opts {
		if opt != nil {
			opt.applyResponse(&cfg)
		}
	}
	subject := responseSubject(cfg.service, resp)
	if resp == nil {
		return New(CodeInternalError, subject+" returned no HTTP response.", cfg.errOpts...)
	}
	code := cfg.code(resp.StatusCode)
	text := statusText(resp)
	msg := subject + " returned HTTP " + strconv.Itoa(resp.StatusCode)
	if text != "" {
		msg += " " + text
	}
	msg += "."
	data := responseData(resp, text, cfg.bodyLimit)
	return New(code, msg, append([]Option{WithData(data)}, cfg.errOpts...)...)
}

// responseSubject returns who FromResponse's message says returned the
// response: the [WithService] name, else the host of the request URL, else
// "Upstream".
func responseSubject(service string, resp *http.Response) string {
	if service != "" {
		return service
	}
	if resp != nil && resp.Request != nil && resp.Request.URL != nil && resp.Request.URL.Host != "" {
		return resp.Request.URL.Host
	}
	return "Upstream"
}

// code returns the code of an upstream's HTTP status: the one the
// [WithCodeOverride] function chooses, else the one [CodeForHTTPStatus]
// gives, else [CodeInternalError].
func (cfg *responseConfig) code(status int) Code {
	if cfg.override != nil {
		if code, ok := cfg.override(status); ok {
			return code
		}
	}
	if code, ok := CodeForHTTPStatus(status); ok {
		return code
	}
	return CodeInternalError
}

// responseData returns the data FromResponse's error carries about resp,
// whose status text is text, each key only when known (see
// [FromResponse]); it reads at most limit+bodyLookahead bytes of the body,
// and closes it.
func responseData(resp *http.Response, text string, limit int) map[string]any {
	data := map[string]any{"status": resp.StatusCode}
	if resp.Request != nil && resp.Request.URL != nil {
		if u := redact.URL(resp.Request.URL); u != "" {
			data["url"] = u
		}
	}
	if text != "" {
		data["statusText"] = text
	}
	if resp.Body != nil {
		if body, ok := readBodyHead(resp.Body, limit); ok {
			data["body"] = body
		}
		resp.Body.Close()
	}
	if wait, ok := parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
		// Whole seconds, rounded up, whichever form the header took.
		data["retryAfter"] = int64(math.Ceil(wait.Seconds()))
	}
	return data
}

// statusText returns the reason phrase of resp: resp.Status without its
// leading status code, else the standard text for the code.
func statusText(resp *http.Response) string {
	s := strings.TrimSpace(resp.Status)
	num, rest, _ := strings.Cut(s, " ")
	if num != "" && strings.Trim(num, "0123456789") == "" {
		s = strings.TrimSpace(rest)
	}
	if s == "" {
		s = http.StatusText(resp.StatusCode)
	}
	return s
}

// bodyLookahead is how far past the limit FromResponse reads, so that a
// token straddling the limit is read whole and recognised by its shape
// before the cut; it also lets a JSON body a little over the limit parse.
const bodyLookahead = 1024

// readBodyHead reads at most limit+bodyLookahead bytes of body and returns
// the excerpt the client may see: what was read, redacted by redactBody,
// then cut to limit bytes by cutHead and marked with "…" when the body or
// the redacted text was longer. It reports false when limit is 0 or reading
// failed.
//
// Redaction comes first: a secret that straddles the limit is then still
// recognisable by its key or its shape, instead of leaving its head behind
// a cut that hid what made it a secret.
func readBodyHead(body io.Reader, limit int) (string, bool) {
	if limit <= 0 {
		return "", false
	}
	b, err := io.ReadAll(io.LimitReader(body, int64(limit)+bodyLookahead))
	if err != nil {
		return "", false
	}
	s := redactBody(b)
	if len(b) <= limit && len(s) <= limit {
		return s, true
	}
	return cutHead(s, limit) + "…", true
}

// redactBody returns an upstream body without its secrets. A JSON document
// has the values of its sensitive keys replaced at any depth and its strings
// scrubbed (redact.Tree), and is re-encoded compactly only when that changed
// something, so that a clean body keeps its bytes. Anything else, including
// JSON cut short by the limit, is scrubbed as text, whose JSON key form
// catches "access_token":"… in a cut body.
func redactBody(b []byte) string {
	if json.Valid(b) {
		if s, ok := redactJSON(b); ok {
			return s
		}
	}
	return redact.String(string(b))
}

// redactJSON redacts the JSON document b, reporting false if it cannot.
func redactJSON(b []byte) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber() // numbers stay exactly as sent
	var v any
	if dec.Decode(&v) != nil {
		return "", false
	}
	// Encoding sorts keys, so equal trees encode equally.
	before, err := encodeJSON(v)
	if err != nil {
		return "", false
	}
	after, err := encodeJSON(redact.Tree(v))
	if err != nil {
		return "", false
	}
	if after == before {
		return string(b), true
	}
	return after, true
}

// encodeJSON encodes v compactly, without escaping <, > and &: the text is
// read by people and models, not embedded in HTML.
func encodeJSON(v any) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(buf.String(), "\n"), nil
}

// cutHead returns s when it fits in limit bytes, else its first limit
// bytes, fewer rather than split a UTF-8 sequence or a redaction marker.
func cutHead(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	cut := limit
	// s[cut] is the first byte left out; while it continues a sequence that
	// began before cut, drop that sequence's leading bytes too.
	for i := 0; i < utf8.UTFMax-1 && cut > 0 && !utf8.RuneStart(s[cut]); i++ {
		cut--
	}
	if !utf8.RuneStart(s[cut]) {
		// Not UTF-8 text after all: cut at the limit.
		cut = limit
	}
	// A marker cut in two reads as damage, not as redaction: keep it whole
	// or leave it out.
	lo := max(0, cut-len(redact.Marker)+1)
	if i := strings.Index(s[lo:min(len(s), cut+len(redact.Marker)-1)], redact.Marker); i >= 0 {
		cut = lo + i
	}
	return s[:cut]
}
