#!/usr/bin/env bash
# bench/run.sh: measures mcpcore (examples/articles) against the servers a
# user would write instead, with the Go load client (bench/load), back to
# back, in interleaved passes, and prints the tables of paired ratios:
#
#   baseline          the bare go-sdk server, raw AddTool (bench/baseline)
#   typed             the go-sdk's typed mcp.AddTool, validating (bench/typed)
#   mcpgo             mark3labs/mcp-go, validation on (bench/mcpgo, its own module)
#   mcpcore-patched, baseline-patched
#                     the same two built against a copy of the go-sdk with
#                     bench/sdk/decode.patch (bench/sdk/patched.sh): the
#                     framework's own cost with the SDK's decode fixed
#
# The transports: stdio; http, Streamable HTTP with sessions
# (MCP_SESSION_MODE=stateful, one session shared by the callers); and
# http-stateless, without (MCP_SESSION_MODE=stateless, bench/load -stateless),
# which every server above has. bench/load refuses a server that answers in
# the other mode, and the report labels each row with its transport.
#
#   bench/run.sh            full: 12 passes of 8000 calls, success and error paths, all
#                           six servers, the cells stdio:1 stdio:16 http:1 http:16 http:64
#                           http-stateless:16 http-stateless:64 (about an hour on 2 cores)
#   bench/run.sh -quick     the same in 2 passes of 2000 calls (about 6 minutes)
#
# Options:
#   -passes N       passes (default 12; quick 2)
#   -n N            timed calls per run (default 8000; quick 2000)
#   -warmup N       untimed calls before them (default 500; quick 200)
#   -servers "…"    the servers, as a list (default: all six above and mcpcore)
#   -transports "stdio http http-stateless"   the transports, as a list, and
#   -conc "1 16"    the concurrencies, as a list: every pair of the two is a
#                   cell (given either, the other defaults to the list shown)
#   -c64            adds 64 to -conc: every transport at 1, 16 and 64
#   -gogc V         run every server with GOGC=V (off, 400, …): with the
#                   collector off, the ratio is the per-call work alone
#   -src DIR        the mcpcore tree whose examples/articles and bench_test.go
#                   are measured (default: this repository)
#   -before DIR     also measure examples/articles of DIR (a worktree of an
#                   earlier commit) as mcpcore-before, in the same passes
#   -cells "stdio:1 http:16"   the transport:concurrency cells, in place of
#                   every -transports × -conc pair
#   -modes "echo error fetch"  the calls (default "echo error"): fetch is
#                   fetch_articles on its success path, so that the error
#                   path is also compared with a success of the same tool
#   -no-allocs      skip the in-process go test -bench 'ToolCall|HTTPCall'
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
passes=12 calls=8000 warmup=500 conc="" transports="" gogc="" allocs=1 benchstat=1 quick=0 count=5
servers="mcpcore baseline typed mcpgo mcpcore-patched baseline-patched" before="" cells="" modes="echo error"
while [ $# -gt 0 ]; do
	case $1 in
	-quick) quick=1 passes=2 calls=2000 warmup=200 count=1 ;;
	-servers) servers=$2; shift ;;
	-passes) passes=$2; shift ;;
	-n) calls=$2; shift ;;
	-warmup) warmup=$2; shift ;;
	-c64) conc="${conc:-1 16} 64" ;;
	-conc) conc=$2; shift ;;
	-transports) transports=$2; shift ;;
	-gogc) gogc=$2; shift ;;
	-src) src=$(cd "$2" && pwd); shift ;;
	-before) before=$(cd "$2" && pwd); shift ;;
	-cells) cells=$2; shift ;;
	-modes) modes=$2; shift ;;
	-no-allocs) allocs=0 ;;
	-no-benchstat) benchstat=0 ;;
	-h|-help|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "run.sh: unknown option $1 (try -help)" >&2; exit 2 ;;
	esac
	shift
done

if [ -n "$cells" ]; then
	:
elif [ -n "$transports$conc" ]; then
	for transport in ${transports:-stdio http http-stateless}; do for c in ${conc:-1 16}; do cells="$cells $transport:$c"; done; done
else
	cells="stdio:1 stdio:16 http:1 http:16 http:64 http-stateless:16 http-stateless:64"
fi
cells=" $(echo $cells)" # one space before each cell, as machine.txt prints them
for cell in $cells; do
	case ${cell%:*} in
	stdio | http | http-stateless) ;;
	*) echo "run.sh: unknown transport in the cell $cell (want stdio, http or http-stateless)" >&2; exit 2 ;;
	esac
	case ${cell#*:} in
	'' | *[!0-9]*) echo "run.sh: the cell $cell: want transport:concurrency" >&2; exit 2 ;;
	esac
done
if [ -n "$before" ]; then servers="mcpcore mcpcore-before ${servers#mcpcore }"; fi

