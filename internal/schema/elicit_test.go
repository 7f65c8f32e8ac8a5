package schema

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func schemaJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestElicitationEnums(t *testing.T) {
	type form struct {
		Plain  string   `json:"plain" enum:"a,b"`
		Titled string   `json:"titled" enum:"a,b" enumTitles:"Alpha,Beta"`
		Legacy string   `json:"legacy" enum:"a,b" enumNames:"Alpha,Beta"`
		Multi  []string `json:"multi,omitempty" enum:"a,b"`
		TMulti []string `json:"tmulti,omitempty" enum:"a,b" enumTitles:"Alpha,Beta"`
		Count  int      `json:"count,omitempty" default:"3"`
		OK     bool     `json:"ok,omitempty"`
	}
	s, err := Elicitation(reflect.TypeFor[form]())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"plain":  `{"type":"string","enum":["a","b"]}`,
		"titled": `{"type":"string","oneOf":[{"title":"Alpha","const":"a"},{"title":"Beta","const":"b"}]}`,
		"legacy": `{"type":"string","enum":["a","b"],"enumNames":["Alpha","Beta"]}`,
		"multi":  `{"type":"array","items":{"type":"string","enum":["a","b"]}}`,
		"tmulti": `{"type":"array","items":{"anyOf":[{"title":"Alpha","const":"a"},{"title":"Beta","const":"b"}]}}`,
		"count":  `{"type":"integer","default":3}`,
		"ok":     `{"type":"boolean"}`,
	}
	for name, w := range want {
		if got := schemaJSON(t, s.Properties[name]); got != w {
			t.Errorf("%s = %s, want %s", name, got, w)
		}
	}
	if got := strings.Join(s.Required, ","); got != "plain,titled,legacy" {
		t.Errorf("required = %s", got)
	}
	if s.AdditionalProperties != nil {
		t.Errorf("a form is not closed with additionalProperties: %s", schemaJSON(t, s))
	}
	// The answer is validated against the form.
	v, err := NewValidator(s)
	if err != nil {
		t.Fatal(err)
	}
	if res := v.Check(map[string]any{"plain": "c", "titled": "a", "legacy": "a"}); res.Valid() {
		t.Error("a value outside the enum passed")
	}
	if res := v.Check(map[string]any{"plain": "a", "titled": "b", "legacy": "a", "tmulti": []any{"a", "b"}}); !res.Valid() {
		t.Errorf("a valid answer failed: %v", res.Issues)
	}
}

func TestElicitationRefusesWhatAFormCannotHold(t *testing.T) {
	type nested struct{ X int }
	cases := map[string]struct {
		typ  reflect.Type
		want string
	}{
		"nested struct":     {reflect.TypeFor[struct{ N nested }](), `property "N"`},
		"pointer":           {reflect.TypeFor[struct{ P *string }](), `property "P"`},
		"list of numbers":   {reflect.TypeFor[struct{ L []int }](), `property "L"`},
		"list without enum": {reflect.TypeFor[struct{ L []string }](), `property "L"`},
		"not a struct":      {reflect.TypeFor[map[string]string](), "must be a struct"},
		"titles without enum": {reflect.TypeFor[struct {
			S string `enumTitles:"A"`
		}](), "need an enum tag"},
		"titles miscounted": {reflect.TypeFor[struct {
			S string `enum:"a,b" enumTitles:"A"`
		}](), "1 entries for 2 enum values"},
		"enum on a number": {reflect.TypeFor[struct {
			N int `enum:"1,2"`
		}](), "string or []string"},
		"both title forms": {reflect.TypeFor[struct {
			S string `enum:"a" enumTitles:"A" enumNames:"A"`
		}](), "not both"},
		"enum on a pointer": {reflect.TypeFor[struct {
			S *string `enum:"a,b"`
		}](), "string or []string"},
		"empty enum value": {reflect.TypeFor[struct {
			S string `enum:"a,"`
		}](), "empty entry"},
		"repeated enum value": {reflect.TypeFor[struct {
			S string `enum:"a,a"`
		}](), "twice"},
		"empty title": {reflect.TypeFor[struct {
			S string `enum:"a,b" enumTitles:"A,"`
		}](), "empty entry"},
		"pattern": {reflect.TypeFor[struct {
			S string `pattern:"^a$"`
		}](), "pattern"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := Elicitation(tc.typ)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Elicitation(%v) = %v, want an error containing %q", tc.typ, err, tc.want)
			}
		})
	}
}

// A form carries the keyword tags MCP's elicitation schemas have, and
// refuses the others.
func TestElicitationKeywordTags(t *testing.T) {
	type form struct {
		Email string   `json:"email" format:"email" minLength:"3" maxLength:"100"`
		Age   int      `json:"age" minimum:"0" maximum:"150"`
		Picks []string `json:"picks,omitempty" enum:"a,b,c" minItems:"1" maxItems:"2"`
	}
	s, err := Elicitation(reflect.TypeFor[form]())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := schemaJSON(t, s.Properties["email"]), `{"type":"string","minLength":3,"maxLength":100,"format":"email"}`; got != want {
		t.Errorf("email: %s, want %s", got, want)
	}
	if got, want := schemaJSON(t, s.Properties["picks"]), `{"type":"array","items":{"type":"string","enum":["a","b","c"]},"minItems":1,"maxItems":2}`; got != want {
		t.Errorf("picks: %s, want %s", got, want)
	}
	for _, tc := range []struct {
		typ  reflect.Type
		want string
	}{
		{reflect.TypeFor[struct {
			ID string `json:"id" format:"uuid"`
		}](), `property "id" has format "uuid"`},
		{reflect.TypeFor[struct {
			N int `json:"n" multipleOf:"2"`
		}](), `property "n" has multipleOf`},
		{reflect.TypeFor[struct {
			N float64 `json:"n" exclusiveMinimum:"0"`
		}](), `property "n" has exclusiveMinimum`},
	} {
		if _, err := Elicitation(tc.typ); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Elicitation(%v): err = %v, want %q", tc.typ, err, tc.want)
		}
	}
}
