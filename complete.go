package mcpcore

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A CompleteFunc suggests values for one argument of a prompt, or one
// variable of a resource template, as the user types (completion/complete):
// value is what the user typed so far, and args holds the values the client
// has already filled in for the other arguments or variables. Return the
// best suggestions first; the client is sent at most 100, MCP's limit.
// An error is sent to the client as a JSON-RPC error, as a prompt's is.
type CompleteFunc func(ctx context.Context, value string, args map[string]string) ([]string, error)

// maxCompletions is the number of suggestions MCP lets a server send in one
// answer; the answer says when there were more.
const maxCompletions = 100

// addCompletions registers the completers of a definition, keyed by
// reference ("ref/prompt:<name>" or "ref/resource:<template>"), after
// checking that each names one of its arguments.
func (s *Server) addCompletions(ref string, complete map[string]CompleteFunc, names []string) error {
	if len(complete) == 0 {
		return nil
	}
	for _, arg := range slices.Sorted(maps.Keys(complete)) {
		if !slices.Contains(names, arg) {
			return fmt.Errorf("the Complete map has a completer for %q, which is not one of %q", arg, names)
		}
		if complete[arg] == nil {
			return fmt.Errorf("the Complete map has a nil completer for %q", arg)
		}
	}
	if s.completions == nil {
		s.completions = map[string]map[string]CompleteFunc{}
	}
	s.completions[ref] = complete
	return nil
}

// completion answers completion/complete. A reference or argument without a
// completer gets no suggestions.
func (s *Server) completion(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	p := req.Params
	res := &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{}}}
	if p == nil || p.Ref == nil {
		return res, nil
	}
	key := p.Ref.Type + ":" + p.Ref.Name
	if p.Ref.Type == "ref/resource" {
		key = p.Ref.Type + ":" + p.Ref.URI
	}
	f := s.completions[key][p.Argument.Name]
	if f == nil || !s.completesFor(ctx, req, p.Ref) {
		return res, nil
	}
	var args map[string]string
	if p.Context != nil {
		args = p.Context.Arguments
	}
	values, err := guard(func() ([]string, error) { return f(ctx, p.Argument.Value, args) })
	total := len(values)
	if len(values) > maxCompletions {
		values, res.Completion.HasMore = values[:maxCompletions], true
	}
	if err == nil {
		size := 0
		for _, v := range values {
			size += len(v)
		}
		err = s.tooLarge("completion answer for "+key, size)
	}
	if err != nil {
		e := failureOf(ctx, "completion", key, err)
		f, _ := newWireError(e)
		// A client can make a completer fail at will: its records are
		// collapsed like every other failure's.
		msg := "mcpcore: a completer failed: " + f.message
		attrs := []slog.Attr{slog.String("ref", key), slog.String("argument", p.Argument.Name), slog.Int("code", int(e.Code()))}
		if s.repeats.Admit("completion "+key, slog.LevelWarn, msg, attrs) {
			s.logger.LogAttrs(context.WithoutCancel(ctx), slog.LevelWarn, msg, attrs...)
		}
		return nil, f.rpcError()
	}
	res.Completion.Total = total
	if values != nil {
		res.Completion.Values = values
	}
	return res, nil
}