stamp=$(date -u +%Y%m%dT%H%M%SZ)
out=$here/out/$stamp
mkdir -p "$out/bin"
echo "== building into $out/bin" >&2
(cd "$repo" && go build -o "$out/bin/load" ./bench/load)
# articles TREE OUT [GOFLAGS...] builds TREE's examples/articles: in the
# module examples/ where it has one, in the tree's own module before that.
articles() {
	local tree=$1 bin=$2
	shift 2
	if [ -f "$tree/examples/go.mod" ]; then
		(cd "$tree/examples" && go build "$@" -o "$bin" ./articles)
	else
		(cd "$tree" && go build "$@" -o "$bin" ./examples/articles)
	fi
}
case " $servers " in *-patched*)
	# One patched copy of the SDK; a modfile for each module built on it.
	"$here/sdk/patched.sh" "$out/sdk" "$src" >&2
	if [ -f "$src/examples/go.mod" ]; then "$here/sdk/patched.sh" "$out/sdk-examples" "$src/examples" >&2; fi ;;
esac
for server in $servers; do
	case $server in
	mcpcore) articles "$src" "$out/bin/$server" ;;
	mcpcore-before) articles "$before" "$out/bin/$server" ;;
	mcpcore-patched)
		modfile=$out/sdk/patched.mod
		if [ -f "$src/examples/go.mod" ]; then modfile=$out/sdk-examples/patched.mod; fi
		articles "$src" "$out/bin/$server" -modfile="$modfile" ;;
	baseline | typed) (cd "$repo" && go build -o "$out/bin/$server" "./bench/$server") ;;
	baseline-patched) (cd "$repo" && go build -modfile="$out/sdk/patched.mod" -o "$out/bin/$server" ./bench/baseline) ;;
	mcpgo) (cd "$here/mcpgo" && go build -o "$out/bin/$server" .) ;;
	*) echo "run.sh: unknown server $server (try -help)" >&2; exit 2 ;;
	esac
done

sha=$(git -C "$src" rev-parse HEAD 2>/dev/null || echo unknown)
if [ -n "$(git -C "$src" status --porcelain -- . ':!bench' 2>/dev/null)" ]; then sha="$sha (with uncommitted changes)"; fi
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
{
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "machine: $(uname -m), $(nproc) cores, ${cpu:-unknown CPU}, $(go version | cut -d' ' -f3-)"
	echo "mcpcore: examples/articles at $sha; servers: $servers"
	if [ -n "$before" ]; then echo "before: examples/articles at $(git -C "$before" rev-parse HEAD 2>/dev/null || echo unknown) ($before)"; fi
	echo "load: $passes passes × $calls calls (warm-up $warmup), cells (transport:concurrency)$cells (http: Streamable, one shared session; http-stateless: Streamable, no session), modes: $modes${gogc:+, every server with GOGC=$gogc}"
	echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/machine.txt"
cat "$out/machine.txt" >&2

one() { # server transport c mode pass
	local log=$out/run.stderr env=() transport=(-transport "$2")
	if [ -n "$gogc" ]; then env=(-env "GOGC=$gogc"); fi
	if [ "$2" = http-stateless ]; then transport=(-transport http -stateless); fi
	if ! "$out/bin/load" "${env[@]}" -server "$out/bin/$1" -name "$1" "${transport[@]}" -c "$3" -mode "$4" -pass "$5" \
		-n "$calls" -warmup "$warmup" >> "$out/results.jsonl" 2> "$log"; then
		cat "$log" >&2
		return 1
	fi
	cat "$log" >> "$out/bench.txt"
	grep '^Benchmark' "$log" | sed 's/^BenchmarkLoad\///' >&2
}

for pass in $(seq 1 "$passes"); do
	echo "== pass $pass of $passes" >&2
	# Interleaved: each configuration runs on every server back to back,
	# the list rotated by one between passes.
	list=($servers)
	k=$(((pass - 1) % ${#list[@]}))
	order="${list[*]:k} ${list[*]:0:k}"
	for cell in $cells; do
		for mode in $modes; do
			for server in $order; do
				one "$server" "${cell%:*}" "${cell#*:}" "$mode" "$pass"
			done
		done
	done
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"

# The pairs of the issue's goals, among the servers measured.
pairs=""
for p in mcpcore/mcpcore-before mcpcore/baseline mcpcore/typed mcpcore/mcpgo mcpcore-patched/baseline-patched mcpcore-patched/mcpgo baseline-patched/baseline; do
	case " $servers " in *" ${p%/*} "*) case " $servers " in *" ${p#*/} "*) pairs="$pairs,$p" ;; esac ;; esac
done

allocflag=()
if [ "$allocs" = 1 ]; then
	echo "== in process: go test -run '^\$' -bench 'ToolCall|HTTPCall' -benchmem -count $count (in $src)" >&2
	(cd "$src" && go test -run '^$' -bench 'ToolCall|HTTPCall' -benchmem -count "$count" .) > "$out/allocs.txt"
	allocflag=(-allocs "$out/allocs.txt")
fi
if [ "$benchstat" = 1 ]; then
	grep '^Benchmark' "$out/bench.txt" > "$out/bench.clean.txt" || true
	if go run golang.org/x/perf/cmd/benchstat@latest -col /server "$out/bench.clean.txt" > "$out/benchstat.txt" 2>&1; then
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
	"$out/bin/load" report -pairs "$pairs" "${allocflag[@]}" "$out/results.jsonl"
} > "$out/report.md"
echo >&2
cat "$out/report.md"
echo >&2
echo "results: $out" >&2
