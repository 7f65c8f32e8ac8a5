// Package warn has warnings only.
package warn

// Later is reported as a warning.
//
// lint:warning
func Later() {}
