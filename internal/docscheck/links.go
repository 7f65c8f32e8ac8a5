package docscheck

import (
	"fmt"
	"iter"
	"regexp"
	"strings"
	"unicode"
)

// A Link is one inline link or image of a page's prose.
type Link struct {
	Page   string
	Line   int
	Target string // as written: docs/http.md#origins, #testing, ../README.md
}

var (
	linkRE = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	codeRE = regexp.MustCompile("`+[^`]*`+")
)

// Links returns the inline links of a page outside code: fenced blocks and
// code spans are skipped, so a `[x](y)` in code is no link.
func Links(page, src string) []Link {
	var links []Link
	for i, line := range prose(src) {
		for _, m := range linkRE.FindAllStringSubmatch(codeRE.ReplaceAllString(line, ""), -1) {
			links = append(links, Link{Page: page, Line: i + 1, Target: m[1]})
		}
	}
	return links
}

// Anchors returns the fragments GitHub gives the headings of a page (# to
// ######, outside code): the heading's text in lower case, with every
// character but letters, digits, spaces, hyphens and underscores removed and
// spaces made hyphens; a repeated one gets -1, -2, … after it.
func Anchors(src string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	for _, line := range prose(src) {
		text, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " ")
		if !ok || !strings.HasPrefix(line, "#") || len(line)-len(strings.TrimLeft(line, "#")) > 6 {
			continue
		}
		a := slug(text)
		if n := seen[a]; n > 0 {
			anchors[fmt.Sprintf("%s-%d", a, n)] = true
		} else {
			anchors[a] = true
		}
		seen[a]++
	}
	return anchors
}

// slug is a heading's text as GitHub makes it a fragment.
func slug(text string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(text)) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteRune('-')
		}
	}
	return b.String()
}

// prose yields the lines of a page outside its fenced code blocks, with
// their index.
func prose(src string) iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		inFence := ""
		for i, line := range strings.Split(src, "\n") {
			if inFence != "" {
				if closesFence(line, inFence) {
					inFence = ""
				}
				continue
			}
			if _, fence, _, ok := openFence(line); ok {
				inFence = fence
				continue
			}
			if !yield(i, line) {
				return
			}
		}
	}
}
