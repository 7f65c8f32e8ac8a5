package mcperr

import (
	"fmt"
	"slices"
	"testing"
)

// codeTable is every code of the package with the properties the reference
// (§1) gives it; the tests below hold code.go to it.
var codeTable = []struct {
	code      Code
	value     int32
	name      string
	category  Category
	transient bool
}{
	{CodeParseError, -32700, "ParseError", CategoryClient, false},
	{CodeInvalidRequest, -32600, "InvalidRequest", CategoryClient, false},
	{CodeMethodNotFound, -32601, "MethodNotFound", CategoryClient, false},
	{CodeInvalidParams, -32602, "InvalidParams", CategoryClient, false},
	{CodeInternalError, -32603, "InternalError", CategoryServer, false},
	{CodeServiceUnavailable, -32000, "ServiceUnavailable", CategoryUpstream, true},
	{CodeNotFound, -32001, "NotFound", CategoryClient, false},
	{CodeConflict, -32002, "Conflict", CategoryClient, false},
	{CodeRateLimited, -32003, "RateLimited", CategoryUpstream, true},
	{CodeTimeout, -32004, "Timeout", CategoryUpstream, true},
	{CodeForbidden, -32005, "Forbidden", CategoryClient, false},
	{CodeUnauthorized, -32006, "Unauthorized", CategoryClient, false},
	{CodeValidationError, -32007, "ValidationError", CategoryClient, false},
	{CodeConfigurationError, -32008, "ConfigurationError", CategoryServer, false},
	{CodeInitializationFailed, -32009, "InitializationFailed", CategoryServer, false},
	{CodeDatabaseError, -32010, "DatabaseError", CategoryServer, false},
	{CodeRequestCancelled, -32011, "RequestCancelled", CategoryClient, false},
	{CodeMissingClientCapability, -32021, "MissingClientCapability", CategoryClient, false},
	{CodeSerializationError, -32070, "SerializationError", CategoryServer, false},
	{CodeUnknownError, -32099, "UnknownError", CategoryServer, false},
}

func TestCodeTable(t *testing.T) {
	for _, tc := range codeTable {
		t.Run(tc.name, func(t *testing.T) {
			if int32(tc.code) != tc.value {
				t.Errorf("value = %d, want %d", int32(tc.code), tc.value)
			}
			if got := tc.code.String(); got != tc.name {
				t.Errorf("String() = %q, want %q", got, tc.name)
			}
			if !tc.code.Known() {
				t.Error("Known() = false, want true")
			}
			if got := tc.code.Category(); got != tc.category {
				t.Errorf("Category() = %q, want %q", got, tc.category)
			}
			if got := tc.code.Transient(); got != tc.transient {
				t.Errorf("Transient() = %v, want %v", got, tc.transient)
			}
			if got, ok := CodeByName(tc.name); !ok || got != tc.code {
				t.Errorf("CodeByName(%q) = %v, %v; want %v, true", tc.name, got, ok, tc.code)
			}
		})
	}
}

func TestCodesMatchesTable(t *testing.T) {
	var want []Code
	for _, tc := range codeTable {
		want = append(want, tc.code)
	}
	got := Codes()
	if !slices.Equal(got, want) {
		t.Fatalf("Codes() = %v, want %v", got, want)
	}
	// Codes returns a copy: a caller that edits it must not edit the table.
	got[0] = 1
	if Codes()[0] != CodeParseError {
		t.Error("editing the result of Codes() changed the next result")
	}
}

func TestUnknownCode(t *testing.T) {
	for _, c := range []Code{0, 1, -1, -32099 + 1, -32768, 404, Code(-1 << 31)} {
		if c.Known() {
			t.Errorf("%d: Known() = true, want false", int32(c))
		}
		// A peer may send any code: its String is the number, so logs show it.
		if got, want := c.String(), fmt.Sprint(int32(c)); got != want {
			t.Errorf("%d: String() = %q, want %q", int32(c), got, want)
		}
		if got := c.Category(); got != CategoryClient {
			t.Errorf("%d: Category() = %q, want client", int32(c), got)
		}
		if c.Transient() {
			t.Errorf("%d: Transient() = true, want false", int32(c))
		}
	}
}

func TestCodeByNameMisses(t *testing.T) {
	// Names are exact: no case folding, no numbers, no prefix.
	for _, name := range []string{"", "notfound", "NOTFOUND", "-32001", "CodeNotFound", "NotFound ", "Unknown"} {
		if c, ok := CodeByName(name); ok {
			t.Errorf("CodeByName(%q) = %v, true; want a miss", name, c)
		}
	}
}

func TestTransientSet(t *testing.T) {
	// The retry helper retries exactly these (§9.4); pin the set itself, not
	// only each row, so a new transient code shows up here.
	var got []Code
	for _, c := range Codes() {
		if c.Transient() {
			got = append(got, c)
		}
	}
	want := []Code{CodeServiceUnavailable, CodeRateLimited, CodeTimeout}
	if !slices.Equal(got, want) {
		t.Errorf("transient codes = %v, want %v", got, want)
	}
}
