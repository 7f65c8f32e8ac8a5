package raises

import (
	"slices"
	"testing"

	"github.com/seed417024ea/mcpcore/mcperr"
)

func TestWrappedArgs(t *testing.T) {
	for _, tt := range []struct {
		format string
		want   []int
	}{
		{"no verbs", nil},
		{"%v", nil},
		{"%w", []int{0}},
		{"%s: %w", []int{1}},
		{"%w and %w", []int{0, 1}},
		{"100%% %w", []int{0}},
		{"%-10s %+v %#x %w", []int{3}},
		{"%*d %w", []int{2}},         // * takes an argument
		{"%.*f %w", []int{2}},        // so does .*
		{"%6.2f %w", []int{1}},       // widths and precisions do not
		{"%[2]w %[1]v", []int{1}},    // explicit indexes
		{"%[1]v %w", []int{1}},       // the next verb follows the index
		{"%[x]w", nil},               // unreadable: nothing is claimed
		{"%[0]w", nil},               // indexes start at 1
		{"trailing %", nil},          // an incomplete verb
		{"%ü %w", []int{1}},          // a verb that is not ASCII
		{"%[3]*.[2]*[1]w", []int{0}}, // index before every part
	} {
		if got := wrappedArgs(tt.format); !slices.Equal(got, tt.want) {
			t.Errorf("wrappedArgs(%q) = %v, want %v", tt.format, got, tt.want)
		}
	}
}

// TestResponseCodes checks the codes FromResponse can give against a few
// statuses: a rule that trusts this list must not miss one.
func TestResponseCodes(t *testing.T) {
	for _, status := range []int{400, 401, 403, 404, 408, 409, 418, 422, 429, 500, 502, 503, 504, 599} {
		code, _ := mcperr.CodeForHTTPStatus(status)
		if !slices.Contains(ResponseCodes, code) {
			t.Errorf("ResponseCodes lacks %v, the code of status %d", code, status)
		}
	}
	if !slices.Contains(ResponseCodes, mcperr.CodeInternalError) {
		t.Error("ResponseCodes lacks InternalError, the code of no response")
	}
	if slices.Contains(ResponseCodes, mcperr.CodeDatabaseError) {
		t.Error("ResponseCodes holds DatabaseError, which no status gives")
	}
}
