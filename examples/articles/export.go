package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// export_articles: a tool whose calls outlive their request as tasks
// (io.modelcontextprotocol/tasks). An export makes one NCBI E-utilities
// request per article, after one to search, and keeps to NCBI's limit of
// three requests a second without an API key: a few articles take more than
// a second, too long to hold a request open for. With Task TaskOptional, a
// client that declared the extension gets a task to poll once the call has
// run past TaskSupport.After (Config.TaskAfter, 250 ms), and then its
// result, or its declared failure, exactly as it would have been answered at
// once; any other client waits for the answer, as for any tool.

// ncbiInterval is the time between two E-utilities requests: NCBI allows
// three a second to a client without an API key. The export waits it
// before each request, the first included, since a real client shares the
// limit with every other call it makes.
const ncbiInterval = time.Second / 3

var exportNoMatch = mcpcore.Failure{
	Reason:   "no_match",
	Code:     mcperr.CodeNotFound,
	When:     "No article of the library matches every word of the query",
	Recovery: "Search with fewer or other words; search_articles shows what a query matches.",
}

type exportInput struct {
	Query string `json:"query" jsonschema:"Words to find in the titles and abstracts of the articles to export" minLength:"3" maxLength:"200"`
}

type exportOutput struct {
	Count int    `json:"count" jsonschema:"the number of articles exported"`
	RIS   string `json:"ris" jsonschema:"the articles as RIS records, the format reference managers import"`
}

var exportArticles = mcpcore.Tool[exportInput, exportOutput]{
	Name: "export_articles",
	Description: "Export every article of the library whose title or abstract holds every word of the query, as RIS records " +
		"for a reference manager. Paced at three NCBI requests a second, an export of a few articles runs as a task " +
		"for a client that takes tasks.",
	Errors:  []mcpcore.Failure{exportNoMatch},
	Task:    mcpcore.TaskSupport{Mode: mcpcore.TaskOptional},
	Handler: export,
}

// export searches, then fetches and writes each article as an RIS record,
// each step one paced request, reporting its progress.
func export(ctx *mcpcore.Context, in exportInput) (exportOutput, error) {
	pace := time.NewTicker(ncbiInterval)
	defer pace.Stop()
	wait := func() error {
		select {
		case <-pace.C:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if err := wait(); err != nil { // esearch
		return exportOutput{}, err
	}
	hits := search(in.Query, nil, len(corpus))
	if len(hits) == 0 {
		return exportOutput{}, ctx.Fail(exportNoMatch, fmt.Sprintf("No article of the library matches %q", in.Query),
			ctx.RecoveryFor(exportNoMatch))
	}
	var ris strings.Builder
	for i, hit := range hits {
		ctx.Progress(float64(i), float64(len(hits)), fmt.Sprintf("Exported %d of %d articles", i, len(hits)))
		if err := wait(); err != nil { // efetch
			return exportOutput{}, err
		}
		if a, ok := lookup(hit.PMID); ok {
			writeRIS(&ris, a)
		}
	}
	return exportOutput{Count: len(hits), RIS: ris.String()}, nil
}

// writeRIS writes a as an RIS record of a journal article.
func writeRIS(b *strings.Builder, a article) {
	fmt.Fprintf(b, "TY  - JOUR\nAN  - %s\nTI  - %s\nAB  - %s\n", a.PMID, a.Title, a.Abstract)
	if a.Retracted {
		fmt.Fprintf(b, "N1  - Retracted: %s\n", a.RetractionReason)
	}
	b.WriteString("ER  - \n")
}
