package errchain

import "errors"

// The one place allowed to name them.
func Is(err, target error) bool { return errors.Is(err, target) }
