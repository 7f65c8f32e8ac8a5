package mcpcore

import (
	"fmt"

	"github.com/seed417024ea/mcpcore/internal/urimatch"
	"github.com/yosida95/uritemplate/v3"
)

// A resourceTemplate is a Resource's URI template, compiled at
// registration: which URIs it matches and what their variables are.
type resourceTemplate struct {
	*uritemplate.Template
	matcher *urimatch.Matcher
}

// compileTemplate parses and compiles a URI template, so that no read
// pays for it, or panics in the library's MustCompile.
func compileTemplate(raw string) (t resourceTemplate, err error) {
	if t.Template, err = uritemplate.New(raw); err != nil {
		return t, err
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("its pattern does not compile: %v", r)
		}
	}()
	t.Regexp()
	t.matcher, err = urimatch.Compile(raw)
	return t, err
}

// variables are the variables of uri, as uritemplate's Match gives them;
// false when the template does not match uri. Both steps are linear in
// the URI's length: the template's compiled pattern (RE2) decides first,
// then urimatch reads the values (uritemplate's own Match is quadratic
// in the number of values). A URI is at most MaxURIBytes long: see
// checkURI.
func (t resourceTemplate) variables(uri string) (uritemplate.Values, bool) {
	if uri != t.Raw() && !t.Regexp().MatchString(uri) {
		return nil, false
	}
	match := t.matcher.Match(uri)
	return match, match != nil || uri == t.Raw()
}
