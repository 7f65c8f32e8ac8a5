package redact

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// A corpusEntry is one line of a labelled corpus file: the text, and the
// secrets marked in it (none in the ordinary corpus).
type corpusEntry struct {
	line    int
	text    string
	secrets []string
}

// readCorpus reads a corpus file of testdata/corpus: one entry a line, "#"
// comments and blank lines skipped; ⏎ stands for a line break, «U+XXXX» for
// that character, and ⟦…⟧ marks a secret.
func readCorpus(t *testing.T, name string) []corpusEntry {
	t.Helper()
	b, err := os.ReadFile("testdata/corpus/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var out []corpusEntry
	for n, line := range strings.Split(string(b), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.ReplaceAll(line, "⏎", "\n")
		for {
			i := strings.Index(line, "«U+")
			if i < 0 {
				break
			}
			j := strings.Index(line[i:], "»")
			r, err := strconv.ParseUint(line[i+len("«U+"):i+j], 16, 32)
			if j < 0 || err != nil {
				t.Fatalf("%s:%d: bad «U+…»", name, n+1)
			}
			line = line[:i] + string(rune(r)) + line[i+j+len("»"):]
		}
		e := corpusEntry{line: n + 1}
		var text strings.Builder
		for {
			i := strings.Index(line, "⟦")
			if i < 0 {
				break
			}
			j := strings.Index(line, "⟧")
			if j < i {
				t.Fatalf("%s:%d: unbalanced ⟦⟧", name, n+1)
			}
			text.WriteString(line[:i])
			secret := line[i+len("⟦") : j]
			e.secrets = append(e.secrets, secret)
			text.WriteString(secret)
			line = line[j+len("⟧"):]
		}
		text.WriteString(line)
		e.text = text.String()
		out = append(out, e)
	}
	return out
}

// secretPieces are the parts of a secret that must not survive: the whole,
// and each of its lines (raw or escaped as \n in JSON text) of 8 bytes or
// more, so that a multi-line secret is not let through a line at a time.
func secretPieces(secret string) []string {
	pieces := []string{secret}
	for _, p := range strings.FieldsFunc(strings.ReplaceAll(secret, `\n`, "\n"), func(r rune) bool { return r == '\n' }) {
		if p = strings.TrimSpace(p); len(p) >= 8 && p != secret {
			pieces = append(pieces, p)
		}
	}
	return pieces
}

// marshal encodes v as the wire does, without escaping <, > and &, so that
// a secret's bytes are found as they are.
func marshalPlain(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "unencodable: " + err.Error()
	}
	return b.String()
}

// decodeJSON decodes a JSON text as encoding/json does, or reports false.
func decodeJSON(text string) (any, bool) {
	if !json.Valid([]byte(text)) {
		return nil, false
	}
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		return nil, false
	}
	return v, true
}

// scrubbedForms are what each surface makes of text: String always, and
// for JSON text Encoded, Value, Tree and Copy of its decoded value, each
// as the JSON text it would send.
func scrubbedForms(text string) map[string]string {
	forms := map[string]string{"String": String(text)}
	v, ok := decodeJSON(text)
	if !ok {
		return forms
	}
	if out, _, err := Encoded([]byte(text)); err == nil {
		forms["Encoded"] = string(out)
	} else {
		forms["Encoded"] = "error: " + err.Error()
	}
	if out, _, ok := Value(v); ok {
		forms["Value"] = string(out)
	} else {
		forms["Value"] = "refused"
	}
	forms["Copy"] = marshalPlain(Copy(v))
	w, _ := decodeJSON(text)
	forms["Tree"] = marshalPlain(Tree(w))
	return forms
}

// TestCorpus runs the labelled corpus through every surface: each secret
// must be gone from every output, and each ordinary entry must come out as
// it went in. The figures are logged (go test -run TestCorpus -v).
func TestCorpus(t *testing.T) {
	secrets := readCorpus(t, "secrets.txt")
	nSecrets, caught, jsonSecrets, jsonCaught := 0, 0, 0, 0
	for _, e := range secrets {
		if len(e.secrets) == 0 {
			t.Errorf("secrets.txt:%d: no secret marked", e.line)
			continue
		}
		forms := scrubbedForms(e.text)
		for _, s := range e.secrets {
			nSecrets++
			leaked := ""
			for surface, out := range forms {
				for _, p := range secretPieces(s) {
					if strings.Contains(out, p) {
						leaked += fmt.Sprintf("\n\t%s: %q", surface, out)
						break
					}
				}
			}
			if len(forms) > 1 {
				jsonSecrets++
			}
			if leaked != "" {
				t.Errorf("secrets.txt:%d: secret %.40q survives%s", e.line, s, leaked)
				continue
			}
			caught++
			if len(forms) > 1 {
				jsonCaught++
			}
		}
	}

	ordinary := readCorpus(t, "ordinary.txt")
	kept, jsonEntries, jsonKept := 0, 0, 0
	for _, e := range ordinary {
		if len(e.secrets) > 0 {
			t.Errorf("ordinary.txt:%d: a secret is marked", e.line)
		}
		changed := ""
		if out := String(e.text); out != e.text {
			changed += fmt.Sprintf("\n\tString: %q", out)
		}
		if v, ok := decodeJSON(e.text); ok {
			jsonEntries++
			var compact bytes.Buffer
			_ = json.Compact(&compact, []byte(e.text))
			if out, _, err := Encoded([]byte(e.text)); err != nil || !bytes.Equal(out, compact.Bytes()) {
				changed += fmt.Sprintf("\n\tEncoded: %s (%v)", out, err)
			}
			want, _ := json.Marshal(v)
			if out, _, ok := Value(v); !ok || !bytes.Equal(out, want) {
				changed += fmt.Sprintf("\n\tValue: %s", out)
			}
			if out := Copy(v); !reflect.DeepEqual(out, v) {
				changed += fmt.Sprintf("\n\tCopy: %s", marshalPlain(out))
			}
			fresh, _ := decodeJSON(e.text)
			if out := Tree(fresh); !reflect.DeepEqual(out, v) {
				changed += fmt.Sprintf("\n\tTree: %s", marshalPlain(out))
			}
			if changed == "" {
				jsonKept++
			}
		}
		if changed != "" {
			t.Errorf("ordinary.txt:%d: %q changed%s", e.line, e.text, changed)
			continue
		}
		kept++
	}

	t.Logf("secrets redacted: %d/%d (%d/%d in JSON text, on every surface)", caught, nSecrets, jsonCaught, jsonSecrets)
	t.Logf("ordinary entries unchanged: %d/%d (%d/%d in JSON text, on every surface)", kept, len(ordinary), jsonKept, jsonEntries)
	if nSecrets < 200 || len(ordinary) < 200 {
		t.Errorf("the corpus holds %d secrets and %d ordinary entries; it needs 200 of each", nSecrets, len(ordinary))
	}
}
