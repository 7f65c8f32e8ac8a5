package docscheck

import (
	"fmt"
	"strings"
)

// A Block is one fenced code block of a page.
type Block struct {
	Page string // the page's path from the repository root, with slashes
	Line int    // the page's line of the block's first line of code, from 1
	Lang string // the first word of the fence's info string: go, sh, json, or ""
	Code string // the lines between the fences, without the fence's indentation
	// Body is the signature of the go:body marker before the block, such
	// as "func(ctx *mcpcore.Context) error", or "".
	Body string
}

// A Context is the Go declarations of one go:context comment of a page.
type Context struct {
	Page string
	Line int // the page's line of the declarations' first line
	Code string
}

const (
	bodyMarker    = "<!-- go:body "
	contextMarker = "<!-- go:context"
)

// Parse returns the fenced code blocks and the go:context comments of a
// page, page being its path as messages name it. A go:body marker that no
// ```go block follows, a fence or a go:context comment that is never
// closed, is an error that names its line.
func Parse(page string, src string) ([]Block, []Context, error) {
	lines := strings.Split(src, "\n")
	var (
		blocks   []Block
		contexts []Context
		body     string // a pending go:body signature
		bodyLine int
	)
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		trimmed := strings.TrimSpace(line)
		if indent, fence, info, ok := openFence(line); ok {
			start := i + 1
			var code []string
			closed := false
			for i++; i < len(lines); i++ {
				if closesFence(lines[i], fence) {
					closed = true
					break
				}
				code = append(code, dedent(lines[i], indent))
			}
			if !closed {
				return nil, nil, fmt.Errorf("%s:%d: a code fence that is never closed", page, start)
			}
			lang, _, _ := strings.Cut(info, " ")
			b := Block{Page: page, Line: start + 1, Lang: lang, Code: strings.Join(code, "\n")}
			if body != "" {
				if lang != "go" {
					return nil, nil, fmt.Errorf("%s:%d: a go:body marker before a block that is not ```go", page, bodyLine)
				}
				b.Body, body = body, ""
			}
			blocks = append(blocks, b)
			continue
		}
		switch {
		case strings.HasPrefix(trimmed, contextMarker):
			start := i + 1
			var code []string
			closed := false
			for i++; i < len(lines); i++ {
				if strings.TrimSpace(lines[i]) == "-->" {
					closed = true
					break
				}
				code = append(code, lines[i])
			}
			if !closed {
				return nil, nil, fmt.Errorf("%s:%d: a go:context comment that is never closed (by a line holding only -->)", page, start)
			}
			contexts = append(contexts, Context{Page: page, Line: start + 1, Code: strings.Join(code, "\n")})
		case strings.HasPrefix(trimmed, bodyMarker):
			if body != "" {
				return nil, nil, fmt.Errorf("%s:%d: a go:body marker that no ```go block follows", page, bodyLine)
			}
			sig, ok := strings.CutSuffix(strings.TrimPrefix(trimmed, bodyMarker), "-->")
			if sig = strings.TrimSpace(sig); !ok || !strings.HasPrefix(sig, "func(") {
				return nil, nil, fmt.Errorf("%s:%d: a go:body marker is <!-- go:body func(…) … -->", page, i+1)
			}
			body, bodyLine = sig, i+1
		case trimmed != "" && body != "":
			return nil, nil, fmt.Errorf("%s:%d: a go:body marker that no ```go block follows", page, bodyLine)
		}
	}
	if body != "" {
		return nil, nil, fmt.Errorf("%s:%d: a go:body marker that no ```go block follows", page, bodyLine)
	}
	return blocks, contexts, nil
}

// openFence reports whether line opens a fenced code block (CommonMark: up
// to three spaces, then three or more backticks or tildes), with its
// indentation, its fence and its info string.
func openFence(line string) (indent int, fence, info string, ok bool) {
	rest := strings.TrimLeft(line, " ")
	indent = len(line) - len(rest)
	if indent > 3 || len(rest) < 3 || (rest[0] != '`' && rest[0] != '~') {
		return 0, "", "", false
	}
	n := len(rest) - len(strings.TrimLeft(rest, rest[:1]))
	if n < 3 {
		return 0, "", "", false
	}
	fence, info = rest[:n], strings.TrimSpace(rest[n:])
	if fence[0] == '`' && strings.Contains(info, "`") {
		return 0, "", "", false // an inline code span, not a fence
	}
	return indent, fence, info, true
}

// closesFence reports whether line closes a block opened by fence: the same
// character, at least as many, and nothing after them.
func closesFence(line, fence string) bool {
	rest := strings.TrimLeft(line, " ")
	if len(line)-len(rest) > 3 {
		return false
	}
	rest = strings.TrimRight(rest, " \t")
	return len(rest) >= len(fence) && strings.Trim(rest, fence[:1]) == ""
}

// dedent removes up to indent spaces from the start of a line of code, as
// CommonMark does for a fence inside a list item.
func dedent(line string, indent int) string {
	for range indent {
		if !strings.HasPrefix(line, " ") {
			break
		}
		line = line[1:]
	}
	return line
}
