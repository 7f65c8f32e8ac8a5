package schema

import (
	"testing"
)

const (
	benchValid   = `{"query":"asthma inhaled corticosteroids","pmids":["31452104","29658293"],"limit":10,"filter":{"year":2020},"authors":[{"name":"Ada"}]}`
	benchInvalid = `{"query":7,"pmids":["31452104",2],"limt":10,"filter":{"sort":1},"authors":[{"name":1}]}`
)

func benchValidate(b *testing.B, input string, wantIssues int) {
	v := mustValidator(b, mustInput[searchInput](b))
	inst := decode(b, input)
	b.ReportAllocs()
	for b.Loop() {
		if got := len(v.Validate(inst)); got != wantIssues {
			b.Fatalf("%d issues, want %d", got, wantIssues)
		}
	}
}

func benchValidateJSON(b *testing.B, input string, wantIssues int) {
	v := mustValidator(b, mustInput[searchInput](b))
	data := []byte(input)
	b.ReportAllocs()
	for b.Loop() {
		_, issues, err := v.ValidateJSON(data)
		if err != nil || len(issues) != wantIssues {
			b.Fatalf("%v: %d issues, want %d", err, len(issues), wantIssues)
		}
	}
}

// Validate on an already decoded value: the validation cost alone.
func BenchmarkValidateValid(b *testing.B)   { benchValidate(b, benchValid, 0) }
func BenchmarkValidateInvalid(b *testing.B) { benchValidate(b, benchInvalid, 6) }

// ValidateJSON from raw argument bytes: decode, defaults, validate, as
// dispatch does.
func BenchmarkValidateJSONValid(b *testing.B)   { benchValidateJSON(b, benchValid, 0) }
func BenchmarkValidateJSONInvalid(b *testing.B) { benchValidateJSON(b, benchInvalid, 6) }
