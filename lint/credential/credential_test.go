package credential_test

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/seed417024ea/mcpcore/lint/credential"
)

func TestAnalyzer(t *testing.T) {
	testdata, err := filepath.Abs(filepath.Join("..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, testdata, credential.Analyzer, "credential", "credential/shared", "credential/vocab")
}

// secrets are the credentials planted in the testdata.
var secrets = []string{
	"ghp_JvWiVv3jsB9qKdVHW37ZrPxZT6L7Wgxa9Gag",
	"ghp_UFxUbvRFdbpufkvkKeE2xfskKeR6iIU0C0Fu",
	"AKIAZYCQ369CHV94GEYZ",
	"AKIAM2YAQOPLBFGHLBI5",
	"sk_live_NNaQDG1Wk1WIsICVzZdSy0HV",
	"sk_live_NrIGkvMEsF5RgwXIfMK1wUDR",
	"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl",
	"hunter2secret",
	"MIIEowIBAAKCAQEAx4bGq",
}

// TestFindingsHideTheSecret checks that no finding prints more of a
// credential than its first four characters: mcplint's output goes to CI
// logs, which must not become a second copy of the secret.
func TestFindingsHideTheSecret(t *testing.T) {
	testdata, err := filepath.Abs(filepath.Join("..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, res := range analysistest.Run(t, testdata, credential.Analyzer, "credential", "credential/shared", "credential/vocab") {
		for _, d := range res.Diagnostics {
			n++
			t.Logf("%s: %s", res.Pass.Fset.Position(d.Pos), d.Message)
			for _, s := range secrets {
				if strings.Contains(d.Message, s[4:]) {
					t.Errorf("%s: the finding shows the secret %s…: %s", res.Pass.Fset.Position(d.Pos), s[:4], d.Message)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no finding: the test checks nothing")
	}
}
