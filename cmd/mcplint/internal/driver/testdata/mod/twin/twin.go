// Package twin has two findings whose fixes are the same edit.
package twin

// Twice is reported twice, with the same fix.
//
// lint:same
func Twice() {}
