package driver

// IsVetInvocation exports isVetInvocation to the tests.
var IsVetInvocation = isVetInvocation
