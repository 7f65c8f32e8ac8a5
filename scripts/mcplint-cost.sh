#!/usr/bin/env bash
# mcplint-cost.sh measures what mcplint costs on this repository: the wall
# time and peak memory of `<binary> ./...` from the repository's root, for
# each binary given, run alternately so that a change of the machine's load
# falls on every binary alike. It prints, per binary, the median wall time,
# the median CPU time (user+sys, which the machine's load moves less than
# the wall time) and the largest maximum RSS of its runs, and the load
# before and after.
#
# Usage: scripts/mcplint-cost.sh [-n runs] [-C dir] <mcplint-binary>...
#   -n runs  runs per binary (default 3)
#   -C dir   the module to lint (default: the repository's root)
#
# A binary's findings and exit status do not matter here (1 means findings,
# and this repository has warnings with -strict only); an exit status of 2
# (the packages did not load) does, and stops the script.
#
# It needs GNU time at /usr/bin/time (Debian's package "time").
set -euo pipefail

runs=3
dir=$(cd "$(dirname "$0")/.." && pwd)
while getopts "n:C:" opt; do
	case $opt in
	n) runs=$OPTARG ;;
	C) dir=$OPTARG ;;
	*) echo "usage: $0 [-n runs] [-C dir] <mcplint-binary>..." >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -eq 0 ]; then
	echo "usage: $0 [-n runs] [-C dir] <mcplint-binary>..." >&2
	exit 2
fi
if [ ! -x /usr/bin/time ]; then
	echo "$0: needs GNU time at /usr/bin/time (apt-get install time)" >&2
	exit 2
fi

bins=()
for b in "$@"; do
	bins+=("$(cd "$(dirname "$b")" && pwd)/$(basename "$b")")
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "load before: $(uptime)"
cd "$dir"
for ((r = 1; r <= runs; r++)); do
	for i in "${!bins[@]}"; do
		status=0
		/usr/bin/time -f "%e %M %U %S" -o "$tmp/time" "${bins[$i]}" ./... >/dev/null 2>"$tmp/stderr" || status=$?
		if [ "$status" -ge 2 ]; then
			echo "${bins[$i]}: exit $status" >&2
			cat "$tmp/stderr" >&2
			exit 1
		fi
		# The last line is time's: a failing command adds "Command exited
		# with non-zero status" before it.
		tail -n 1 "$tmp/time" >>"$tmp/bin$i"
		echo "run $r ${bins[$i]}: $(tail -n 1 "$tmp/time" | awk '{printf "%.2f s wall, %.2f s CPU, %d MiB", $1, $3+$4, $2/1024}')"
	done
done
echo "load after: $(uptime)"

printf '\n%-40s %12s %12s %14s\n' binary "median wall" "median CPU" "peak RSS"
for i in "${!bins[@]}"; do
	median=$(awk '{print $1}' "$tmp/bin$i" | sort -n | awk '{a[NR]=$1} END {if (NR % 2) print a[(NR+1)/2]; else printf "%.2f\n", (a[NR/2]+a[NR/2+1])/2}')
	cpu=$(awk '{print $3+$4}' "$tmp/bin$i" | sort -n | awk '{a[NR]=$1} END {if (NR % 2) print a[(NR+1)/2]; else printf "%.2f\n", (a[NR/2]+a[NR/2+1])/2}')
	peak=$(awk '$2 > m {m = $2} END {print m}' "$tmp/bin$i")
	printf '%-40s %10.2f s %10.2f s %10d MiB\n' "${bins[$i]}" "$median" "$cpu" $((peak / 1024))
done
