package redact

import (
	"encoding/base64"
	"strings"
	"testing"
)

// plantShapes put a secret into text in each form String promises to
// catch. Each returns the text; the secret is what must not survive.
var plantShapes = []func(secret string) string{
	func(s string) string { return "password=" + s },
	func(s string) string { return "db password = " + s + ";" },
	func(s string) string { return "api_key: " + s },
	func(s string) string { return "apiKey:" + s + ",next" },
	func(s string) string { return `{"access_token":"` + s + `","n":1}` },
	func(s string) string { return `{"a":{"client_secret": "` + s + `"}}` },
	func(s string) string { return `"{\"token\":\"` + s + `\"}"` },
	func(s string) string { return "'password': '" + s + "'" },
	func(s string) string { return `Get "https://admin:` + s + `@api.example.com/v1": EOF` },
	func(s string) string { return "https://api.example.com/v1?q=cats&api_key=" + s + "&page=2" },
	func(s string) string { return "https://h/p?access%5Ftoken=" + s + "#x" },
	func(s string) string { return "redirect to https://h/cb#access_token=" + s + "&state=1" },
	func(s string) string { return "Authorization: Bearer " + s },
	func(s string) string { return "sent bearer " + s + " upstream" },
	func(s string) string { return "Basic " + base64.StdEncoding.EncodeToString([]byte("user:"+s)) },
	func(s string) string { return "key sk-" + s + " rejected" },
	func(s string) string { return "ghp_" + s },
	func(s string) string { return "token " + "xoxb-" + s },
	func(s string) string { return "eyJhbGciOiJIUzI1NiJ9.eyJ" + s + ".sig" + s },
	func(s string) string { return "cookie=" + s + "; Path=/" },
}

// plantSecret turns fuzz bytes into a secret that every shape can carry:
// letters and digits only, at least 16 long, with a digit and a capital.
func plantSecret(b string) string {
	const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789"
	out := []byte("Q7")
	for i := 0; i < len(b) && len(out) < 40; i++ {
		out = append(out, alphabet[int(b[i])%len(alphabet)])
	}
	for len(out) < 16 {
		out = append(out, alphabet[len(out)*7%len(alphabet)])
	}
	return string(out)
}

// FuzzString: String never panics, is idempotent on any text, and whatever
// surrounds a planted secret, the secret does not survive.
func FuzzString(f *testing.F) {
	f.Add("", "x", "", uint8(0))
	f.Add("connect: ", "hunter2", " failed", uint8(1))
	f.Add(`{"a":"`, "s", `"}`, uint8(4))
	f.Add("https://u:p@h/?token=", "t", "&x=1", uint8(9))
	f.Add("Bearer ", "x", "", uint8(12))
	f.Add("password=[", "y", "]token:", uint8(6))
	f.Add(`\"`, "z", `{"`, uint8(15))
	f.Fuzz(func(t *testing.T, prefix, secret, suffix string, shape uint8) {
		for _, in := range []string{prefix + suffix, prefix + secret + suffix} {
			once := scrub(in, false)
			if twice := scrub(once, false); twice != once {
				t.Fatalf("not idempotent:\n in    %q\n once  %q\n twice %q", in, once, twice)
			}
		}
		s := plantSecret(secret)
		text := prefix + "\n" + plantShapes[int(shape)%len(plantShapes)](s) + "\n" + suffix
		out := scrub(text, false)
		if strings.Contains(out, s) {
			t.Fatalf("secret %q survived:\n in  %q\n out %q", s, text, out)
		}
		if twice := scrub(out, false); twice != out {
			t.Fatalf("not idempotent:\n in    %q\n once  %q\n twice %q", text, out, twice)
		}
	})
}
