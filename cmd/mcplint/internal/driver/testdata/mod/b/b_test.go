package b

// marked is reported only with -test. (It imports nothing, so that the
// tests need not load package testing and its dependencies.)
//
// lint:warning
func marked() {}
