# Sucursal — the two commands a newcomer needs are `make demo` and `make test`.
SHELL := /bin/bash
GO ?= go
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -s -w
# What --version and `version` print (internal/buildinfo): the commit, and the build time in UTC
# (SOURCE_DATE_EPOCH, when set, makes it reproducible).
COMMIT ?= $(shell git rev-parse HEAD 2>/dev/null || echo unknown)
BUILD_DATE ?= $(shell date -u -d "@$${SOURCE_DATE_EPOCH:-$$(date +%s)}" +%Y-%m-%dT%H:%M:%SZ)
LDFLAGS += -X github.com/sucursal/sucursal/internal/buildinfo.version=$(VERSION) -X github.com/sucursal/sucursal/internal/buildinfo.commit=$(COMMIT) -X github.com/sucursal/sucursal/internal/buildinfo.date=$(BUILD_DATE)
OLLAMA_VERSION ?= 0.17.4
export OLLAMA_VERSION

.PHONY: all deps build test bench fuzz demo vet clean

all: build

## deps: download Go modules, build the real Ollama used by the demo and the tests, fetch llama-server for the llama.cpp drafter's tests, the OpenAI Node.js client for the client test and Prometheus (promtool) for the alert rules and the ops test (cached in .cache/)
deps:
	$(GO) mod download
	./scripts/build-ollama.sh
	./scripts/fetch-llama-server.sh
	./scripts/fetch-openai-node.sh
	./scripts/fetch-prometheus.sh
	./scripts/fetch-nginx.sh # Debian's nginx-light 1.22 for BenchmarkRelayCost (issue #20)

## build: static binaries of edge-agent, dc-gateway and fleetctl into bin/
build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "$(LDFLAGS)" -o bin/ ./cmd/edge-agent ./cmd/dc-gateway ./cmd/fleetctl

## packages: .deb and .rpm of sucursal-edge, sucursal-gateway and sucursal-fleet into dist/ (docs/PACKAGING.md)
.PHONY: packages
packages: build
	VERSION=$(VERSION) ./scripts/packages.sh

## test: everything, against real Ollama, real NATS and real QUIC (installs what is missing first)
test: deps
	$(GO) mod tidy -diff # go.mod and go.sum must say exactly what the code imports
	$(GO) vet ./...
	$(GO) test -count=1 -timeout 40m ./...
	./scripts/egress-ablation.sh # the egress property test must fail without the allow-list or the normalisation
	./scripts/check-units.sh # systemd-analyze verify and security (exposure <= 2.0) on every unit in packaging/systemd
	./scripts/check-alerts.sh # promtool check rules + test rules on packaging/prometheus, every alert unit-tested
	./scripts/test-packages.sh # install, upgrade and remove the .deb packages on clean Debian 12 roots (docs/PACKAGING.md)

## bench: the benchmarks whose figures are in docs/PERFORMANCE.md
bench: deps
	$(GO) test -run '^$$' -bench . -benchtime 2s -timeout 90m ./internal/e2e/ ./internal/pipeline/ ./internal/redact/ ./internal/guard/... ./internal/sync/ ./internal/pki/ ./internal/ollamatest/

## fuzz: a short run of every fuzz target (FUZZTIME per target, default 15s)
FUZZTIME ?= 15s
fuzz:
	@for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg 2>/dev/null | grep '^Fuzz'); do \
	    echo "== $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

## demo: install what is missing, then stream an answer through edge-agent → QUIC → dc-gateway → Ollama
demo: deps build
	./scripts/demo.sh

vet:
	$(GO) vet ./...

clean:
	rm -rf bin/ .cache/demo
