package redact

import "strings"

// A webhook is a service whose webhook URLs hold their secret in the path:
// whoever has the URL can post. host matches the host or, when it starts
// with a dot, any host under it; after is the part of the path that comes
// before the secret.
type webhook struct {
	host, after string
}

// maxWebhookPath bounds the part of a URL's path looked at for a webhook's
// secret, and maxHookSegment where a /hooks/ segment is looked for: webhook
// URLs are short, and name their hook early.
const (
	maxWebhookPath = 256
	maxHookSegment = 64
)

var webhooks = []webhook{
	{"hooks.slack.com", "/services/"}, {"hooks.slack.com", "/workflows/"}, {"hooks.slack.com", "/triggers/"},
	{"discord.com", "/api/webhooks/"}, {"discordapp.com", "/api/webhooks/"},
	{".discord.com", "/api/webhooks/"}, {".discordapp.com", "/api/webhooks/"},
	{".webhook.office.com", "/webhookb2/"}, {"outlook.office.com", "/webhook/"},
	{"outlook.office365.com", "/webhook/"},
	{"hooks.zapier.com", "/hooks/catch/"},
	{"api.telegram.org", "/bot"},
}

// webhookSecret returns the bounds of the secret part of the path
// s[p:end] of a URL on host: the path after a known service's prefix, the
// segment after /with/key/ (IFTTT), or, on any host, the rest of the path
// after a /hooks/, /webhooks/ or /webhook/ segment (within its first
// maxHookSegment bytes) when it holds a token-like segment. ok is false
// when the path holds none. It looks at no
// more than the first maxWebhookPath bytes of the path, so that each URL
// costs a bounded amount however long its path, but a secret runs to the
// path's end.
func webhookSecret(s, host string, p, end int) (start, stop int, ok bool) {
	path := s[p:min(end, p+maxWebhookPath)]
	if start, stop, ok := knownWebhookSecret(bareHost(host), path, p, end); ok {
		return start, stop, true
	}
	head := path[:min(len(path), maxHookSegment)]
	if !strings.Contains(path, iftttKey) && !strings.Contains(head, "hook") {
		return 0, 0, false // the common case: no webhook
	}
	if start, stop, ok := iftttSecret(path, p, end); ok {
		return start, stop, true
	}
	return hookSegmentSecret(path, head, p, end)
}

// bareHost returns host without the user information and the port.
func bareHost(host string) string {
	if at := strings.LastIndexByte(host, '@'); at >= 0 {
		host = host[at+1:]
	}
	if c := strings.LastIndexByte(host, ':'); c >= 0 {
		host = host[:c]
	}
	return host
}

// knownWebhookSecret returns the bounds of the secret in the path of a
// known service's webhook URL: the rest of the path after the service's
// prefix, but the token alone in api.telegram.org/bot<token>/getMe.
func knownWebhookSecret(host, path string, p, end int) (start, stop int, ok bool) {
	for _, w := range webhooks {
		// The host is w's, or one under it when w's starts with a dot.
		if len(host) < len(w.host) || len(host) > len(w.host) && w.host[0] != '.' ||
			!strings.EqualFold(host[len(host)-len(w.host):], w.host) {
			continue
		}
		if len(path) <= len(w.after) || !strings.EqualFold(path[:len(w.after)], w.after) {
			continue
		}
		start = p + len(w.after)
		if w.after == "/bot" {
			if e := strings.IndexByte(path[len(w.after):], '/'); e >= 0 {
				return start, start + e, true
			}
		}
		return start, end, true
	}
	return 0, 0, false
}

// iftttKey precedes the key in the path of an IFTTT webhook URL.
const iftttKey = "/with/key/"

// iftttSecret returns the bounds of the key in the path of an IFTTT
// webhook URL: the segment after /with/key/.
func iftttSecret(path string, p, end int) (start, stop int, ok bool) {
	k := strings.Index(path, iftttKey)
	if k < 0 || len(path) <= k+len(iftttKey) {
		return 0, 0, false
	}
	start = p + k + len(iftttKey)
	if e := strings.IndexByte(path[k+len(iftttKey):], '/'); e >= 0 {
		return start, start + e, true
	}
	return start, end, true
}

// hookSegmentSecret returns the bounds of the rest of the path after a
// /hooks/, /webhooks/ or /webhook/ segment in head, the path's first
// bytes, when a segment of that rest is token-like.
func hookSegmentSecret(path, head string, p, end int) (start, stop int, ok bool) {
	for _, seg := range []string{"/hooks/", "/webhooks/", "/webhook/"} {
		if k := strings.Index(head, seg); k >= 0 && tokenLikeSegment(path[k+len(seg):]) {
			return p + k + len(seg), end, true
		}
	}
	return 0, 0, false
}

// tokenLikeSegment reports whether a segment of the path rest is
// token-like.
func tokenLikeSegment(rest string) bool {
	for rest != "" {
		part, more, _ := strings.Cut(rest, "/")
		if tokenLike(part) {
			return true
		}
		rest = more
	}
	return false
}
