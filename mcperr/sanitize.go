package mcperr

import (
	"reflect"

	"github.com/seed417024ea/mcpcore/internal/redact"
)

// sanitizeInput returns a copy of v fit for a log record: every value under a
// sensitive map key (see redact.Key), at any depth, is replaced by the string
// "[REDACTED]", and the strings inside are scrubbed of secrets (redact.Tree).
//
// Scalars (strings, numbers, booleans, nil) are returned unchanged. Anything
// else (structs, maps, slices, pointers) goes through encoding/json into
// map[string]any and []any values (redact.JSON), so struct fields appear
// under their JSON names and json:"-" fields are left out; numbers inside
// become json.Number, which keeps them exact. A value that cannot be
// marshalled (a channel, a func, a cycle) becomes the string
// "[unloggable input: <error>]": logging must never fail because of what it
// logs.
func sanitizeInput(v any) any {
	if v == nil {
		return nil
	}
	switch reflect.TypeOf(v).Kind() {
	case reflect.Bool, reflect.String,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return v
	}
	out, err := redact.JSON(v)
	if err != nil {
		return "[unloggable input: " + err.Error() + "]"
	}
	return out
}
