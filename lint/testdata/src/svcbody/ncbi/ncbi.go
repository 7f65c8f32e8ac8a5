// Package ncbi is a service a handler of package svcbody calls: the
// errors it builds with mcperr reach the client through that handler, and
// are judged here, where they are built.
package ncbi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"strconv"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

type Client struct{ HTTP *http.Client }

// Fetch stringifies the upstream error into the client's message.
func (c *Client) Fetch(ctx context.Context, id string) ([]byte, error) {
	resp, err := c.HTTP.Get("https://eutils.ncbi.nlm.nih.gov/" + id)
	if err != nil {
		return nil, mcperr.ServiceUnavailable(fmt.Sprintf("NCBI request failed: %v", err), mcperr.WithCause(err)) // want `no-stringify-upstream-error: the message is built from %v of err`
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, mcperr.ServiceUnavailable("NCBI sent a truncated answer", mcperr.WithCause(err))
	}
	if resp.StatusCode != http.StatusOK {
		return nil, mcperr.ServiceUnavailable("NCBI said: " + string(body)) // want `no-stringify-upstream-error: the message is built from string\(body\)`
	}
	return body, nil
}

// Lookup drops the cause of the error it translates.
func Lookup(id string) (int, error) {
	n, err := strconv.Atoi(id)
	if err != nil {
		return 0, mcperr.NotFound("no such id") // want `preserve-cause-on-rethrow: the error returned when err != nil drops it`
	}
	if n < 0 {
		return 0, mcperr.New(mcperr.CodeNotFound, "negative id") // prefer-error-factory is a handler rule
	}
	return n, nil
}

// LookupKept keeps it, three ways.
func LookupKept(ctx *mcpcore.Context, entry mcpcore.Failure, id string) (int, error) {
	n, err := strconv.Atoi(id)
	if err != nil && id == "" {
		return 0, fmt.Errorf("parse %q: %w", id, err)
	}
	if err != nil {
		return 0, mcperr.NotFound("no such id", mcperr.WithCause(err))
	}
	if err != nil {
		return 0, ctx.Fail(entry, "No such id", mcperr.WithCause(err), ctx.RecoveryFor(entry))
	}
	return n, nil
}

// FailHere is a service given the handler's context: its ctx.Fail is
// judged as a handler's would be.
func FailHere(ctx *mcpcore.Context, entry mcpcore.Failure, id string) error {
	if _, err := strconv.Atoi(id); err != nil {
		return ctx.Fail(entry, "Bad id "+err.Error(), ctx.RecoveryFor(entry)) // want `preserve-cause-on-rethrow` `no-stringify-upstream-error: the message is built from err.Error\(\)`
	}
	return nil
}

// Parse is plain Go code: how it builds and wraps its errors is not
// mcplint's to judge, outside a handler.
func Parse(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, errors.New("not a number")
	}
	if err != nil {
		return 0, fmt.Errorf("parse %q: %v", s, err)
	}
	return n, nil
}

// Warn builds an mcperr error only to log it: nothing reaches a client.
func Warn(err error) {
	if err != nil {
		log.Print(mcperr.ServiceUnavailable("upstream: " + err.Error()))
	}
}

// Retry's callback is a func literal, which is not read, as in a handler.
func Retry(ctx context.Context, c *Client, id string) ([]byte, error) {
	return mcperr.Retry(ctx, mcperr.RetryOptions{}, func(ctx context.Context) ([]byte, error) {
		b, err := c.Fetch(ctx, id)
		if err != nil {
			return nil, mcperr.ServiceUnavailable("retry: " + err.Error())
		}
		return b, nil
	})
}

// A sentinel translated without the error it was matched from keeps
// nothing worth keeping: the check is not err != nil.
var ErrGone = errors.New("gone")

func Translate(err error) error {
	if errors.Is(err, ErrGone) {
		return mcperr.NotFound("the item is gone")
	}
	return err
}

// A suppressed finding, with its reason.
func Legacy(err error) error {
	if err != nil {
		return mcperr.ServiceUnavailable("legacy: "+err.Error(), mcperr.WithCause(err)) //mcplint:ignore no-stringify-upstream-error the upstream's text is public and the legacy client parses it
	}
	return nil
}
