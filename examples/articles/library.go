package main

import (
	"maps"
	"slices"
	"strings"
	"sync"
)

// The library: a few fictional articles held in memory, which
// summarize_abstract reads, retract_article changes, and the item resource
// articles://items/{itemId} shows (an article's item ID is its PMID).

// An article is one article of the library.
type article struct {
	PMID     string
	Title    string
	Abstract string
	// Retracted is set by retract_article, with the reason the user gave.
	Retracted        bool
	RetractionReason string
}

// corpus is the library as the server starts. The articles are made up.
var corpus = []article{
	{
		PMID:  "31000001",
		Title: "Nightly sleep duration and working memory in adolescents: a two-year cohort",
		Abstract: "We followed 412 adolescents for two years, measuring nightly sleep by actigraphy and working memory " +
			"with a digit-span task every six months. Each additional hour of sleep was associated with a small but " +
			"consistent gain in digit span, independent of age, sex and school year. The association weakened in the " +
			"second year, suggesting that habits formed early matter most.",
	},
	{
		PMID:  "31000002",
		Title: "A randomized trial of reminder messages for medication adherence in hypertension",
		Abstract: "Adults with treated hypertension (n = 630) were randomized to daily text reminders or usual care for " +
			"twelve weeks. Adherence, measured by pill counts, rose from 71% to 84% with reminders and did not change " +
			"with usual care; systolic pressure fell by a mean of 4 mmHg more with reminders. The effect faded within " +
			"a month after the reminders stopped.",
	},
	{
		PMID:  "31000003",
		Title: "Soil microbial diversity along an urban-to-rural gradient",
		Abstract: "We sequenced soil samples from 48 sites between a city centre and farmland 60 km away. Bacterial " +
			"diversity rose steadily away from the centre, while fungal diversity peaked in suburban parks. Soil " +
			"sealing and lead content explained most of the urban loss.",
	},
}

// library holds the articles by PMID. Handlers run concurrently: every access
// holds mu.
var library = struct {
	mu       sync.Mutex
	articles map[string]*article
}{articles: newArticles()}

func newArticles() map[string]*article {
	m := make(map[string]*article, len(corpus))
	for _, a := range corpus {
		m[a.PMID] = &a
	}
	return m
}

// lookup returns a copy of the article with this PMID.
func lookup(pmid string) (article, bool) {
	library.mu.Lock()
	defer library.mu.Unlock()
	a, ok := library.articles[pmid]
	if !ok {
		return article{}, false
	}
	return *a, true
}

// retract marks the article retracted, unless it already is (ok false), and
// returns it as it is now.
func retract(pmid, reason string) (a article, ok bool) {
	library.mu.Lock()
	defer library.mu.Unlock()
	p := library.articles[pmid]
	if p == nil || p.Retracted {
		if p != nil {
			a = *p
		}
		return a, false
	}
	p.Retracted, p.RetractionReason = true, reason
	return *p, true
}

// pmids returns the PMIDs of the library that begin with prefix, in order.
func pmids(prefix string) []string {
	library.mu.Lock()
	defer library.mu.Unlock()
	var out []string
	for _, pmid := range slices.Sorted(maps.Keys(library.articles)) {
		if strings.HasPrefix(pmid, prefix) {
			out = append(out, pmid)
		}
	}
	return out
}

// itemURI is the URI of the item resource of an article.
func itemURI(pmid string) string { return "articles://items/" + pmid }
