// Package a has one function marked as an error and one as a warning.
package a

// ErrorHere is reported as an error, with a fix.
//
// lint:error
func ErrorHere() {
	println("error")
}

// WarnHere is reported as a warning, with a fix.
//
// lint:warning
func WarnHere() {}

// Plain is not reported.
func Plain() {}
