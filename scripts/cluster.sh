#!/usr/bin/env bash
# make cluster: replicas behind haproxy, with Redis (internal/cluster).
# Installs redis-server and haproxy from Debian's packages when missing
# (CI runs as root), builds the replicas' binaries, runs the cluster test,
# and stops every process the test started, by the PIDs it recorded,
# whatever happens. CLUSTER_FULL=1 runs the larger sizes.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v redis-server >/dev/null || need+=(redis-server)
command -v haproxy >/dev/null || need+=(haproxy)
if [ ${#need[@]} -gt 0 ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "cluster: ${need[*]} missing, and not root to install them: apt-get install ${need[*]}" >&2
		exit 1
	fi
	echo "cluster: installing ${need[*]} from Debian's packages"
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y --no-install-recommends "${need[@]}" >/dev/null ||
		{ apt-get update >/dev/null && apt-get install -y --no-install-recommends "${need[@]}" >/dev/null; }
fi
echo "cluster: $(haproxy -v | head -1); $(redis-server --version)"

out="$PWD/bin/cluster-out"
rm -rf "$out" && mkdir -p "$out"
pids="$out/pids"
stop() {
	if [ -f "$pids" ]; then
		while read -r pid; do
			kill -CONT -- "-$pid" 2>/dev/null || true
			kill -KILL -- "-$pid" 2>/dev/null || true
		done <"$pids"
	fi
}
trap stop EXIT

# internal/cluster and examples are modules of their own (they link Redis).
go -C internal/cluster build -o "$PWD/bin/fleet" ./fleetserver
go -C examples build -o "$PWD/bin/conformance" ./conformance
MCPCORE_CLUSTER=1 \
	MCPCORE_CLUSTER_FLEET_BIN="$PWD/bin/fleet" \
	MCPCORE_CLUSTER_CONFORMANCE_BIN="$PWD/bin/conformance" \
	MCPCORE_CLUSTER_INTEROP="$PWD/interop" \
	MCPCORE_CLUSTER_OUT="$out" \
	MCPCORE_CLUSTER_PIDS="$pids" \
	go -C internal/cluster test -count=1 -v -timeout 15m -run '^TestCluster$' . 2>&1 | grep -v '^=== RUN' | tee "$out/test.log"
status=${PIPESTATUS[0]}
echo "cluster: the summary, the suite's output and each process's log are in $out"
exit "$status"
