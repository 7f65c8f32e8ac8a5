package schema

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The official JSON Schema Test Suite, draft 2020-12, vendored in
// testdata/JSON-Schema-Test-Suite from github.com/json-schema-org/
// JSON-Schema-Test-Suite at commit 44401e0c046704b476ec9d2e2fccdaee618f259d
// (its LICENSE beside it): every required test (tests/draft2020-12/*.json),
// and the optional format tests of the formats this package asserts.

const suiteDir = "testdata/JSON-Schema-Test-Suite/tests/draft2020-12"

// suiteGroup is one schema of the suite and the instances it is tried on.
type suiteGroup struct {
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Tests       []struct {
		Description string          `json:"description"`
		Data        json.RawMessage `json:"data"`
		Valid       bool            `json:"valid"`
	} `json:"tests"`
}

// suiteDeviations are the tests this package fails on purpose, each with
// the reason; the suite test checks that they still fail, so that the list
// stays true.
var suiteDeviations = map[string]string{
	// Format is an annotation by default in 2020-12; this package asserts
	// the five formats it knows (see formats.go), which the optional
	// format tests below check.
	"format.json: email format: invalid email string is only an annotation by default":         "asserted format",
	"format.json: date format: invalid date string is only an annotation by default":           "asserted format",
	"format.json: date-time format: invalid date-time string is only an annotation by default": "asserted format",
	"format.json: uri format: invalid uri string is only an annotation by default":             "asserted format",
	"format.json: uuid format: invalid uuid string is only an annotation by default":           "asserted format",
}

// remoteRef is the refusal of a schema that needs a remote document: the
// suite's own server (remotes/, which is not vendored) or a meta-schema.
var remoteRef = regexp.MustCompile(`refusing to load (the meta-schema )?(http://localhost:1234/|https://json-schema\.org/)`)

// suiteCounts are the results of one part of the suite.
type suiteCounts struct {
	pass, deviate, remote, defaultsOff int
}

// runSuite runs the files of the suite and checks every verdict against
// the suite's, but for suiteDeviations.
func runSuite(t *testing.T, files []string) suiteCounts {
	t.Helper()
	var c suiteCounts
	for _, f := range files {
		name := filepath.Base(f)
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var groups []suiteGroup
		if err := json.Unmarshal(data, &groups); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, g := range groups {
			raw := string(g.Schema)
			switch raw { // jsonschema-go writes the boolean schemas so
			case "true":
				raw = "{}"
			case "false":
				raw = `{"not":{}}`
			}
			s := schemaFromJSON(t, raw)
			v, err := NewValidator(s)
			switch {
			case err != nil && remoteRef.MatchString(err.Error()):
				c.remote += len(g.Tests)
				continue
			case err != nil && strings.Contains(err.Error(), "the default at"):
				// NewValidator refuses a default that fails its own
				// schema (ValidateJSON would fill it in); validation
				// itself takes default as the annotation it is.
				if v, err = newValidator(s); err != nil {
					t.Fatalf("%s: %s: %v", name, g.Description, err)
				}
				c.defaultsOff += len(g.Tests)
			case err != nil:
				t.Errorf("%s: %s: NewValidator: %v", name, g.Description, err)
				continue
			}
			for _, tc := range g.Tests {
				key := name + ": " + g.Description + ": " + tc.Description
				inst, err := decodeJSON(tc.Data)
				if err != nil {
					t.Fatalf("%s: %v", key, err)
				}
				got := v.Check(inst).Valid()
				_, deviation := suiteDeviations[key]
				switch {
				case got == tc.Valid && deviation:
					t.Errorf("%s: passes now: remove it from suiteDeviations", key)
				case got == tc.Valid:
					c.pass++
				case deviation:
					c.deviate++
				default:
					t.Errorf("%s: valid %v, want %v", key, got, tc.Valid)
				}
			}
		}
	}
	return c
}

func TestJSONSchemaTestSuite(t *testing.T) {
	required, err := filepath.Glob(filepath.Join(suiteDir, "*.json"))
	if err != nil || len(required) == 0 {
		t.Fatalf("no suite files: %v", err)
	}
	c := runSuite(t, required)
	t.Logf("required: %d of %d pass (%d with the check of defaults off), %d deviations; %d need a remote document",
		c.pass, c.pass+c.deviate, c.defaultsOff, c.deviate, c.remote)
	if c.remote != 53 {
		t.Errorf("%d tests need a remote document, want 53", c.remote)
	}

	var formats []string
	for _, f := range formatNames() {
		formats = append(formats, filepath.Join(suiteDir, "optional/format", f+".json"))
	}
	c = runSuite(t, formats)
	t.Logf("formats %v: %d of %d pass", formatNames(), c.pass, c.pass+c.deviate)
}
