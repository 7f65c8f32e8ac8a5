// Package errchain walks error trees within bounds. The standard errors.Is
// and errors.As follow Unwrap for as long as it answers: an error whose
// Unwrap returns itself makes them loop forever, and with them the call
// that failed and the core it runs on; a join that contains itself makes
// them recurse until the stack overflows, which kills the process. Every
// walk mcpcore's serving code does of an error goes through Walk (As, Is
// and Cut are walks of it, and so is TryCatch's cause chain): make check
// fails on errors.Is or errors.As in serving code (see internal/errwalk);
// a walk written by hand, which it cannot see, is a review's to catch.
package errchain

// The bounds of a walk: no error tree a program builds on purpose comes
// near them.
const (
	MaxDepth = 32 // errors from the root to the deepest one looked at
	MaxNodes = 64 // errors looked at in all
)

// Walk calls visit on err and the errors below it, in the pre-order of
// errors.As (Unwrap() error, then each error of Unwrap() []error in turn),
// until visit returns true or the bounds are reached. found reports
// whether visit returned true; cut, whether the tree goes on past the
// bounds (a cycle, say), so that what was not visited may hold anything.
//
// A nil error in a join is skipped. Walk does not recover panics: an
// Unwrap method that panics panics the caller, which should guard the walk
// as it guards any other method of an error it did not build.
func Walk(err error, visit func(error) bool) (found, cut bool) {
	budget := MaxNodes
	return walk(err, 0, &budget, visit)
}

func walk(err error, depth int, budget *int, visit func(error) bool) (found, cut bool) {
	for ; err != nil; depth++ {
		if depth >= MaxDepth || *budget <= 0 {
			return false, true
		}
		*budget--
		if visit(err) {
			return true, false
		}
		switch x := err.(type) {
		case interface{ Unwrap() error }:
			err = x.Unwrap()
		case interface{ Unwrap() []error }:
			for _, e := range x.Unwrap() {
				if found, cut := walk(e, depth+1, budget, visit); found || cut {
					return found, cut
				}
			}
			return false, false
		default:
			return false, false
		}
	}
	return false, false
}

// As is errors.As within the bounds of [Walk]: the first error of err's
// tree that is a T, or that stands for one through an As method.
func As[T any](err error) (t T, ok bool) {
	Walk(err, func(e error) bool {
		if v, is := e.(T); is {
			t, ok = v, true
			return true
		}
		if a, has := e.(interface{ As(any) bool }); has && a.As(&t) {
			ok = true
			return true
		}
		return false
	})
	return t, ok
}

// Is is errors.Is within the bounds of [Walk]: whether an error of err's
// tree equals target, or says it is target through an Is method. A
// comparison of uncomparable values counts as no match.
func Is(err, target error) bool {
	found, _ := Walk(err, func(e error) bool { return is(e, target) })
	return found
}

func is(e, target error) (match bool) {
	defer func() {
		if recover() != nil {
			match = false // == of two uncomparable dynamic types
		}
	}()
	if e == target {
		return true
	}
	x, ok := e.(interface{ Is(error) bool })
	return ok && x.Is(target)
}

// Cut reports whether err's tree goes on past the bounds of [Walk].
func Cut(err error) bool {
	_, cut := Walk(err, func(error) bool { return false })
	return cut
}
