// Package errs holds an entry that package contractlib's contract lists.
package errs

import (
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

var Busy = mcpcore.Failure{Reason: "busy", Code: mcperr.CodeRateLimited, When: "The upstream throttles.", Recovery: "Wait a minute, then call the tool again.", ThrownBy: mcpcore.ThrownByService} // want Busy:"contract busy:RateLimited"
