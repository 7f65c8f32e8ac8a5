package mcpclient

import (
	"encoding/json"
	"testing"
	"time"
)

func TestPollIntervalIsBounded(t *testing.T) {
	for _, tc := range []struct {
		advised json.Number
		want    time.Duration
	}{
		{"", DefaultPollInterval},
		{"1", MinPollInterval},
		{"-5", MinPollInterval},
		{"250", 250 * time.Millisecond},
		{"2500.5", 2500500 * time.Microsecond},
		{"1e12", MaxPollInterval},
		{"1e400", DefaultPollInterval}, // not a float64: the advice is ignored
	} {
		if got := pollInterval(tc.advised, DefaultPollInterval); got != tc.want {
			t.Errorf("pollInterval(%q) = %v, want %v", tc.advised, got, tc.want)
		}
	}
}
