package upstream

import (
	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// The failures the service raises, by the reasons the tools' contracts
// declare for them. The service names an entry where it raises, with
// mcpcore.RecoveryFor(ctx, entry), which sends the Recovery the calling
// tool declares for that reason: the tools' words reach the client, and a
// misspelt entry does not compile.
var (
	queueFull = mcpcore.Failure{
		Reason:   "queue_full",
		Code:     mcperr.CodeRateLimited,
		When:     "The queue of catalog calls is full",
		Recovery: "Wait a few seconds and call again, or make fewer calls at once.",
	}
	unreachable = mcpcore.Failure{
		Reason:   "upstream_unreachable",
		Code:     mcperr.CodeServiceUnavailable,
		When:     "The catalog cannot be reached",
		Recovery: "The catalog is down or unreachable; call again in a few minutes.",
	}
	keyRejected = mcpcore.Failure{
		Reason:   "api_key_rejected",
		Code:     mcperr.CodeConfigurationError,
		When:     "The catalog refused the server's API key",
		Recovery: "Tell the server's operator that the catalog API key is invalid.",
	}
	noRecord = mcpcore.Failure{
		Reason:   "no_record",
		Code:     mcperr.CodeNotFound,
		When:     "The catalog has no record with this ID",
		Recovery: "Call search_catalog to find the record's catalog ID, then call again with it.",
	}
)
