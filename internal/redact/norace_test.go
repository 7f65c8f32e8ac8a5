//go:build !race

package redact

// raceEnabled: see race_test.go.
const raceEnabled = false
