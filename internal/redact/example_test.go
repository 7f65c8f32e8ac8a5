package redact_test

import (
	"fmt"
	"log/slog"
	"net/url"
	"os"

	"github.com/seed417024ea/mcpcore/internal/redact"
)

func ExampleString() {
	fmt.Println(redact.String(`login failed: password=hunter2; retry`))
	fmt.Println(redact.String(`Get "https://ann:pw@api.example.com/v1?q=cats&api_key=K3Y": EOF`))
	fmt.Println(redact.String(`upstream said {"error":"invalid_grant","access_token":"abc"}`))
	fmt.Println(redact.String(`sent Bearer abc123; key sk_live_4eC39HqLyjWDarjtT1zdp7dc`))
	fmt.Println(redact.String(`password = hunter2 (expired), user=ann`))
	fmt.Println(redact.String(`Cookie: sid=7Fq2Zx9LmW3pKd8R; theme=dark`))
	fmt.Println(redact.String(`missing bearer token`)) // prose stays
	fmt.Println(redact.String(`Invalid password: it must have at least 8 characters.`))
	// Output:
	// login failed: password=[REDACTED]; retry
	// Get "https://[REDACTED]@api.example.com/v1?q=cats&api_key=[REDACTED]": EOF
	// upstream said {"error":"invalid_grant","access_token":"[REDACTED]"}
	// sent Bearer [REDACTED]; key [REDACTED]
	// password = [REDACTED] (expired), user=ann
	// Cookie: sid=[REDACTED]; theme=[REDACTED]
	// missing bearer token
	// Invalid password: it must have at least 8 characters.
}

func ExampleKey() {
	for _, k := range []string{"password", "session_token", "accessToken", "x-api-key", "key", "keyboard", "max_tokens"} {
		fmt.Println(k, redact.Key(k))
	}
	// Output:
	// password true
	// session_token true
	// accessToken true
	// x-api-key true
	// key true
	// keyboard false
	// max_tokens false
}

func ExampleURL() {
	u, _ := url.Parse("https://ann:hunter2@api.example.com/v1/search?q=cats&access_token=T0K#results")
	fmt.Println(redact.URL(u))
	// Output:
	// https://api.example.com/v1/search?q=cats&access_token=[REDACTED]
}

func ExampleJSON() {
	type login struct {
		User     string `json:"user"`
		Password string `json:"password"`
		Note     string `json:"note"`
	}
	v, _ := redact.JSON(login{User: "ann", Password: "hunter2", Note: "token=abc"})
	fmt.Println(v)
	// Output:
	// map[note:token=[REDACTED] password:[REDACTED] user:ann]
}

func ExampleHandler() {
	logger := slog.New(redact.Handler(slog.NewJSONHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey && len(groups) == 0 {
				return slog.Attr{} // a stable output for the example
			}
			return a
		},
	})))
	type creds struct {
		User  string `json:"user"`
		Token string `json:"token"`
	}
	logger.Info("calling upstream",
		"password", "hunter2",
		"creds", creds{"ann", "T0K"},
		slog.Group("req", "authorization", "Bearer abc", "url", "https://h/x?api_key=K3Y&q=1"),
		"err", fmt.Errorf("dial: password=hunter2"))
	// Output:
	// {"level":"INFO","msg":"calling upstream","password":"[REDACTED]","creds":{"token":"[REDACTED]","user":"ann"},"req":{"authorization":"[REDACTED]","url":"https://h/x?api_key=[REDACTED]&q=1"},"err":"dial: password=[REDACTED]"}
}
