package errchain_test

import (
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/seed417024ea/mcpcore/internal/errchain"
)

type self struct{}

func (*self) Error() string   { return "self" }
func (e *self) Unwrap() error { return e }

type selfJoin struct{}

func (*selfJoin) Error() string     { return "join" }
func (e *selfJoin) Unwrap() []error { return []error{e, e} }

type target struct{ n int }

func (t *target) Error() string { return fmt.Sprint("target ", t.n) }

// uncomparable is a slice: == on two of them panics.
type uncomparable []int

func (uncomparable) Error() string { return "uncomparable" }

// Cycles and self-joins end, and say they were cut; what a standard walk
// finds within the bounds, these find too.
func TestBoundedWalks(t *testing.T) {
	for _, err := range []error{&self{}, fmt.Errorf("w: %w", &self{}), &selfJoin{}, errors.Join(io.EOF, &selfJoin{})} {
		if !errchain.Cut(err) {
			t.Errorf("%T: not cut", err)
		}
		if _, ok := errchain.As[*target](err); ok {
			t.Errorf("%T: As found a target that is not there", err)
		}
	}
	if errchain.Is(&selfJoin{}, io.ErrUnexpectedEOF) {
		t.Error("Is found a target in a self-join")
	}
	tg := &target{7}
	deep := error(tg)
	for range errchain.MaxDepth - 1 {
		deep = fmt.Errorf("w: %w", deep)
	}
	if got, ok := errchain.As[*target](deep); !ok || got != tg || errchain.Cut(deep) {
		t.Errorf("As(%d wraps deep) = %v, %v; cut %v", errchain.MaxDepth-1, got, ok, errchain.Cut(deep))
	}
	if !errchain.Cut(fmt.Errorf("w: %w", deep)) {
		t.Errorf("a tree %d deep is not cut", errchain.MaxDepth+1)
	}
	joined := errors.Join(io.EOF, nil, fmt.Errorf("x: %w", io.ErrUnexpectedEOF))
	if !errchain.Is(joined, io.ErrUnexpectedEOF) || errchain.Is(joined, io.ErrClosedPipe) {
		t.Error("Is disagrees with errors.Is on a join")
	}
	// Comparing two uncomparable errors does not panic: it is no match.
	if errchain.Is(uncomparable{1}, uncomparable{1}) {
		t.Error("Is matched uncomparable values")
	}
}
