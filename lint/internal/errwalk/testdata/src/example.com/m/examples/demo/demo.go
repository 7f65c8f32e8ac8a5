package demo

import (
	"context"
	"errors"
)

// Examples are servers' own code: users walk their errors as they like.
func Cancelled(err error) bool { return errors.Is(err, context.Canceled) }
