package schema

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// The types below are the kind of structs a tool author writes.

type searchInput struct {
	Query   string   `json:"query" jsonschema:"Search terms, in PubMed syntax"`
	PMIDs   []string `json:"pmids" jsonschema:"PubMed IDs to restrict the search to"`
	Limit   int      `json:"limit,omitempty" jsonschema:"Maximum number of results"`
	Page    uint8    `json:"page,omitempty"`
	Filter  *filter  `json:"filter,omitempty"`
	Authors []author `json:"authors,omitempty"`
	Fail    bool     `json:"fail,omitempty"`
}

type filter struct {
	Year int    `json:"year"`
	Sort string `json:"sort,omitempty"`
}

type author struct {
	Name  string `json:"name"`
	ORCID string `json:"orcid,omitempty"`
}

type searchOutput struct {
	Articles []article `json:"articles"`
	Total    int       `json:"total"`
	Note     string    `json:"note,omitempty"`
}

type article struct {
	PMID  string `json:"pmid"`
	Title string `json:"title"`
}

// node is recursive through a slice and a pointer.
type node struct {
	Name     string `json:"name"`
	Kind     string `json:"kind,omitempty"`
	Children []node `json:"children,omitempty"`
	Parent   *node  `json:"parent,omitempty" jsonschema:"The parent node"`
}

// dept and employee are mutually recursive.
type dept struct {
	Name string    `json:"name"`
	Head *employee `json:"head,omitempty"`
}

type employee struct {
	Name string `json:"name"`
	Dept dept   `json:"dept"`
}

func mustInput[T any](t testing.TB) *jsonschema.Schema {
	t.Helper()
	s, err := Input(reflect.TypeFor[T]())
	if err != nil {
		t.Fatalf("Input: %v", err)
	}
	return s
}

func mustOutput[T any](t testing.TB) *jsonschema.Schema {
	t.Helper()
	s, err := Output(reflect.TypeFor[T]())
	if err != nil {
		t.Fatalf("Output: %v", err)
	}
	return s
}

func mustValidator(t testing.TB, s *jsonschema.Schema) *Validator {
	t.Helper()
	v, err := NewValidator(s)
	if err != nil {
		t.Fatalf("NewValidator: %v", err)
	}
	return v
}

// decode decodes JSON the way the SDK hands arguments over: plain
// encoding/json into any (float64 numbers).
func decode(t testing.TB, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("decoding %s: %v", s, err)
	}
	return v
}

func marshal(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func schemaFromJSON(t testing.TB, s string) *jsonschema.Schema {
	t.Helper()
	var sch jsonschema.Schema
	if err := json.Unmarshal([]byte(s), &sch); err != nil {
		t.Fatalf("decoding schema: %v", err)
	}
	return &sch
}
