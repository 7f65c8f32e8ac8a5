package redact

import (
	"net/url"
	"testing"
)

func TestURL(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"https://ann:hunter2@api.example.com/v1?q=cats&api_key=K3Y&access_token=T0K&page=2&flag#top",
			"https://api.example.com/v1?q=cats&api_key=[REDACTED]&access_token=[REDACTED]&page=2&flag"},
		// Names are percent-decoded; a bare name has no value to hide.
		{"https://h/x?api%5Fkey=K&x-api-key=x&Api-Key=y&token", "https://h/x?api%5Fkey=[REDACTED]&x-api-key=[REDACTED]&Api-Key=[REDACTED]&token"},
		// The signatures and credentials of presigned URLs, and a bare key.
		{"https://b.s3.amazonaws.com/o?X-Amz-Credential=C&X-Amz-Signature=S&X-Amz-Expires=900&key=K&sig=G&X-Goog-Signature=T",
			"https://b.s3.amazonaws.com/o?X-Amz-Credential=[REDACTED]&X-Amz-Signature=[REDACTED]&X-Amz-Expires=900&key=[REDACTED]&sig=[REDACTED]&X-Goog-Signature=[REDACTED]"},
		// A URL in a parameter is a URL like any other.
		{"https://h/x?next=https://u:p@other/%3Ftoken=a&b=1", "https://h/x?next=https://[REDACTED]@other/%3Ftoken=[REDACTED]&b=1"},
		{"https://h/x?id=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig", "https://h/x?id=[REDACTED]"},
		{"https://h/users/ann/password=x", "https://h/users/ann/password=[REDACTED]"},
		{"https://h/x?", "https://h/x?"},
		{"http://127.0.0.1:8080/status/401", "http://127.0.0.1:8080/status/401"},
		{"/relative?token=x&y=1", "/relative?token=[REDACTED]&y=1"},
		{"mailto:ann@example.com", "mailto:ann@example.com"},
	}
	for _, tt := range tests {
		u, err := url.Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := URL(u); got != tt.want {
			t.Errorf("URL(%s)\n got %s\nwant %s", tt.in, got, tt.want)
		}
	}
	if got := URL(nil); got != "" {
		t.Errorf("URL(nil) = %q", got)
	}
}
