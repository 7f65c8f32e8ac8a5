// Package mcpcore is a trimmed stub of mcpcore: the API surface the raises
// analyzer reads, with the same names and signatures.
package mcpcore

import (
	"context"

	"github.com/seed417024ea/mcpcore/mcperr"
)

type ThrownBy string

const (
	ThrownByHandler ThrownBy = ""
	ThrownByService ThrownBy = "service"
)

type Failure struct {
	Reason   string
	Code     mcperr.Code
	When     string
	Recovery string
	ThrownBy ThrownBy
}

type Context struct{ context.Context }

func (c *Context) Fail(f Failure, message string, opts ...mcperr.Option) *mcperr.Error {
	return mcperr.New(f.Code, message, opts...)
}

func (c *Context) RecoveryFor(f Failure) mcperr.Option { return nil }

func RecoveryFor(ctx context.Context, reason string) mcperr.Option { return nil }

type Tool[In, Out any] struct {
	Name    string
	Errors  []Failure
	Handler func(ctx *Context, in In) (Out, error)
}
