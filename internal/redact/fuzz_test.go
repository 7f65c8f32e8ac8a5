package redact

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

// plantShapes put a secret into text in each form String promises to
// catch. Each returns the text; the secret is what must not survive. The
// list ends with every sensitive key of plantKeys in every form of
// keyForms.
var plantShapes = append([]func(secret string) string{
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

	// Issue 18: a bare key, presigned URLs.
	func(s string) string { return "GET /v1/items?key=" + s + "&q=1" },
	func(s string) string { return "https://maps.example.com/api?q=x&key=" + s },
	func(s string) string {
		return "https://b.s3.amazonaws.com/o?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=" + s +
			"%2F20260101%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Expires=900&X-Amz-SignedHeaders=host&X-Amz-Signature=" + s
	},
	func(s string) string {
		return "https://b.s3.amazonaws.com/o?X-Amz-Security-Token=" + s + "&X-Amz-Date=20260101T000000Z"
	},
	func(s string) string {
		return "https://a.blob.core.windows.net/c/b?sv=2022-11-02&sp=r&sig=" + s + "%3D"
	},
	func(s string) string {
		return `fetch "https://storage.googleapis.com/b/o?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Signature=` + s + `": 403`
	},
	func(s string) string { return "Signature=" + s + "&SignatureVersion=2" },

	// Issue 18: PEM private keys, raw, escaped in JSON text, and cut.
	func(s string) string {
		return "-----BEGIN RSA PRIVATE KEY-----\nMIIEow" + s + "\n" + s + "AB==\n-----END RSA PRIVATE KEY-----"
	},
	func(s string) string {
		return `{"pem":"-----BEGIN PRIVATE KEY-----\nMIIEv` + s + `\n-----END PRIVATE KEY-----\n","n":1}`
	},
	func(s string) string {
		return "key file: -----BEGIN EC PRIVATE KEY-----\r\n" + s + "\r\n-----END EC PRIVATE KEY-----\r\n"
	},
	func(s string) string {
		return "-----BEGIN ENCRYPTED PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC," + s + "\n\n" + s + "\n-----END ENCRYPTED PRIVATE KEY-----"
	},
	func(s string) string { return "read -----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk" + s },
	func(s string) string { return `"-----BEGIN PRIVATE KEY-----\nMII` + s },
	func(s string) string {
		return "private_key: -----BEGIN PRIVATE KEY-----\n" + s + "\n-----END PRIVATE KEY-----"
	},

	// Issue 18: the later words of a spaced value.
	func(s string) string { return "password = correct " + s + " battery" },
	func(s string) string { return "login password: horse " + s },
	func(s string) string { return "passphrase: correct horse " + s + " staple, retrying" },
	func(s string) string { return "X-Api-Key: abc " + s + "\r\nAccept: */*" },
	func(s string) string { return `{"msg":"token: two ` + s + `\nnext line"}` },
	func(s string) string { return "password = correct " + s + ": connection refused" },

	// Issue 35: cookies, XML, YAML, Digest, webhooks, prose, Unicode.
	func(s string) string { return "Cookie: theme=dark; sid=" + s + "; lang=en" },
	func(s string) string { return "Set-Cookie: session=" + s + "; Path=/; HttpOnly" },
	func(s string) string { return "<Auth><Password>" + s + "</Password></Auth>" },
	func(s string) string { return `<ns:token type="bearer">` + s + "</ns:token>" },
	func(s string) string { return "db:\n  password:\n    " + s + "\n  user: ann" },
	func(s string) string { return "api_key: |\n  " + s + "\n" },
	func(s string) string {
		return `Authorization: Digest username="ann", nonce="abc", response="` + s + `"`
	},
	func(s string) string { return "POST https://hooks.slack.com/services/T0A/B0B/" + s + ": 404" },
	func(s string) string { return "https://chat.example.com/hooks/" + s },
	func(s string) string { return "the password is " + s + ", retry" },
	func(s string) string { return "login with password " + s + " failed" },
	func(s string) string { return "password:\u2003" + s },
	func(s string) string { return "Ｐａｓｓｗｏｒｄ＝" + s },
	func(s string) string { return `{"password":["too short",` + `"` + s + `"]}` },
	func(s string) string { return "Invalid password: it must have 8 characters and not " + s + ", retry" },
}, keyShapes()...)

// plantKeys are sensitive keys, old and new, that keyForms puts before a
// secret; Tree, Copy and the Handler are also given them as map keys and
// attribute names.
var plantKeys = []string{
	"password", "api_key", "token", "secret",
	"key", "KEY", "x-api-key", "X-Api-Key", "api-key", "myApiKey", "apiKeyId", "AWSAccessKeyId",
	"passwd", "pwd", "pass", "db_pass", "passphrase",
	"sig", "signature", "X-Amz-Signature", "X-Amz-Credential", "X-Amz-Security-Token", "X-Goog-Signature",
	"access_tokens",
}

// keyForms write a key and its value in text.
var keyForms = []func(k, s string) string{
	func(k, s string) string { return k + "=" + s },
	func(k, s string) string { return k + ": " + s },
	func(k, s string) string { return k + " = " + s + " and more" },
	func(k, s string) string { return `{"` + k + `": "` + s + `"}` },
	func(k, s string) string { return "https://h/p?q=1&" + k + "=" + s + "&n=2" },
}

