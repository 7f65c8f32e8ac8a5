package schemacompare

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	santhosh "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/seed417024ea/mcpcore/internal/schema"
	"github.com/xeipuuv/gojsonschema"
)

// order is a tool input of 20 fields, with the constraints a tool author
// writes: lengths, patterns, formats, an enum, bounds, multipleOf,
// uniqueItems, a nested object and a list of objects.
type order struct {
	ID       string   `json:"id" pattern:"^[A-Z]{2}[0-9]{6}$"`
	Customer string   `json:"customer" minLength:"1" maxLength:"80"`
	Email    string   `json:"email" format:"email"`
	Website  string   `json:"website,omitempty" format:"uri"`
	Placed   string   `json:"placed" format:"date-time"`
	Ship     string   `json:"ship" format:"date"`
	Ref      string   `json:"ref" format:"uuid"`
	Status   string   `json:"status" enum:"new,paid,shipped,cancelled"`
	Quantity int      `json:"quantity" minimum:"1" maximum:"1000"`
	Price    float64  `json:"price" minimum:"0" multipleOf:"0.01"`
	Discount float64  `json:"discount,omitempty" minimum:"0" maximum:"1"`
	Tags     []string `json:"tags" maxItems:"10" uniqueItems:"true" maxLength:"20"`
	Notes    string   `json:"notes,omitempty" maxLength:"500"`
	Gift     bool     `json:"gift"`
	Priority int      `json:"priority" minimum:"0" maximum:"9"`
	Country  string   `json:"country" pattern:"^[A-Z]{2}$"`
	Postcode string   `json:"postcode" minLength:"3" maxLength:"10"`
	Lines    []line   `json:"lines" minItems:"1" maxItems:"50"`
	Address  address  `json:"address"`
	Coupon   string   `json:"coupon,omitempty" maxLength:"16"`
}

type line struct {
	SKU string `json:"sku" pattern:"^[A-Z0-9-]+$"`
	Qty int    `json:"qty" minimum:"1"`
}

type address struct {
	Street string `json:"street" minLength:"1"`
	City   string `json:"city" minLength:"1"`
}

const (
	valid = `{"id":"AB123456","customer":"Ada Lovelace","email":"ada@example.com","website":"https://example.com/ada",
		"placed":"2026-12-03T10:15:00Z","ship":"2026-12-05","ref":"123e4567-e89b-12d3-a456-426614174000","status":"paid",
		"quantity":3,"price":19.99,"discount":0.1,"tags":["gift","express"],"notes":"Leave at the door","gift":true,
		"priority":2,"country":"GB","postcode":"SW1A1AA","lines":[{"sku":"BK-001","qty":1},{"sku":"PN-42","qty":2}],
		"address":{"street":"1 Main St","city":"London"},"coupon":"WINTER"}`
	// invalid has six mistakes: a pattern, a format, an enum, a bound,
	// a duplicate tag and a nested type.
	invalid = `{"id":"ab123","customer":"Ada Lovelace","email":"ada.example.com","website":"https://example.com/ada",
		"placed":"2026-12-03T10:15:00Z","ship":"2026-12-05","ref":"123e4567-e89b-12d3-a456-426614174000","status":"lost",
		"quantity":0,"price":19.99,"discount":0.1,"tags":["gift","gift"],"notes":"Leave at the door","gift":true,
		"priority":2,"country":"GB","postcode":"SW1A1AA","lines":[{"sku":"BK-001","qty":"1"},{"sku":"PN-42","qty":2}],
		"address":{"street":"1 Main St","city":"London"},"coupon":"WINTER"}`
)

// validator is one library's way to validate JSON bytes, and an already
// decoded value of its own kind.
type validator struct {
	name    string
	bytes   func(data []byte) (bool, error)
	decode  func(data []byte) (any, error)
	decoded func(v any) bool
}

