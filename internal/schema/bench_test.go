package schema

import (
	"context"
	"fmt"
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

// BenchmarkValidateManyIssues validates {"query":"q","pmids":[0,1,…]} with n
// numbers where strings are wanted: n issues, the request of issue 6. Beyond
// MaxIssues the cost of validation must stay flat:
//
//   - validate: the validation alone, on the decoded value; flat.
//   - Check: the same through the public call, which first walks the value
//     to learn whether it is decoded JSON and how deep it is: linear in
//     the size of the value, without allocating.
//   - decode: decoding the arguments, as CheckJSON does; linear in their
//     size, and unavoidable.
//   - CheckJSON: what dispatch pays, decode included.
//   - unbounded: the walk that keeps every issue and never stops, the
//     reference of the tests; it grows with n (so it stops earlier).
func BenchmarkValidateManyIssues(b *testing.B) {
	v := mustValidator(b, mustInput[searchInput](b))
	for _, n := range []int{100, 1_000, 10_000, 100_000, 1_000_000} {
		data := mistypedPMIDs(n)
		inst, err := decodeJSON(data)
		if err != nil {
			b.Fatal(err)
		}
		wantIssues := min(n, MaxIssues)
		b.Run(fmt.Sprintf("validate/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if res, _, _ := v.check(context.Background(), inst, n); len(res.Issues) != wantIssues {
					b.Fatalf("%d issues", len(res.Issues))
				}
			}
		})
		b.Run(fmt.Sprintf("Check/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if res := v.Check(inst); len(res.Issues) != wantIssues {
					b.Fatalf("%d issues", len(res.Issues))
				}
			}
		})
		b.Run(fmt.Sprintf("decode/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := decodeJSON(data); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("CheckJSON/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, res, err := v.CheckJSON(data); err != nil || len(res.Issues) != wantIssues {
					b.Fatalf("%v: %d issues", err, len(res.Issues))
				}
			}
		})
		if n > 100_000 {
			continue
		}
		b.Run(fmt.Sprintf("unbounded/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if issues := fullIssues(b, v, inst); len(issues) != n {
					b.Fatalf("%d issues", len(issues))
				}
			}
		})
	}
}
