// Package b calls a marked function of package a, which the test analyzer
// sees through a fact.
package b

import "example.com/lintme/a"

// Caller is reported as a warning for calling a.ErrorHere.
func Caller() {
	a.ErrorHere()
	a.Plain()
}

// Conflict has two findings whose fixes overlap.
//
// lint:conflict
func Conflict() {}

// NoFix is reported as an error without a fix.
//
// lint:nofix
func NoFix() {}
