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
	if at := strings.LastIndexByte(host, '@'); at >= 0 {
		host = host[at+1:]
	}
	if c := strings.LastIndexByte(host, ':'); c >= 0 {
		host = host[:c] // the port
	}
	for _, w := range webhooks {
		if len(host) < len(w.host) || len(host) > len(w.host) && w.host[0] != '.' ||
			!strings.EqualFold(host[len(host)-len(w.host):], w.host) {
			continue
		}
		if len(path) > len(w.after) && strings.EqualFold(path[:len(w.after)], w.after) {
			if w.after == "/bot" {
				// api.telegram.org/bot<token>/getMe: the token, not the
				// method.
				if e := strings.IndexByte(path[len(w.after):], '/'); e >= 0 {
					return p + len(w.after), p + len(w.after) + e, true
				}
			}
			return p + len(w.after), end, true
		}
	}
	if !strings.Contains(path, "/with/key/") && !strings.Contains(path[:min(len(path), maxHookSegment)], "hook") {
		return 0, 0, false // the common case: no webhook
	}
	if k := strings.Index(path, "/with/key/"); k >= 0 && len(path) > k+len("/with/key/") {
		if e := strings.IndexByte(path[k+len("/with/key/"):], '/'); e >= 0 {
			return p + k + len("/with/key/"), p + k + len("/with/key/") + e, true
		}
		return p + k + len("/with/key/"), end, true
	}
	head := path[:min(len(path), maxHookSegment)]
	for _, seg := range []string{"/hooks/", "/webhooks/", "/webhook/"} {
		k := strings.Index(head, seg)
		if k < 0 {
			continue
		}
		for rest := path[k+len(seg):]; rest != ""; {
			part, more, _ := strings.Cut(rest, "/")
			if tokenLike(part) {
				return p + k + len(seg), end, true
			}
			rest = more
		}
	}
	return 0, 0, false
}
