#!/usr/bin/env bash
# Builds golangci-lint v2 with mcplint compiled in (the module plugin of
# lint/golangci), the binary `golangci-lint custom` builds from
# .custom-gcl.yml, but from the Go module proxy alone: `custom` git-clones
# github.com/golangci/golangci-lint, which CI machines may not reach.
#
# It does what `custom` does: a copy of golangci-lint's main package, one
# more file blank-importing the plugin, and this repository's core and lint
# modules replacing theirs, built in a throwaway module, so that
# golangci-lint never enters this repository's go.mod. The golangci-lint
# version is .custom-gcl.yml's.
#
#   scripts/golangci-custom.sh [output]     # default: bin/custom-gcl
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$repo/bin/custom-gcl}
case $out in /*) ;; *) out=$PWD/$out ;; esac

version=$(sed -n 's/^version: *//p' "$repo/.custom-gcl.yml" | tr -d '"'"'"' ')
[ -n "$version" ] || { echo "golangci-custom: no version in .custom-gcl.yml" >&2; exit 2; }
gcl=github.com/golangci/golangci-lint/v2

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
go mod init mcplint-custom-gcl >/dev/null 2>&1
# The plugin is in the lint module, which requires the core: both from here.
go mod edit -replace "github.com/seed417024ea/mcpcore=$repo" \
	-replace "github.com/seed417024ea/mcpcore/lint=$repo/lint"
# golangci-lint's main package and its dependencies, at the pinned version.
GOFLAGS=-mod=mod go get "$gcl/cmd/golangci-lint@$version" >/dev/null 2>&1 || GOFLAGS=-mod=mod go get "$gcl/cmd/golangci-lint@$version"
src=$(go list -m -f '{{.Dir}}' "$gcl")/cmd/golangci-lint
for f in "$src"/*.go; do
	case $f in *_test.go) continue ;; esac
	cp "$f" . && chmod u+w "$(basename "$f")"
done
# What `custom` writes into cmd/golangci-lint/plugins.go.
cat >plugins.go <<'GO'
package main

import _ "github.com/seed417024ea/mcpcore/lint/golangci"
GO
# tidy requires the replaced modules (the lint module at the zero version),
# and adds what the plugin needs.
go mod tidy >/dev/null 2>&1 || go mod tidy
# The version, as golangci-lint's own build stamps it (golangci-lint version).
go build -trimpath -ldflags "-s -w -X main.version=$version-custom-gcl -X main.date=$(date -u +%Y-%m-%dT%H:%M:%SZ)" -o "$out" .
echo "golangci-custom: built $out (golangci-lint $version with mcplint)"
