package cluster

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The tasks-* scenarios of the suite 0.2.0-alpha.12, as
// interop/conformance.test.js lists them, and the one the suite skips
// itself ("the harness needs a rewrite").
var taskScenarios = []string{
	"tasks-lifecycle",
	"tasks-capability-negotiation",
	"tasks-wire-fields",
	"tasks-request-state-removal",
	"tasks-mrtr-input",
	"tasks-request-headers",
	"tasks-dispatch-and-envelope",
	"tasks-status-notifications",
	"tasks-required-task-error",
	"tasks-mrtr-composition",
}

const skippedBySuite = "tasks-status-notifications"

// A check is one entry of a scenario's checks.json.
type check struct {
	ID           string `json:"id"`
	Status       string `json:"status"`
	Description  string `json:"description"`
	ErrorMessage string `json:"errorMessage"`
}

// taskProblems reads the checks.json of each tasks-* scenario of a run
// (resultsDir/server-<scenario>-<timestamp>/) and returns what is wrong: a
// scenario missing, one without a passed check, each FAILURE; the
// scenarios are unscored, so the suite's exit code says nothing of them.
// It also returns how many checks passed.
func taskProblems(resultsDir string) (problems []string, passed int) {
	entries, _ := os.ReadDir(resultsDir)
	for _, scenario := range taskScenarios {
		dir := ""
		for _, e := range entries {
			rest, ok := strings.CutPrefix(e.Name(), "server-"+scenario+"-")
			if ok && rest != "" && rest[0] >= '0' && rest[0] <= '9' {
				dir = e.Name()
			}
		}
		if dir == "" {
			problems = append(problems, scenario+": no results in "+resultsDir)
			continue
		}
		var checks []check
		b, err := os.ReadFile(filepath.Join(resultsDir, dir, "checks.json"))
		if err == nil {
			err = json.Unmarshal(b, &checks)
		}
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", scenario, err))
			continue
		}
		if scenario == skippedBySuite {
			for _, c := range checks {
				if c.Status != "SKIPPED" {
					problems = append(problems, scenario+": the suite no longer skips it; check it")
					break
				}
			}
			continue
		}
		ok := 0
		for _, c := range checks {
			switch c.Status {
			case "SUCCESS":
				ok++
			case "FAILURE":
				msg := c.ErrorMessage
				if msg == "" {
					msg = c.Description
				}
				problems = append(problems, fmt.Sprintf("%s: %s: %s", scenario, c.ID, msg))
			}
		}
		if ok == 0 {
			problems = append(problems, scenario+": no check passed")
		}
		passed += ok
	}
	return problems, passed
}
