package serving

import (
	"context"
	"errors"
)

// Tests walk errors they built themselves.
func walksInATest(err error) bool { return errors.Is(err, context.Canceled) }
