package schema

// The dynamic scope of $dynamicRef.
//
// A $dynamicRef whose fragment names a $dynamicAnchor, and whose target as
// a $ref would have that anchor, resolves at validation time: to the
// schema with that anchor in the outermost schema resource (the root, or
// a subschema with $id) that the walk has entered to get there. The
// scope of a walk is a path in a tree of scopeNodes: entering a resource
// goes down one level, unless the resource is already in the scope, where
// entering it again changes no resolution (the outermost one wins). The
// tree is the walk's own, so that a scope is one pointer, which the memo
// keys use; its depth is at most the number of resources in the schema.

// resource is a schema resource of the document: its dynamic anchors.
type resource struct {
	base    string
	dynamic map[string]*compiled
}

// scopeNode is one dynamic scope: the resources of its parents, and res.
type scopeNode struct {
	res      *resource
	parent   *scopeNode
	children map[*resource]*scopeNode
}

// enter returns the scope after entering r from s.
func (s *scopeNode) enter(r *resource) *scopeNode {
	if r == nil {
		return s
	}
	for x := s; x != nil; x = x.parent {
		if x.res == r {
			return s
		}
	}
	child := s.children[r]
	if child == nil {
		if s.children == nil {
			s.children = map[*resource]*scopeNode{}
		}
		child = &scopeNode{res: r, parent: s}
		s.children[r] = child
	}
	return child
}

// dynamicTarget is the node n's $dynamicRef applies in the current scope.
func (w *walker) dynamicTarget(n *compiled) *compiled {
	if n.dynamicName == "" || w.scope == nil {
		return n.dynamicRef
	}
	target := n.dynamicRef
	for s := w.scope; s != nil; s = s.parent {
		if s.res == nil {
			continue
		}
		if t := s.res.dynamic[n.dynamicName]; t != nil {
			target = t // the last found is the outermost
		}
	}
	return target
}
