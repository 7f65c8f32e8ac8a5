package mcpcore

import (
	"context"
	"net/http"

	"github.com/seed417024ea/mcpcore/internal/httpserve"
)

// catalogSource is the Source of the landing page and the server card: the
// catalog of every definition, built once, as a reader is shown it when the
// page is asked for (see onPage).
func (s *Server) catalogSource(full *httpserve.Catalog) httpserve.Source {
	return func(r *http.Request) *httpserve.Catalog {
		ctx := r.Context()
		c := *full
		c.Tools = shownOf(full.Tools, func(t *httpserve.Tool) bool { return s.onPage(ctx, KindTool, t.Name) })
		c.Resources = shownOf(full.Resources, func(x *httpserve.Resource) bool { return s.onPage(ctx, KindResource, x.URITemplate) })
		c.Prompts = shownOf(full.Prompts, func(p *httpserve.Prompt) bool { return s.onPage(ctx, KindPrompt, p.Name) })
		return &c
	}
}

// onPage reports whether the landing page and the card show a definition:
// not when it is switched off (see [Server.SetEnabled]), which tools/list
// does not list either, unless it is declared [Disabled], which they show
// with why; and only when [ServerOptions.Visible] shows it to a caller
// without a token, since the pages are public.
func (s *Server) onPage(ctx context.Context, kind DefinitionKind, name string) bool {
	d, on := s.switchOf(kind, name)
	if d == nil {
		return true
	}
	if !on && d.why == nil {
		return false
	}
	return s.visibleTo(ctx, nil, &d.info)
}

// shownOf is a new slice of the items of list for which shown holds, in
// their order: list is the catalog's, shared by every reader.
func shownOf[T any](list []T, shown func(*T) bool) []T {
	out := make([]T, 0, len(list))
	for i := range list {
		if shown(&list[i]) {
			out = append(out, list[i])
		}
	}
	return out
}

// disabledOf is why a definition is declared Disabled, for the catalog;
// nil when it is not.
func (s *Server) disabledOf(kind DefinitionKind, name string) *httpserve.Disabled {
	d := s.switches.defs[definitionKey(kind, name)]
	if d == nil || d.why == nil {
		return nil
	}
	return &httpserve.Disabled{Reason: d.why.Reason, Hint: d.why.Hint}
}
