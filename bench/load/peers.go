package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// A pair is two servers compared: the ratio is Subject's CPU per call over
// Base's, paired within each pass.
type pair struct{ Subject, Base string }

// parsePairs reads "a/b,c/d".
func parsePairs(s string) ([]pair, error) {
	var ps []pair
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		a, b, ok := strings.Cut(f, "/")
		if !ok || a == "" || b == "" {
			return nil, fmt.Errorf("-pairs %q: want subject/base, comma-separated", f)
		}
		ps = append(ps, pair{a, b})
	}
	return ps, nil
}

// writePeers writes the comparison against every peer: per configuration,
// each pair's paired CPU ratio, median (min–max) over the passes; then each
// server's own medians, CPU per call and idle RSS.
func writePeers(w io.Writer, runs []result, pairs []pair) {
	t := index(runs)
	var servers []string
	for _, r := range runs {
		if !slices.Contains(servers, r.Server) {
			servers = append(servers, r.Server)
		}
	}
	fmt.Fprintf(w, "Server CPU per call, paired ratio per pass: median (min–max).\n\n| transport | c | path |")
	for _, p := range pairs {
		fmt.Fprintf(w, " %s ÷ %s |", p.Subject, p.Base)
	}
	fmt.Fprintf(w, "\n|---|---:|---|%s\n", strings.Repeat("---|", len(pairs)))
	for _, k := range t.sortedCells() {
		fmt.Fprintf(w, "| %s | %d | %s |", k.Transport, k.C, path(k.Mode))
		for _, p := range pairs {
			a, b := field(t[k][p.Subject], cpu), field(t[k][p.Base], cpu)
			fmt.Fprintf(w, " %s |", fmtSpread(spreadOf(pairedRatios(a, b)), 2))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\nServer CPU per call, µs: median (min–max) over the passes.\n\n| transport | c | path |")
	for _, s := range servers {
		fmt.Fprintf(w, " %s |", s)
	}
	fmt.Fprintf(w, "\n|---|---:|---|%s\n", strings.Repeat("---:|", len(servers)))
	for _, k := range t.sortedCells() {
		fmt.Fprintf(w, "| %s | %d | %s |", k.Transport, k.C, path(k.Mode))
		for _, s := range servers {
			fmt.Fprintf(w, " %s |", fmtSpread(spreadOf(values(field(t[k][s], cpu))), 0))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\nIdle RSS, MiB (once initialized, before any call): median over the runs.\n\n| transport |")
	for _, s := range servers {
		fmt.Fprintf(w, " %s |", s)
	}
	fmt.Fprintf(w, "\n|---|%s\n", strings.Repeat("---:|", len(servers)))
	for _, tr := range transportsOf(runs) {
		var row []string
		any := false
		for _, s := range servers {
			var xs []float64
			for _, r := range runs {
				if r.Server == s && r.transportLabel() == tr {
					xs = append(xs, float64(r.IdleRSSKiB)/1024)
				}
			}
			any = any || len(xs) > 0
			row = append(row, fmtMedian(xs, 1))
		}
		if any {
			fmt.Fprintf(w, "| %s | %s |\n", tr, strings.Join(row, " | "))
		}
	}
	fmt.Fprintln(w)
}
