package mcpcore

import (
	"reflect"
	"testing"
	"time"
)

// TestConfigDefaults: the zero Config, the configuration of an empty
// environment, takes the defaults the configuration table states.
func TestConfigDefaults(t *testing.T) {
	t.Parallel()
	want := Config{MaxResultBytes: 8 << 20, MaxCallsInFlight: 512, MaxCallsPerSession: 64, MaxBodyBytes: 4 << 20,
		MaxSessions: 1000, MaxSessionsPerSubject: 100, SessionIdleTimeout: 30 * time.Minute, StreamKeepAlive: 15 * time.Second,
		TaskAfter: 250 * time.Millisecond, TaskTTL: time.Hour, TaskPollInterval: time.Second, MaxTasks: 256}
	if got := (Config{}).withDefaults(); !reflect.DeepEqual(got, want) {
		t.Errorf("Config{}.withDefaults() =\n%+v\nwant\n%+v", got, want)
	}
	// A limit of zero or less is its default: a server of no calls would
	// serve nothing.
	if got := (Config{MaxCallsInFlight: -1, MaxCallsPerSession: -1, MaxBodyBytes: -1, MaxSessions: -1, MaxSessionsPerSubject: -1}).withDefaults(); !reflect.DeepEqual(got, want) {
		t.Errorf("negative limits: withDefaults() =\n%+v\nwant\n%+v", got, want)
	}
	// Negative: no bound, never, none.
	got := (Config{MaxResultBytes: -1, SessionIdleTimeout: -1, StreamKeepAlive: -1}).withDefaults()
	if got.MaxResultBytes != -1 || got.SessionIdleTimeout != -1 || got.StreamKeepAlive != -1 {
		t.Errorf("withDefaults() = %+v, want the negative settings kept", got)
	}
	// The share of a subject follows the cap unless it is set.
	for _, tc := range []struct{ sessions, perSubject, want int }{{5, 0, 1}, {250, 0, 25}, {250, 7, 7}} {
		if got := (Config{MaxSessions: tc.sessions, MaxSessionsPerSubject: tc.perSubject}).withDefaults().MaxSessionsPerSubject; got != tc.want {
			t.Errorf("MaxSessions %d, MaxSessionsPerSubject %d: the share is %d, want %d", tc.sessions, tc.perSubject, got, tc.want)
		}
	}
}
