// Package clean has nothing to report.
package clean

// Fine is not reported.
func Fine() {}
