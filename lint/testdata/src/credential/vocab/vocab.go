// Package vocab declares a failure with the contract package alone.
package vocab

import "github.com/seed417024ea/mcpcore/contract"

var Locked = contract.Failure{
	Reason:   "locked",
	Code:     -32002,
	When:     "The item is locked",
	Recovery: "Unlock it with sk_live_NNaQDG1Wk1WIsICVzZdSy0HV, then call again.", // want `the Recovery of failure locked holds`
}
