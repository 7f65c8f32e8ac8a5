#!/usr/bin/env bash
# bench/sdk/patched.sh: makes a patched copy of the go-sdk module this
# repository requires, with bench/sdk/decode.patch applied, and a modfile
# that builds against it, for measurement only: nothing users get changes.
#
#   bench/sdk/patched.sh [-test] OUTDIR [MODULE]
#
# Writes OUTDIR/go-sdk (the copy) and OUTDIR/patched.mod and .sum (the
# go.mod and go.sum of MODULE, by default this repository, with a replace
# of the SDK by the copy).
# Build with: go build -modfile=OUTDIR/patched.mod ./bench/baseline (and,
# with MODULE examples, ./articles in examples/)
# -test runs the SDK's own tests in the copy first (internal/json, jsonrpc,
# mcp) and stops if they fail.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
test=0
if [ "${1:-}" = -test ]; then test=1; shift; fi
out=${1:?usage: patched.sh [-test] OUTDIR [MODULE]}
mod=$(cd "${2:-$repo}" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
version=$(cd "$repo" && go list -m -f '{{.Version}}' github.com/modelcontextprotocol/go-sdk)
src=$(cd "$repo" && go list -m -f '{{.Dir}}' github.com/modelcontextprotocol/go-sdk)
if [ -z "$src" ]; then
	(cd "$repo" && go mod download github.com/modelcontextprotocol/go-sdk)
	src=$(cd "$repo" && go list -m -f '{{.Dir}}' github.com/modelcontextprotocol/go-sdk)
fi
rm -rf "$out/go-sdk"
cp -r "$src" "$out/go-sdk"
chmod -R u+w "$out/go-sdk"
patch -s -p1 -d "$out/go-sdk" < "$here/decode.patch"
echo "patched go-sdk $version: $out/go-sdk" >&2
if [ "$test" = 1 ]; then
	(cd "$out/go-sdk" && go test -count=1 ./internal/json/ ./jsonrpc/ ./mcp/) >&2
fi
cp "$mod/go.mod" "$out/patched.mod"
cp "$mod/go.sum" "$out/patched.sum"
(cd "$mod" && go mod edit -modfile="$out/patched.mod" -replace="github.com/modelcontextprotocol/go-sdk=$out/go-sdk")
