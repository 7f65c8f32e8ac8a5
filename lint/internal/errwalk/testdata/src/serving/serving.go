package serving

import (
	"context"
	"errors"
	stderrors "errors"
)

type codeError struct{ code int }

func (e *codeError) Error() string { return "code" }

func classify(err error) int {
	if errors.Is(err, context.Canceled) { // want `errors.Is walks an error tree without bounds .a cycle`
		return 1
	}
	var ce *codeError
	if stderrors.As(err, &ce) { // want `errors.As walks an error tree without bounds .a cycle`
		return ce.code
	}
	// One step is bounded; so is building an error.
	if errors.Unwrap(err) == nil {
		return 2
	}
	return len(errors.Join(err, errors.New("x")).Error())
}

// A function value is a walk all the same.
var is = errors.Is // want `errors.Is walks an error tree without bounds .a cycle`

func indirect(err error) bool { return is(err, context.Canceled) }
