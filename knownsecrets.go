package mcpcore

import (
	"errors"
	"fmt"

	"github.com/seed417024ea/mcpcore/internal/redact"
)

// keepSecrets hands the process's mask (internal/redact) the secrets the
// server holds: opts.Secrets, and the state keys of its configuration
// (checked by Config.Check; mcphttp.NewAuth keeps the HS256 key of mode
// jwt). From then on each is masked in every byte the server sends over
// stdio and HTTP, in every record of its logger and in its spans. It
// reports each value it cannot keep by where it came from, never by its
// text; the others are kept all the same.
func keepSecrets(cfg Config, opts *ServerOptions) error {
	errs := []error{redact.Keep(cfg.StateKeys...)}
	for i, v := range opts.Secrets {
		if err := redact.Keep(v); err != nil {
			errs = append(errs, fmt.Errorf("ServerOptions.Secrets: value %d of %d: %w", i+1, len(opts.Secrets), err))
		}
	}
	return errors.Join(errs...)
}
