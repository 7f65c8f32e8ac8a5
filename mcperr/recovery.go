package mcperr

// WithRecovery sets data.recovery.hint: the next move a client (usually a
// model) should make after this failure. The framework renders a non-empty
// hint on both client surfaces: as a "Recovery:" line of the text content and
// inside the structured error. An empty hint sets nothing.
//
// Name a capability the reader can reach, such as another tool of this server,
// never an internal function.
func WithRecovery(hint string) Option {
	return func(e *Error) {
		if hint == "" {
			return
		}
		if e.data == nil {
			e.data = make(map[string]any, 1)
		}
		e.data["recovery"] = map[string]any{"hint": hint}
	}
}

// RecoveryHint returns data.recovery.hint when it is a non-empty string, the
// only form the framework renders; "" for a nil *Error.
func (e *Error) RecoveryHint() string {
	if e == nil {
		return ""
	}
	rec, ok := e.data["recovery"].(map[string]any)
	if !ok {
		return ""
	}
	hint, _ := rec["hint"].(string)
	return hint
}
