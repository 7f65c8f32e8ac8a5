package schema

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestDecodeAsEncodingJSON holds the decoder to encoding/json with
// UseNumber: the same value for every input it accepts, and the same error
// for every one it refuses.
func TestDecodeAsEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		`{"message":"hello"}`, ` { "a" : [ 1 , -2.5e3 , true , false , null , "x\"y\u00e9" ] , "b" : { } , "c" : [ ] } `,
		`{"a":1,"a":2}`, `"\ud83d\ude00"`, "\"\xff\"", `123456789012345678901234567890`, `[[[]]]`, `{"k\n":"v"}`,
		`{"a":1} x`, `{"a":}`, ``, `nul`, strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
	} {
		got, gotErr := decodeJSON([]byte(in))
		want, wantErr := decodeStd([]byte(in))
		if !reflect.DeepEqual(got, want) || (gotErr == nil) != (wantErr == nil) || (gotErr != nil && gotErr.Error() != wantErr.Error()) {
			t.Errorf("%.40q: got %#v, %v; want %#v, %v", in, got, gotErr, want, wantErr)
		}
	}
}

func FuzzDecodeAsEncodingJSON(f *testing.F) {
	for _, s := range []string{`{"a":[1,"b",{"c":null}]}`, `"\u0041"`, `1e5`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		got, gotErr := decodeJSON(in)
		want, wantErr := decodeStd(in)
		if (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("%q: error %v, want %v", in, gotErr, wantErr)
		}
		if gotErr == nil {
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(want)
			if !bytes.Equal(g, w) {
				t.Fatalf("%q: %s, want %s", in, g, w)
			}
		}
	})
}
