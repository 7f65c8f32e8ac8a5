package mcpcore

import (
	"errors"
	"fmt"

	"github.com/seed417024ea/mcpcore/internal/config"
	"github.com/seed417024ea/mcpcore/internal/redact"
)

// keepSecrets hands the process's mask (internal/redact) the secrets the
// server holds: opts.Secrets, and those of its resolved configuration, the
// HS256 key and the state keys (config.Config.ServerSecrets, checked as it
// was resolved). From then on each is masked in every byte the server sends over stdio
// and HTTP, in every record of its logger and in its spans. It reports
// each value it cannot keep by where it came from, never by its text;
// the others are kept all the same.
func keepSecrets(cfg config.Config, opts *ServerOptions) error {
	errs := []error{redact.Keep(cfg.ServerSecrets()...)}
	for i, v := range opts.Secrets {
		if err := redact.Keep(v); err != nil {
			errs = append(errs, fmt.Errorf("ServerOptions.Secrets: value %d of %d: %w", i+1, len(opts.Secrets), err))
		}
	}
	return errors.Join(errs...)
}
