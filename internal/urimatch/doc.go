// Package urimatch reads the variables of a URI against an RFC 6570 URI
// template in time linear in the URI's length.
//
// It gives the same variables and values as the Match method of
// github.com/yosida95/uritemplate/v3, which the server used to call: that
// matcher copies every capture made so far at each step of each of its
// threads, so a variable taking thousands of values (a list read from
// "items/a,a,a,…", an exploded path "{/segments*}") cost seconds of CPU for
// one 8 KiB URI that any client could send. The results stay those users
// already see, ambiguities and oddities included, and the tests hold the
// two to each other.
//
// A template compiles to a small automaton of steps (literal runes, runs of
// value characters, preferences between alternatives, the bounds of each
// captured value). A match makes two passes over the URI: one from its end
// that records, for every position and step, whether the rest of the URI
// can still be matched from there; then one from its start that follows,
// at each preference, the preferred alternative whenever the first pass
// says it can still lead to a match. The path so found is the one the
// library's matcher settles on (the first in its order of preference), and
// each step is taken at most once per position, whatever the values.
package urimatch
