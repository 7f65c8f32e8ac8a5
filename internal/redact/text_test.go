package redact

import (
	"strings"
	"testing"
	"time"
)

func TestString(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		// (a) Sensitive keys, in every form.
		{"key=value", "connect: password=hunter2 failed", "connect: password=[REDACTED] failed"},
		{"key = value", "password = hunter2", "password = [REDACTED]"},
		{"key: value", "auth failed; api_key: K3Y; retry", "auth failed; api_key: [REDACTED]; retry"},
		{"key:value", "apiKey:K3Y,next", "apiKey:[REDACTED],next"},
		{"compound key", "session_token=abc&user=ann", "session_token=[REDACTED]&user=ann"},
		{"bracketed key", "user[password]=abc&x=1", "user[password]=[REDACTED]&x=1"},
		{"json string", `{"error":"denied","access_token":"abc"}`, `{"error":"denied","access_token":"[REDACTED]"}`},
		{"json string, spaced", `{"token" : "a b c"}`, `{"token" : "[REDACTED]"}`},
		{"json escaped quote", `{"password":"a\"b","ok":1}`, `{"password":"[REDACTED]","ok":1}`},
		{"json number", `{"cvv":123,"n":1}`, `{"cvv":"[REDACTED]","n":1}`},
		{"json object", `{"token":{"a":[1,"}"]},"n":1}`, `{"token":"[REDACTED]","n":1}`},
		{"json array", `{"secret":["a","b"]}`, `{"secret":"[REDACTED]"}`},
		{"escaped json", `body "{\"token\":\"abc\"}"`, `body "{\"token\":\"[REDACTED]\"}"`},
		{"single quotes", `{'password': 'a b'}`, `{'password': '[REDACTED]'}`},
		{"unclosed quote", `token="abc def`, `token="[REDACTED]`},
		{"unclosed bracket", `token=[abc def`, `token=[REDACTED]`},
		{"scheme value", "header Authorization: Bearer abc.def rejected", "header Authorization: [REDACTED] rejected"},
		{"scheme value, no blank", "header Authorization:Bearer abc.def rejected", "header Authorization:[REDACTED] rejected"},
		{"cookie", "cookie=a1b2; Path=/", "cookie=[REDACTED]; Path=/"},
		{"value ends at )", "(password=abc)", "(password=[REDACTED])"},
		{"value ends at %s: %w", "db password=a:b:c: connection refused", "db password=[REDACTED]: connection refused"},
		{"value ends at a final colon", "token=abc:", "token=[REDACTED]:"},
		{"empty value", "password=&user=ann password=", "password=&user=ann password="},
		{"operators", "password == x, token := y", "password == x, token := y"},
		{"path", "open /etc/passwd: permission denied; GET /v1/token: 401", "open /etc/passwd: permission denied; GET /v1/token: 401"},
		{"qualified name", "Error in tool:reset_password: No user ann", "Error in tool:reset_password: No user ann"},

		// Issue 18: the value of a spaced pair is prose, to the end of the
		// line, a terminator or the next pair.
		{"prose value", "password = correct horse battery", "password = [REDACTED]"},
		{"prose value, colon", "login with password: correct horse battery\nretrying", "login with password: [REDACTED]\nretrying"},
		{"prose value, escaped break", `{"msg":"password: correct horse\nuser: ann"}`, `{"msg":"password: [REDACTED]\nuser: ann"}`},
		{"prose value ends at a pair", "password = correct horse user=ann next: 1", "password = [REDACTED] user=ann next: 1"},
		{"prose value ends at a terminator", "password: correct horse, user ann", "password: [REDACTED], user ann"},
		{"prose value ends at %s: %w", "token: bad one: connection refused", "token: [REDACTED]: connection refused"},
		{"prose value, colon pair", "password: correct horse user: ann", "password: [REDACTED]: ann"},
		{"prose value, trailing blanks", "password = a b \t \nnext", "password = [REDACTED] \t \nnext"},
		{"prose json value", `{"cvv": 123 , "n": 1}`, `{"cvv": "[REDACTED]" , "n": 1}`},
		{"empty prose value", "password= user=ann", "password= user=ann"},
		{"tight value ends at a blank", "token=abc next=1", "token=[REDACTED] next=1"},

		// Issue 18: keys the old rules missed.
		{"key", "GET /v1/items?key=abc&q=1 and key=def, KEY: ghi", "GET /v1/items?key=[REDACTED]&q=1 and key=[REDACTED], KEY: [REDACTED]"},
		{"key in json", `{"key":"abc","keyboard":"us"}`, `{"key":"[REDACTED]","keyboard":"us"}`},
		{"x-api-key header", "X-Api-Key: abc123\r\nAccept: */*", "X-Api-Key: [REDACTED]\r\nAccept: */*"},
		{"x-api-key json", `{"x-api-key": "abc", "myApiKey": "def", "apiKeyId": "ghi"}`, `{"x-api-key": "[REDACTED]", "myApiKey": "[REDACTED]", "apiKeyId": "[REDACTED]"}`},
		{"api-key", "api-key=abc ?x-api-key=def", "api-key=[REDACTED] ?x-api-key=[REDACTED]"},
		{"passwd and friends", "passwd=a pwd=b pass=c passphrase: d e", "passwd=[REDACTED] pwd=[REDACTED] pass=[REDACTED] passphrase: [REDACTED]"},
		{"db_pass", "DB_PASS=hunter2 PASS_RATE=0.9", "DB_PASS=[REDACTED] PASS_RATE=0.9"},
		{"access tokens", `{"access_tokens":["a","b"],"max_tokens":5}`, `{"access_tokens":"[REDACTED]","max_tokens":5}`},
		{"presigned s3", "https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKID%2F20260101%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20260101T000000Z&X-Amz-Expires=900&X-Amz-Security-Token=FQo&X-Amz-SignedHeaders=host&X-Amz-Signature=abc123",
			"https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=[REDACTED]&X-Amz-Date=20260101T000000Z&X-Amz-Expires=900&X-Amz-Security-Token=[REDACTED]&X-Amz-SignedHeaders=host&X-Amz-Signature=[REDACTED]"},
		{"presigned gcs", "https://storage.googleapis.com/b/o?X-Goog-Credential=x&X-Goog-Signature=abc&X-Goog-Date=1", "https://storage.googleapis.com/b/o?X-Goog-Credential=[REDACTED]&X-Goog-Signature=[REDACTED]&X-Goog-Date=1"},
		{"azure sas", "https://a.blob.core.windows.net/c/b?sv=2022-11-02&sp=r&sig=abc%2Fdef%3D", "https://a.blob.core.windows.net/c/b?sv=2022-11-02&sp=r&sig=[REDACTED]"},
		{"signature", "Signature=abc, signature: def", "Signature=[REDACTED], signature: [REDACTED]"},

		// JSON text: a key or a word right after an escape, and a value
		// quoted twice over.
		{"after \\n", `{"log":"line 1\npassword=hunter2"}`, `{"log":"line 1\npassword=[REDACTED]"}`},
		{"after \\u0026", `{"url":"https://h/x?q=1\u0026api_key=K3Y"}`, `{"url":"https://h/x?q=1\u0026api_key=[REDACTED]"}`},
		{"shape after \\n", `{"log":"pushed with\nghp_abcdefghijklmnop, then\nBearer abc123"}`, `{"log":"pushed with\n[REDACTED], then\nBearer [REDACTED]"}`},
		{"escaped twice", `"{\\\"token\\\":\\\"T0K\\\"}"`, `"{\\\"token\\\":\\\"[REDACTED]\\\"}"`},

		// Issue 18: PEM private keys.
		{"pem", "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nIBAAK==\n-----END RSA PRIVATE KEY-----\nok",
			"key:\n-----BEGIN RSA PRIVATE KEY-----\n[REDACTED]\n-----END RSA PRIVATE KEY-----\nok"},
		{"pem in json", `{"pem":"-----BEGIN PRIVATE KEY-----\nMIIEv\nQIBA\n-----END PRIVATE KEY-----\n","n":1}`,
			`{"pem":"-----BEGIN PRIVATE KEY-----\n[REDACTED]\n-----END PRIVATE KEY-----\n","n":1}`},
		{"pem, encrypted", "-----BEGIN ENCRYPTED PRIVATE KEY-----\r\nMIIF\r\n-----END ENCRYPTED PRIVATE KEY-----",
			"-----BEGIN ENCRYPTED PRIVATE KEY-----\r\n[REDACTED]\r\n-----END ENCRYPTED PRIVATE KEY-----"},
		{"pem, headers", "-----BEGIN EC PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00\n\nMHc\n-----END EC PRIVATE KEY-----",
			"-----BEGIN EC PRIVATE KEY-----\n[REDACTED]\n-----END EC PRIVATE KEY-----"},
		{"pem, cut", "read -----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\nAAAA", "read -----BEGIN OPENSSH PRIVATE KEY-----\n[REDACTED]"},
		{"pem, under a key", "private_key: -----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY----- done", "private_key: -----BEGIN PRIVATE KEY-----\n[REDACTED]\n-----END PRIVATE KEY----- done"},
		{"pem, after a prose value", "password: x -----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----", "password: [REDACTED] -----BEGIN PRIVATE KEY-----\n[REDACTED]\n-----END PRIVATE KEY-----"},
		{"pem certificate", "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----", "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----"},
		{"pem public key", "-----BEGIN PUBLIC KEY-----\nMFkw\n-----END PUBLIC KEY-----", "-----BEGIN PUBLIC KEY-----\nMFkw\n-----END PUBLIC KEY-----"},

		{"hash arrow", `'password' => 'hunter2', user => ann`, `'password' => '[REDACTED]', user => ann`},
		{"ruby hash", `{"password"=>"hunter2", "n"=>1}`, `{"password"=>"[REDACTED]", "n"=>1}`},

		// (b) URLs.
		{"credentials", `Get "https://admin:pw@api.example.com/v1": EOF`, `Get "https://[REDACTED]@api.example.com/v1": EOF`},
		{"user only", "ssh://git@host/repo", "ssh://[REDACTED]@host/repo"},
		{"password only", "redis://:hunter2@localhost:6379/0", "redis://[REDACTED]@localhost:6379/0"},
		{"query", "https://h/v1?q=cats&api_key=K3Y&page=2", "https://h/v1?q=cats&api_key=[REDACTED]&page=2"},
		{"encoded name", "https://h/?api%5Fkey=x,y&b=2", "https://h/?api%5Fkey=[REDACTED]&b=2"},
		{"fragment", "https://h/cb#access_token=zz&state=1", "https://h/cb#access_token=[REDACTED]&state=1"},
		{"nested", "https://h/?next=https://u:p@x/?token=a&b=c d", "https://h/?next=https://[REDACTED]@x/?token=[REDACTED]&b=c d"},
		{"url.Error", `Get "https://u:***@h/x?access_token=T0K": dial tcp: refused`, `Get "https://[REDACTED]@h/x?access_token=[REDACTED]": dial tcp: refused`},

		// (c) Authorization schemes.
		{"bearer", "sent Bearer abc123 upstream", "sent Bearer [REDACTED] upstream"},
		{"bearer, any case", "BEARER abc.def-ghi_jkl~/+==", "BEARER [REDACTED]"},
		{"basic", "Basic dXNlcjpwYXNz", "Basic [REDACTED]"},
		{"basic, lower case", "basic Zm9vOmJhcg==", "basic [REDACTED]"},

		// (d) Token shapes.
		{"jwt", "got eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl.", "got [REDACTED]."},
		{"cut jwt", "got eyJhbGciOiJIUzI1NiJ9.eyJzdW", "got [REDACTED]"},
		{"jwt header", "got eyJhbGciOi", "got [REDACTED]"},
		{"jwt, empty segment", "got eyJhbGciOiJIUzI1NiJ9..c2ln... next", "got [REDACTED]... next"},
		{"openai", "key sk-proj-abcdEFGH12345678ijkl rejected", "key [REDACTED] rejected"},
		{"stripe", "sk_live_abcdefgh1", "[REDACTED]"},
		{"github", "ghp_abcdefghijklmnop ghs_abcdefgh github_pat_11ABC_xyz12345", "[REDACTED] [REDACTED] [REDACTED]"},
		{"gitlab", "glpat-abcdefgh12", "[REDACTED]"},
		{"slack", "xoxb-1234-5678-abcd xoxp-1234567890", "[REDACTED] [REDACTED]"},
		{"aws", "AKIAIOSFODNN7EXAMPLE and ASIAIOSFODNN7EXAMPL2", "[REDACTED] and [REDACTED]"},
		{"google", "AIzaSyA-abcdefghijklmnopqrstuvwxyz012", "[REDACTED]"},

		// Prose and plain values stay.
		{"clean", "open /srv/data/items.json: no such file or directory", "open /srv/data/items.json: no such file or directory"},
		{"prose bearer", "missing bearer token", "missing bearer token"},
		{"prose bearer realm", `WWW-Authenticate: Bearer realm="api", error="invalid_token"`, `WWW-Authenticate: Bearer realm="api", error="invalid_token"`},
		{"prose basic", "basic auth failed: basic validation", "basic auth failed: basic validation"},
		{"basic word", "Basic Authentication required", "Basic Authentication required"},
		{"not keys", "tokens=3 max_tokens=9 credentials: none secretary=y", "tokens=3 max_tokens=9 credentials: none secretary=y"},
		{"not key words", "keyboard=us monkey=3 passage=2 compass=n bypass=1 pass_rate=0.9 sort_key=id primary key", "keyboard=us monkey=3 passage=2 compass=n bypass=1 pass_rate=0.9 sort_key=id primary key"},
		{"hyphenated sk", "pip install sk-learn-something-else", "pip install sk-learn-something-else"},
		{"mid-word prefix", "task-abcdefghijklmnopqrstu1 xghp_abcdefghij", "task-abcdefghijklmnopqrstu1 xghp_abcdefghij"},
		{"short eyJ", "eyJhb is short", "eyJhb is short"},
		{"lower AKIA", "AKIAabcdefghijklmnop", "AKIAabcdefghijklmnop"},
		{"host and port", "dial tcp 127.0.0.1:5432: connect: connection refused", "dial tcp 127.0.0.1:5432: connect: connection refused"},
		{"url without secrets", "https://h/v1/items?q=cats&page=2#top", "https://h/v1/items?q=cats&page=2#top"},
		{"marker stays", "password=[REDACTED] https://[REDACTED]@h Bearer [REDACTED]", "password=[REDACTED] https://[REDACTED]@h Bearer [REDACTED]"},
		{"empty", "", ""},
		{"not utf-8", "\xff\xfepassword=\xff\xfe x", "\xff\xfepassword=[REDACTED] x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := String(tt.in)
			if got != tt.want {
				t.Errorf("String(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
			if again := String(got); again != got {
				t.Errorf("not idempotent: %q → %q", got, again)
			}
		})
	}
}