// keyShapes is every key of plantKeys in every form of keyForms.
func keyShapes() []func(string) string {
	var shapes []func(string) string
	for _, k := range plantKeys {
		for _, form := range keyForms {
			shapes = append(shapes, func(s string) string { return form(k, s) })
		}
	}
	return shapes
}

// plantedSecrets are credentials as a generator of random keys makes
// them: letters and digits, 16 to 40 long, with a digit and a capital. The
// fuzz targets vary what surrounds a secret, not the secret: whether a
// word is random enough to be one is the corpus's and the shape tests'
// to pin, and fuzz bytes made into a word would test that boundary by
// chance.
var plantedSecrets = []string{
	"Q7zXemt29GPWdksz",
	"CBFPQipBmNwsvkcQeoT4",
	"8Az4LvdXTKPzXGFaGY7YpS4C",
	"xfkHaFmU6rq98ZnNwECtQ2UF7Q8GaTfr",
	"6ZLZYPtTvusEprLkxRLfaTrvmQuW622DQ5C4WbTE",
}

// plantSecret picks the planted secret for fuzz bytes.
func plantSecret(b string) string {
	n := 0
	for i := 0; i < len(b); i++ {
		n += int(b[i])
	}
	return plantedSecrets[n%len(plantedSecrets)]
}

// survives reports where the secret s survives text, and k, the sensitive
// key it is given under: String, Tree, Copy and a log record through
// Handler, as message, attribute and nested value. It returns "" when the
// secret survives nowhere.
func survives(text, key, s string) string {
	if out := scrub(text, false); strings.Contains(out, s) {
		return "String: " + out
	}
	tree := func() map[string]any {
		return map[string]any{"note": text, "list": []any{text, map[string]any{key: s, "deep": text}}, key: s}
	}
	for name, out := range map[string]any{"Tree": Tree(tree()), "Copy": Copy(tree())} {
		if str := fmt.Sprint(out); strings.Contains(str, s) {
			return name + ": " + str
		}
	}
	var buf bytes.Buffer
	logger := slog.New(Handler(slog.NewJSONHandler(&buf, nil)))
	logger.Info(text, "detail", text, key, s, slog.Group("g", "note", text, key, s), "m", tree(),
		"err", fmt.Errorf("call: %s", text))
	logger.WithGroup(key).Info("in a group", "v", s)
	if strings.Contains(buf.String(), s) {
		return "Handler: " + buf.String()
	}
	return ""
}

// Every shape, alone, in a sentence and JSON-encoded in a string, loses
// its secret on every surface.
func TestPlantedSecrets(t *testing.T) {
	for _, secret := range append([]string{"Q7abcdefghjkmnpq"}, plantedSecrets...) {
		for i, shape := range plantShapes {
			text := shape(secret)
			quoted, _ := json.Marshal(text)
			for _, in := range []string{text, "error: " + text + " (retrying)", string(quoted)} {
				if where := survives(in, plantKeys[i%len(plantKeys)], secret); where != "" {
					t.Errorf("shape %d: secret %q survived %q in %s", i, secret, in, where)
				}
				if once := String(in); String(once) != once {
					t.Errorf("shape %d: not idempotent on %q: %q", i, in, once)
				}
			}
		}
	}
}

// FuzzString: String never panics, is idempotent on any text, and whatever
// surrounds a planted secret, the secret does not survive String, Tree,
// Copy or the Handler.
func FuzzString(f *testing.F) {
	f.Add("", "x", "", uint8(0))
	f.Add("connect: ", "hunter2", " failed", uint8(1))
	f.Add(`{"a":"`, "s", `"}`, uint8(4))
	f.Add("https://u:p@h/?token=", "t", "&x=1", uint8(9))
	f.Add("Bearer ", "x", "", uint8(12))
	f.Add("password=[", "y", "]token:", uint8(6))
	f.Add(`\"`, "z", `{"`, uint8(15))
	f.Add("password: a", "b", "-----END PRIVATE KEY-----", uint8(27))
	f.Add("-----BEGIN RSA PRIVATE KEY-----", "c", `\n`, uint8(33))
	f.Add("key = ", "d", " user=ann", uint8(40))
	f.Fuzz(func(t *testing.T, prefix, secret, suffix string, shape uint8) {
		for _, in := range []string{prefix + suffix, prefix + secret + suffix} {
			once := scrub(in, false)
			if twice := scrub(once, false); twice != once {
				t.Fatalf("not idempotent:\n in    %q\n once  %q\n twice %q", in, once, twice)
			}
		}
		s := plantSecret(secret)
		text := prefix + "\n" + plantShapes[int(shape)%len(plantShapes)](s) + "\n" + suffix
		if where := survives(text, plantKeys[int(shape)%len(plantKeys)], s); where != "" {
			t.Fatalf("secret %q survived:\n in  %q\n in %s", s, text, where)
		}
		out := scrub(text, false)
		if twice := scrub(out, false); twice != out {
			t.Fatalf("not idempotent:\n in    %q\n once  %q\n twice %q", text, out, twice)
		}
	})
}
