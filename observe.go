package mcpcore

// observe tells the server's Observer of an admitted call, and runs the
// call in the context it returns, which carries the call's span. The SDK
// does not hand the JSON-RPC id to handlers: CallInfo.RequestID stays
// unset rather than carry another id.
func (s *Server) observe(c *callState) {
	defer func() { _ = recover() }() // telemetry is not worth a call
	cc := c.ctx
	info := CallInfo{Kind: c.kind, Name: c.name, URI: cc.uri, Template: c.template,
		Transport: s.transport, ProtocolVersion: c.version, Meta: c.meta, InputBytes: c.inputBytes}
	if cc.session != nil {
		info.SessionID = cc.session.ID()
	}
	if c.extra != nil {
		info.Header = c.extra.Header
	}
	ctx, observed := s.observer.StartCall(cc.ctx, info)
	c.observed, cc.ctx = observed, ctx
}

// becameTask tells the call's observation, if it wants to know, that the
// call became task id.
func (s *Server) becameTask(c *callState, id string) {
	if t, ok := c.observed.(TaskObservation); ok {
		defer func() { _ = recover() }() // telemetry is not worth a task
		t.BecameTask(id)
	}
}

// record ends the call's observation, once: its span and metric points. A
// declared severity is told apart (mcpotel adds mcp.error.severity to
// mcp.errors.classified) and changes nothing else.
func (s *Server) record(c *callState, f *wireError, original error, outputBytes int) {
	defer func() { _ = recover() }() // telemetry is not worth a call
	o := CallOutcome{OutputBytes: outputBytes, Messages: c.messages}
	if f != nil {
		// The message the client got, as the log record has it: one
		// scrubbed text on every surface.
		o.Failed, o.Code, o.Message, o.Cause = true, f.err.Code(), f.message, original
		if d, ok := declaredFailure(c.contract, f.err); ok && c.kind == "tool" && d.Severity != SeverityError {
			o.Severity = d.Severity
		}
	}
	c.observed.End(o)
}

// traceIDs are the ids of the trace and span the call's context carries,
// for its log records; "" without an Observer.
func (c *Context) traceIDs() (traceID, spanID string) {
	if c.srv == nil || c.srv.observer == nil {
		return "", ""
	}
	defer func() { _ = recover() }() // telemetry is not worth a record
	return c.srv.observer.TraceIDs(c.ctx)
}
