// Command errwalk runs the errwalk check (see package errwalk) on the
// packages it is given: make check runs it on ./....
package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/seed417024ea/mcpcore/lint/internal/errwalk"
)

func main() { singlechecker.Main(errwalk.Analyzer) }
