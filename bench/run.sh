#!/usr/bin/env bash
# bench/run.sh: measures mcpcore (examples/articles) against the bare-SDK
# baseline (bench/baseline) with the Go load client (bench/load), back to
# back, in interleaved passes, and prints the tables of paired ratios.
#
#   bench/run.sh            full: 5 passes of 20000 calls, stdio and HTTP, c1 and c16,
#                           success and error paths (about 10 minutes on 2 cores)
#   bench/run.sh -quick     2 passes of 3000 calls (about 2 minutes)
#
# Options:
#   -passes N       passes (default 5; quick 2)
#   -n N            timed calls per run (default 20000; quick 3000)
#   -warmup N       untimed calls before them (default 1000; quick 300)
#   -c64            also run at concurrency 64
#   -conc "1 16"    the concurrencies, as a list
#   -transports "stdio http"   the transports, as a list
#   -gogc V         run both servers with GOGC=V (off, 400, …): with the
#                   collector off, the ratio is the per-call work alone
#   -src DIR        the mcpcore tree whose examples/articles and bench_test.go
#                   are measured (default: this repository); a worktree of
#                   another commit gives a "before" figure
#   -no-allocs      skip the in-process go test -bench ToolCall
#   -no-benchstat   skip benchstat (fetched with go run from the Go module proxy)
#
# Results go to bench/out/<UTC time>/: machine.txt, results.jsonl (one JSON
# line per run), bench.txt (the same runs as Go benchmark lines),
# allocs.txt, benchstat.txt, report.md (the markdown tables, also printed).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
src=$repo
args=$*
passes=5 calls=20000 warmup=1000 conc="1 16" transports="stdio http" gogc="" allocs=1 benchstat=1 quick=0 count=5
while [ $# -gt 0 ]; do
	case $1 in
	-quick) quick=1 passes=2 calls=3000 warmup=300 count=1 ;;
	-passes) passes=$2; shift ;;
	-n) calls=$2; shift ;;
	-warmup) warmup=$2; shift ;;
	-c64) conc="$conc 64" ;;
	-conc) conc=$2; shift ;;
	-transports) transports=$2; shift ;;
	-gogc) gogc=$2; shift ;;
	-src) src=$(cd "$2" && pwd); shift ;;
	-no-allocs) allocs=0 ;;
	-no-benchstat) benchstat=0 ;;
	-h|-help|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "run.sh: unknown option $1 (try -help)" >&2; exit 2 ;;
	esac
	shift
done

stamp=$(date -u +%Y%m%dT%H%M%SZ)
out=$here/out/$stamp
mkdir -p "$out/bin"
echo "== building into $out/bin" >&2
(cd "$src" && go build -o "$out/bin/mcpcore" ./examples/articles)
(cd "$repo" && go build -o "$out/bin/baseline" ./bench/baseline && go build -o "$out/bin/load" ./bench/load)

sha=$(git -C "$src" rev-parse HEAD 2>/dev/null || echo unknown)
if [ -n "$(git -C "$src" status --porcelain -- . ':!bench' 2>/dev/null)" ]; then sha="$sha (with uncommitted changes)"; fi
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
{
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "machine: $(uname -m), $(nproc) cores, ${cpu:-unknown CPU}, $(go version | cut -d' ' -f3-)"
	echo "mcpcore: examples/articles at $sha"
	echo "load: $passes passes × $calls calls (warm-up $warmup), concurrency $conc, transports $transports (HTTP: Streamable, one shared session), echo and error${gogc:+, both servers with GOGC=$gogc}"
	echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/machine.txt"
cat "$out/machine.txt" >&2

one() { # server transport c mode pass
	local log=$out/run.stderr env=()
	if [ -n "$gogc" ]; then env=(-env "GOGC=$gogc"); fi
	if ! "$out/bin/load" "${env[@]}" -server "$out/bin/$1" -name "$1" -transport "$2" -c "$3" -mode "$4" -pass "$5" \
		-n "$calls" -warmup "$warmup" >> "$out/results.jsonl" 2> "$log"; then
		cat "$log" >&2
		return 1
	fi
	cat "$log" >> "$out/bench.txt"
	grep '^Benchmark' "$log" | sed 's/^BenchmarkLoad\///' >&2
}

for pass in $(seq 1 "$passes"); do
	echo "== pass $pass of $passes" >&2
	# Interleaved: each configuration runs on both servers back to back,
	# the first one alternating between passes.
	if [ $((pass % 2)) -eq 1 ]; then order="mcpcore baseline"; else order="baseline mcpcore"; fi
	for transport in $transports; do
		for c in $conc; do
			for mode in echo error; do
				for server in $order; do
					one "$server" "$transport" "$c" "$mode" "$pass"
				done
			done
		done
	done
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"

allocflag=()
if [ "$allocs" = 1 ]; then
	echo "== in process: go test -run '^\$' -bench ToolCall -benchmem -count $count (in $src)" >&2
	(cd "$src" && go test -run '^$' -bench ToolCall -benchmem -count "$count" .) > "$out/allocs.txt"
	allocflag=(-allocs "$out/allocs.txt")
fi
if [ "$benchstat" = 1 ]; then
	grep '^Benchmark' "$out/bench.txt" > "$out/bench.clean.txt" || true
	if go run golang.org/x/perf/cmd/benchstat@latest -col '/server@(baseline mcpcore)' "$out/bench.clean.txt" > "$out/benchstat.txt" 2>&1; then
		echo "== benchstat -col /server: $out/benchstat.txt" >&2
	else
		echo "== benchstat unavailable; skipped" >&2
	fi
fi

{
	echo "Measured $(sed -n 's/^date: //p' "$out/machine.txt") on $(sed -n 's/^machine: //p' "$out/machine.txt");"
	echo "$(sed -n 's/^mcpcore: //p' "$out/machine.txt" | sed 's/^/mcpcore /'); $(sed -n 's/^load: //p' "$out/machine.txt")."
	echo
	echo "Command: \`bench/run.sh${args:+ $args}\`"
	echo
	"$out/bin/load" report "${allocflag[@]}" "$out/results.jsonl"
} > "$out/report.md"
echo >&2
cat "$out/report.md"
echo >&2
echo "results: $out" >&2
