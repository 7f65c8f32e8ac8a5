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
		{"json string, spaced", `{"token" : "correct horse battery"}`, `{"token" : "[REDACTED]"}`},
		{"json string, prose", `{"password": "must have at least 8 characters"}`, `{"password": "must have at least 8 characters"}`},
		{"json escaped quote", `{"password":"a\"b","ok":1}`, `{"password":"[REDACTED]","ok":1}`},
		{"json number", `{"cvv":123,"n":1}`, `{"cvv":"[REDACTED]","n":1}`},
		{"json object", `{"token":{"a":[1,"}"]},"n":1}`, `{"token":"[REDACTED]","n":1}`},
		{"json array", `{"secret":["a","b"],"n":[1,{"x":2},true]}`, `{"secret":["[REDACTED]","[REDACTED]"],"n":[1,{"x":2},true]}`},
		{"json array of prose", `{"password":["This password is too short.","x9!Qz"]}`, `{"password":["This password is too short.","[REDACTED]"]}`},
		{"json array under a secret", `{"token":[1,{"a":"b"},[2],null]}`, `{"token":["[REDACTED]","[REDACTED]",["[REDACTED]"],null]}`},
		{"escaped json", `body "{\"token\":\"abc\"}"`, `body "{\"token\":\"[REDACTED]\"}"`},
		{"single quotes", `{'password': 'hunter2 x'}`, `{'password': '[REDACTED]'}`},
		{"unclosed quote", `token="abc def`, `token="[REDACTED]`},
		{"unclosed bracket", `token=[abc def`, `token=[[REDACTED]`},
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

		// Issue 35: an unquoted value of several words is prose; its first
		// word goes when it mixes letters with digits or symbols, a later
		// one when it is token-like, to the end of the line, a terminator
		// or the next pair.
		{"prose value", "password = correct horse battery", "password = correct horse battery"},
		{"prose value, issue 35", "Invalid password: it must have at least 8 characters.", "Invalid password: it must have at least 8 characters."},
		{"prose value, first word", "password = hunter2 (expired)", "password = [REDACTED] (expired)"},
		{"prose value, a later word", "login with password: taken from Q7xK2mP9vLw4Rt8Z\nretrying", "login with password: taken from [REDACTED]\nretrying"},
		{"prose value, escaped break", `{"msg":"password: was 7Hq2xZ9kLmW3\nuser: ann Q7xK2mP9vLw4Rt8Z"}`, `{"msg":"password: was [REDACTED]\nuser: ann Q7xK2mP9vLw4Rt8Z"}`},
		{"prose value ends at a pair", "password = correct horse user=ann next: Q7xK2mP9vLw4Rt8Z", "password = correct horse user=ann next: Q7xK2mP9vLw4Rt8Z"},
		{"prose value ends at a terminator", "password: correct horse, user Q7xK2mP9vLw4Rt8Z", "password: correct horse, user Q7xK2mP9vLw4Rt8Z"},
		{"prose value ends at %s: %w", "token: bad Q7xK2mP9vLw4Rt8Z: connection refused", "token: bad [REDACTED]: connection refused"},
		{"prose value, colon pair", "password: correct horse user: ann", "password: correct horse user: ann"},
		{"prose value, trailing blanks", "password = a Q7xK2mP9vLw4Rt8Z \t \nnext", "password = a [REDACTED] \t \nnext"},
		{"one word", "password: hunter, token: x, secret = s3cr3t!", "password: [REDACTED], token: [REDACTED], secret = [REDACTED]"},
		{"status words", "password: required, token: expired, cookie: none, API key: revoked", "password: required, token: expired, cookie: none, API key: revoked"},
		{"placeholders", "token: $GITHUB_TOKEN, api_key: <your-api-key>, password=********, key=YOUR_API_KEY", "token: $GITHUB_TOKEN, api_key: <your-api-key>, password=********, key=YOUR_API_KEY"},
		{"prose forms", "the password is hunter2, the token is invalid, login with password Zq9xW2kP", "the password is [REDACTED], the token is invalid, login with password [REDACTED]"},
		{"prose json value", `{"cvv": 123 , "n": 1}`, `{"cvv": "[REDACTED]" , "n": 1}`},
		{"empty prose value", "password= user=ann", "password= user=ann"},
		{"tight value ends at a blank", "token=abc next=1", "token=[REDACTED] next=1"},

		// Issue 18: keys the old rules missed.
		{"key", "GET https://h/v1/items?key=abc&q=1 and key=Zq9xW2kPm4, KEY: 3f2b8c1e9d4a7b6c", "GET https://h/v1/items?key=[REDACTED]&q=1 and key=[REDACTED], KEY: [REDACTED]"},
		{"key, weak", "Send key=value pairs; primary key: id; sort key: created_at", "Send key=value pairs; primary key: id; sort key: created_at"},
		{"key, qualified", "API key: abc123, secret key: hunter", "API key: [REDACTED], secret key: [REDACTED]"},
		{"key in json", `{"key":"Zq9xW2kPm4","keyboard":"us","sort":{"key":"title"}}`, `{"key":"[REDACTED]","keyboard":"us","sort":{"key":"title"}}`},
		{"x-api-key header", "X-Api-Key: abc123\r\nAccept: */*", "X-Api-Key: [REDACTED]\r\nAccept: */*"},
		{"x-api-key json", `{"x-api-key": "abc", "myApiKey": "def", "apiKeyId": "ghi"}`, `{"x-api-key": "[REDACTED]", "myApiKey": "[REDACTED]", "apiKeyId": "[REDACTED]"}`},
		{"api-key", "api-key=abc ?x-api-key=def", "api-key=[REDACTED] ?x-api-key=[REDACTED]"},
		{"passwd and friends", "passwd=a pwd=b pass=c passphrase: d3 e", "passwd=[REDACTED] pwd=[REDACTED] pass=[REDACTED] passphrase: d3 e"},
		{"db_pass", "DB_PASS=hunter2 PASS_RATE=0.9", "DB_PASS=[REDACTED] PASS_RATE=0.9"},
		{"access tokens", `{"access_tokens":["a","b"],"max_tokens":5}`, `{"access_tokens":["[REDACTED]","[REDACTED]"],"max_tokens":5}`},
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

		// Issue 35: the shapes the old rules missed.
		{"cookie header", "Cookie: sid=7Fq2Zx9LmW3pKd8R; theme=dark\nAccept: */*", "Cookie: sid=[REDACTED]; theme=[REDACTED]\nAccept: */*"},
		{"set-cookie header", "Set-Cookie: session=7Fq2Zx9LmW3pKd8R; Path=/; HttpOnly; Secure", "Set-Cookie: session=[REDACTED]; Path=/; HttpOnly; Secure"},
		{"cookie prose", "The cookie: consent banner was dismissed.", "The cookie: consent banner was dismissed."},
		{"xml", "<Creds><User>ann</User><Password>hunter2</Password></Creds>", "<Creds><User>ann</User><Password>[REDACTED]</Password></Creds>"},
		{"xml in JSON text", `{"body":"\u003cPassword\u003ehunter2\u003c/Password\u003e"}`, `{"body":"\u003cPassword\u003e[REDACTED]\u003c/Password\u003e"}`},
		{"xml, attributes and prose", `<ns:token type="bearer"> Zq9xW2kPm4Lr </ns:token><Password>required</Password>`, `<ns:token type="bearer"> [REDACTED] </ns:token><Password>required</Password>`},
		{"yaml next line", "db:\n  password:\n    hunter2\n  user: ann", "db:\n  password:\n    [REDACTED]\n  user: ann"},
		{"yaml block", "api_key: |\n  Zq9xW2kPm4Lr\nnext: 1", "api_key: |\n  [REDACTED]\nnext: 1"},
		{"yaml mapping", "password:\n  min_length: 8", "password:\n  min_length: 8"},
		{"digest", `Authorization: Digest username="ann", nonce="dcd98b7102dd", response="6629fae49393a05397450978507c4ef1"`, `Authorization: Digest username="ann", nonce="dcd98b7102dd", response="[REDACTED]"`},
		{"digest prose", "Digest auth failed; response=ok", "Digest auth failed; response=ok"},
		{"slack webhook", "POST https://hooks.slack.com/services/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: 404", "POST https://hooks.slack.com/services/[REDACTED]: 404"},
		{"discord webhook", "https://discord.com/api/webhooks/123456789012345678/Zq9xW2kPm4Lr-Q7xK2mP9vLw4?wait=true", "https://discord.com/api/webhooks/[REDACTED]?wait=true"},
		{"telegram bot", "GET https://api.telegram.org/bot123456789:AAZq9xW2kPm4LrQ7xK2mP9vLw4Rt8Zb3Nc/getMe", "GET https://api.telegram.org/bot[REDACTED]/getMe"},
		{"hooks path", "https://chat.example.com/hooks/xq9w2kpm4lrq7xk2mp9vlw4rt8", "https://chat.example.com/hooks/[REDACTED]"},
		{"hooks path, no token", "https://example.com/docs/webhooks/setup-guide", "https://example.com/docs/webhooks/setup-guide"},
		{"unicode spacing", "password:\u2003hunter2 and token\u00a0=\u00a0Zq9xW2kPm4Lr", "password:\u2003[REDACTED] and token\u00a0=\u00a0[REDACTED]"},
		{"full width", "Ｐａｓｓｗｏｒｄ：ｈｕｎｔｅｒ２ ＡＰＩ＿ＫＥＹ＝Zq9xW2kPm4Lr", "Ｐａｓｓｗｏｒｄ：[REDACTED] ＡＰＩ＿ＫＥＹ＝[REDACTED]"},
		{"prefixes", "npm_Zq9xW2kPm4LrQ7xK2mP9vLw4Rt8Zb3Nc7 hf_ZqxWkPmLrQxKmPvLwRtZbNcZqxWkPmLrQ SG.Zq9xW2kPm4LrQ7xK2mP9vL.w4Rt8Zb3NcZq9xW2kPm4LrQ7xK2mP9vLw4Rt8Zb3Nc7 dop_v1_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
			"[REDACTED] [REDACTED] [REDACTED] [REDACTED]"},
		{"aws secret, no key", "signature mismatch for wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY2", "signature mismatch for [REDACTED]"},
		{"azure account key", "AccountName=notes;AccountKey=Zq9xW2kPm4LrQ7xK2mP9vLw4Rt8Zb3Nc+Zq9xW2kPm4LrQ7xK2mP9vL==;EndpointSuffix=core.windows.net",
			"AccountName=notes;AccountKey=[REDACTED];EndpointSuffix=core.windows.net"},
		{"azure client secret", "secret was abc8Q~Zq9xW2kPm4LrQ7xK2mP9vLw4Rt8Zb3Nc rejected", "secret was [REDACTED] rejected"},
		{"long ids stay", "commit 9fceb02d0ae598e95dc970b74767f19372d61af8 in AbstractSingletonProxyFactoryBean2Impl", "commit 9fceb02d0ae598e95dc970b74767f19372d61af8 in AbstractSingletonProxyFactoryBean2Impl"},

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
// megabyte of a repeated pattern, and holds the CPU each costs two ways:
// to plain prose of the same size (a quadratic scan costs thousands of
// times as much; the costliest linear pattern, a few tens) and to a
// quarter of the pattern (a linear scan costs four times as much, a
// quadratic one sixteen). A scan fails only when it is out of bounds both
// ways, since one pause of a loaded machine can upset either ratio alone.
func TestStringLinear(t *testing.T) {
	const size = 1 << 20
	patterns := []string{
		"password=[", "token=\"", "token={", "\":\"", "a:", "==", "://", "://u@", "https://h/?&",
		"?token=&", "sk-", "eyJ.", "Bearer ", "bearer token ", "Basic ", "x" + strings.Repeat("a", 200) + "=",
		`\"token\":\"`, "%", "AKIA", "[", "\"",
		"password: a ", "password = a b=", "token: x:" + strings.Repeat("k", 200) + "=", "-----BEGIN ", "-----BEGIN PRIVATE KEY-----",
		"\\n-----BEGIN X", "key: -----BEGIN PRIVATE KEY-----", "-----END ",
		// Issue 35: the detectors of credential shapes.
		"password = a Q7xK2mP9vLw4Rt8Z ", "password = a ", "password: a https://u:p@h/ ", "token: [\"a b\", ",
		"password=[[[[", "password: [\"password: [\"", "Digest ", "Digest response=", "response=\"x\" ",
		"<password>", "<a b=\"c\">", ">", `\u003cpassword\u003e`, `\u003e`, `<password>\u003c`, "password:\n  ", "password: |\n  x\n", "Cookie: a=b; ",
		"Set-Cookie: a=", "https://hooks.slack.com/services/", "://hooks/", "the password is ", "password ",
		"SG.", "dp.pt.", "hvs.", "glc_", "sk.eyJ", "1234567890:", "0123456789abcdef0123456789abcdef-us",
		"aaa1Q~", "M" + strings.Repeat("a", 24) + ".", strings.Repeat("Ab3/", 10), "Ab3+",
		"password\u2003=\u2003", "Ｐａｓｓｗｏｒｄ：", "\u00a0", "key=", "API key: ", "{\"password\":\"a b c\",",
		"Authorization: Bearer x ", "Authorization: Digest response=\"1\", ",
	}
	plain := strings.Repeat("the upstream answered slowly, then closed the connection. ", size/58)
	cost := func(s string) time.Duration {
		best := time.Duration(1 << 62)
		for range 3 {
			start := time.Now()
			sinkString = String(s)
			best = min(best, time.Since(start))
		}
		return best
	}
	base := cost(plain)
	for _, p := range patterns {
		s := strings.Repeat(p, size/len(p))
		quarter := cost(s[:len(s)/4/len(p)*len(p)])
		d := cost(s)
		growth, ratio := float64(d)/float64(max(quarter, 1)), float64(d)/float64(base)
		t.Logf("%-16q %8v  %5.1f× prose, %4.1f× a quarter of it", p, d, ratio, growth)
		if growth > 10 && ratio > 100 {
			t.Errorf("String(%q × %d) took %v, %.0f times as long as prose of the same size and %.1f times as long as a quarter of it",
				p, len(s)/len(p), d, ratio, growth)
		}
		out := String(s)
		if again := String(out); again != out {
			t.Errorf("String(%q × %d) not idempotent", p, len(s)/len(p))
		}
	}
}

var sinkString string