func TestStringCleanAllocatesNothing(t *testing.T) {
	for _, s := range []string{
		"open /srv/data/items.json: no such file or directory",
		`Get "https://api.example.com/v1/items?q=cats&page=2": context deadline exceeded`,
		"missing bearer token; name=value, other: thing",
		"keyboard=us monkey=3 max_tokens=9 pass_rate=0.9 -----BEGIN CERTIFICATE-----",
		"password=[REDACTED]",
	} {
		if n := testing.AllocsPerRun(100, func() { sinkString = String(s) }); n != 0 {
			t.Errorf("String(%q) allocates %v times, want 0", s, n)
		}
		if String(s) != s {
			t.Errorf("String(%q) changed a clean string", s)
		}
	}
}

// TestStringLinear feeds inputs built to defeat a naive scanner, each a
// megabyte of a repeated pattern; a quadratic scan would take minutes.
func TestStringLinear(t *testing.T) {
	patterns := []string{
		"password=[", "token=\"", "token={", "\":\"", "a:", "==", "://", "://u@", "https://h/?&",
		"?token=&", "sk-", "eyJ.", "Bearer ", "bearer token ", "Basic ", "x" + strings.Repeat("a", 200) + "=",
		`\"token\":\"`, "%", "AKIA", "[", "\"",
		"password: a ", "password = a b=", "token: x:" + strings.Repeat("k", 200) + "=", "-----BEGIN ", "-----BEGIN PRIVATE KEY-----",
		"\\n-----BEGIN X", "key: -----BEGIN PRIVATE KEY-----", "-----END ",
	}
	for _, p := range patterns {
		s := strings.Repeat(p, (1<<20)/len(p))
		start := time.Now()
		out := String(s)
		d := time.Since(start)
		t.Logf("%-12q %v", p, d)
		if d > 2*time.Second {
			t.Errorf("String(%q × %d) took %v", p, len(s)/len(p), d)
		}
		if again := String(out); again != out {
			t.Errorf("String(%q × %d) not idempotent", p, len(s)/len(p))
		}
	}
}

var sinkString string