func validators(tb testing.TB) []validator {
	s, err := schema.Input(reflect.TypeFor[order]())
	if err != nil {
		tb.Fatal(err)
	}
	raw, err := json.Marshal(s)
	if err != nil {
		tb.Fatal(err)
	}
	ours, err := schema.NewValidator(s)
	if err != nil {
		tb.Fatal(err)
	}

	c := santhosh.NewCompiler()
	c.AssertFormat()
	doc, err := santhosh.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		tb.Fatal(err)
	}
	if err := c.AddResource("schema.json", doc); err != nil {
		tb.Fatal(err)
	}
	sv, err := c.Compile("schema.json")
	if err != nil {
		tb.Fatal(err)
	}

	gs, err := gojsonschema.NewSchema(gojsonschema.NewBytesLoader(raw))
	if err != nil {
		tb.Fatal(err)
	}
	decodeStd := func(data []byte) (any, error) {
		var v any
		err := json.Unmarshal(data, &v)
		return v, err
	}
	return []validator{
		{
			name: "mcpcore",
			bytes: func(data []byte) (bool, error) {
				_, res, err := ours.CheckJSON(data)
				return res.Valid(), err
			},
			decode:  decodeStd,
			decoded: func(v any) bool { return ours.Check(v).Valid() },
		},
		{
			name: "santhosh-tekuri/jsonschema/v6",
			bytes: func(data []byte) (bool, error) {
				v, err := santhosh.UnmarshalJSON(bytes.NewReader(data))
				if err != nil {
					return false, err
				}
				return sv.Validate(v) == nil, nil
			},
			decode:  func(data []byte) (any, error) { return santhosh.UnmarshalJSON(bytes.NewReader(data)) },
			decoded: func(v any) bool { return sv.Validate(v) == nil },
		},
		{
			name: "xeipuuv/gojsonschema",
			bytes: func(data []byte) (bool, error) {
				r, err := gs.Validate(gojsonschema.NewBytesLoader(data))
				if err != nil {
					return false, err
				}
				return r.Valid(), nil
			},
			decode: decodeStd,
			decoded: func(v any) bool {
				r, err := gs.Validate(gojsonschema.NewGoLoader(v))
				return err == nil && r.Valid()
			},
		},
	}
}

// The three agree on both inputs, so that the figures compare the same
// work.
func TestAgree(t *testing.T) {
	for _, v := range validators(t) {
		for _, in := range []struct {
			data string
			want bool
		}{{valid, true}, {invalid, false}} {
			got, err := v.bytes([]byte(in.data))
			if err != nil || got != in.want {
				t.Errorf("%s: valid %v (%v), want %v", v.name, got, err, in.want)
			}
			x, err := v.decode([]byte(in.data))
			if err != nil || v.decoded(x) != in.want {
				t.Errorf("%s, decoded: want %v", v.name, in.want)
			}
		}
	}
}

// BenchmarkValidate validates the valid and the invalid input with each
// library: from the decoded value (the validation alone) and from the
// bytes (decoding included, as a server does).
func BenchmarkValidate(b *testing.B) {
	for _, v := range validators(b) {
		for _, in := range []struct{ name, data string }{{"valid", valid}, {"invalid", invalid}} {
			data := []byte(in.data)
			x, err := v.decode(data)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(v.name+"/decoded/"+in.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					v.decoded(x)
				}
			})
			b.Run(v.name+"/bytes/"+in.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := v.bytes(data); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

var ratios = flag.Bool("ratios", false, "measure every library in turn, in rounds, and print each one's time as a ratio to mcpcore's")

// TestRatios prints, with -ratios, each library's time per validation
// against mcpcore's, side by side from one run: rounds of every case in
// turn, the median of each.
func TestRatios(t *testing.T) {
	if !*ratios {
		t.Skip("run with -ratios")
	}
	const rounds = 7
	vs := validators(t)
	type key struct{ lib, how, input string }
	ns := map[key][]float64{}
	allocs := map[key]int64{}
	for range rounds {
		for _, v := range vs {
			for _, in := range []struct{ name, data string }{{"valid", valid}, {"invalid", invalid}} {
				data := []byte(in.data)
				x, _ := v.decode(data)
				for _, how := range []string{"decoded", "bytes"} {
					r := testing.Benchmark(func(b *testing.B) {
						b.ReportAllocs()
						for b.Loop() {
							if how == "decoded" {
								v.decoded(x)
							} else {
								v.bytes(data)
							}
						}
					})
					k := key{v.name, how, in.name}
					ns[k] = append(ns[k], float64(r.NsPerOp()))
					allocs[k] = r.AllocsPerOp()
				}
			}
		}
	}
	median := func(k key) float64 {
		s := slices.Clone(ns[k])
		slices.Sort(s)
		return s[len(s)/2]
	}
	var out strings.Builder
	fmt.Fprintf(&out, "\n| library | input | validation alone: µs, allocs | ÷ mcpcore | from bytes: µs, allocs | ÷ mcpcore |\n|---|---|---|---|---|---|\n")
	for _, v := range vs {
		for _, in := range []string{"valid", "invalid"} {
			d, b := key{v.name, "decoded", in}, key{v.name, "bytes", in}
			od, ob := key{"mcpcore", "decoded", in}, key{"mcpcore", "bytes", in}
			fmt.Fprintf(&out, "| %s | %s | %.1f, %d | %.1f | %.1f, %d | %.1f |\n", v.name, in,
				median(d)/1000, allocs[d], median(d)/median(od), median(b)/1000, allocs[b], median(b)/median(ob))
		}
	}
	t.Log(out.String())
}
