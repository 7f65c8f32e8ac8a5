package urimatch

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// A part is one piece of a template: a literal, matched as it is written,
// or an expression between braces.
type part struct {
	literal string
	expr    *expression
}

// An expression is "{" operator? varspec ("," varspec)* "}" (RFC 6570,
// section 2.2).
type expression struct {
	op   operator
	vars []varspec
}

// A varspec is one variable of an expression, with its modifier: a prefix
// length (":3", at most 9999) or an explode ("*").
type varspec struct {
	name    string
	prefix  int
	explode bool
}

// key is the name under which the library reports the variable's values:
// a prefix modifier is part of it ("id:3").
func (v varspec) key() string {
	if v.prefix > 0 {
		return v.name + ":" + strconv.Itoa(v.prefix)
	}
	return v.name
}

// parse splits a template into its literals and expressions.
func parse(raw string) ([]part, error) {
	var parts []part
	for len(raw) > 0 {
		open := strings.IndexAny(raw, "{}")
		if open < 0 {
			parts = append(parts, part{literal: raw})
			break
		}
		if raw[open] == '}' {
			return nil, errors.New("a '}' outside an expression")
		}
		if open > 0 {
			parts = append(parts, part{literal: raw[:open]})
		}
		end := strings.IndexByte(raw[open:], '}')
		if end < 0 {
			return nil, errors.New("an expression without its closing '}'")
		}
		expr, err := parseExpression(raw[open+1 : open+end])
		if err != nil {
			return nil, fmt.Errorf("expression {%s}: %w", raw[open+1:open+end], err)
		}
		parts = append(parts, part{expr: expr})
		raw = raw[open+end+1:]
	}
	return parts, nil
}

// parseExpression reads the text between an expression's braces.
func parseExpression(body string) (*expression, error) {
	e := &expression{op: operators['\x00']}
	if body != "" {
		if op, ok := operators[body[0]]; ok {
			e.op = op
			body = body[1:]
		} else if strings.IndexByte("=,!@|", body[0]) >= 0 {
			return nil, fmt.Errorf("the operator %q is reserved", body[0])
		}
	}
	for spec := range strings.SplitSeq(body, ",") {
		v, err := parseVarspec(spec)
		if err != nil {
			return nil, err
		}
		e.vars = append(e.vars, v)
	}
	return e, nil
}

// parseVarspec reads varname (":" max-length / "*")?.
func parseVarspec(spec string) (varspec, error) {
	var v varspec
	if name, ok := strings.CutSuffix(spec, "*"); ok {
		v.explode, spec = true, name
	} else if name, length, ok := strings.Cut(spec, ":"); ok {
		n, err := strconv.Atoi(length)
		if err != nil || n < 1 || n > 9999 || length[0] == '0' {
			return v, fmt.Errorf("the prefix length %q is not a number from 1 to 9999", length)
		}
		v.prefix, spec = n, name
	}
	if !validVarname(spec) {
		return v, fmt.Errorf("%q is not a variable name", spec)
	}
	v.name = spec
	return v, nil
}

// validVarname reports whether name is a varname: varchars (ALPHA, DIGIT,
// "_", pct-encoded), with single dots between them.
func validVarname(name string) bool {
	if name == "" || name[0] == '.' || name[len(name)-1] == '.' || strings.Contains(name, "..") {
		return false
	}
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c == '%':
			if !pctEncoded(name, i) {
				return false
			}
			i += 2
		case c != '.' && !isVarchar(c):
			return false
		}
	}
	return true
}

// isVarchar reports whether c is a varchar that is not pct-encoded: ALPHA,
// DIGIT or "_".
func isVarchar(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
