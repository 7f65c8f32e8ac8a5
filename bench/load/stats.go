package main

import (
	"math"
	"slices"
	"time"
)

// percentile is the nearest-rank p-th percentile (0 < p ≤ 100) of sorted;
// 0 for no values.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(p/100*float64(len(sorted)))) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

// spread is the median, minimum and maximum of a set of values, such as one
// ratio measured in each pass.
type spread struct {
	Median, Min, Max float64
	N                int
}

// spreadOf summarizes xs; the median of an even count is the mean of the
// middle two. NaN values (a ratio with a zero divisor) are left out.
func spreadOf(xs []float64) spread {
	v := make([]float64, 0, len(xs))
	for _, x := range xs {
		if !math.IsNaN(x) {
			v = append(v, x)
		}
	}
	if len(v) == 0 {
		return spread{Median: math.NaN(), Min: math.NaN(), Max: math.NaN()}
	}
	slices.Sort(v)
	m := v[len(v)/2]
	if len(v)%2 == 0 {
		m = (v[len(v)/2-1] + v[len(v)/2]) / 2
	}
	return spread{Median: m, Min: v[0], Max: v[len(v)-1], N: len(v)}
}

// ratio is a/b, NaN when b is 0.
func ratio(a, b float64) float64 {
	if b == 0 {
		return math.NaN()
	}
	return a / b
}

// pairedRatios divides a[k] by b[k] for every key present in both: the
// ratios of two servers measured in the same pass, one per pass.
func pairedRatios[K comparable](a, b map[K]float64) []float64 {
	var out []float64
	for k, x := range a {
		if y, ok := b[k]; ok {
			out = append(out, ratio(x, y))
		}
	}
	return out
}
