# maas-sidecar: run `make help` for the targets.
GO        ?= go
BIN       := bin
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS   := -X github.com/gpuaas/maas-sidecar/daemon/buildinfo.Version=$(VERSION)
STATE_DIR ?= .run/state
PKGS      := ./...
VAULTDEV  := $(BIN)/vaultdev
TEST_ENV  := MAAS_SIDECAR_VAULTDEV=$(abspath $(VAULTDEV))

.PHONY: help build run test test-unit test-integration lint bench clean

help: ## Show this help.
	@awk 'BEGIN{FS=":.*## "} /^[a-zA-Z_-]+:.*## /{printf "  %-18s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

build: ## Build the binaries into bin/.
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN)/ ./daemon/cmd/maas-sidecar ./agent/cmd/gpuaas-node-agent ./hack/maassim

run: build ## Run the daemon in dev mode: a simulated MAAS site and a demo batch (Ctrl-C stops it).
	mkdir -p $(STATE_DIR)
	$(BIN)/maas-sidecar serve --dev --state-dir $(STATE_DIR)

test: lint test-deps $(VAULTDEV) ## Lint, install test dependencies, run every unit and integration test.
	$(TEST_ENV) $(GO) test -race -count=1 -tags integration $(PKGS)

test-unit: ## Run the unit and component tests only (no external components).
	$(GO) test -count=1 $(PKGS)

test-integration: test-deps $(VAULTDEV) ## Run the tests that need real external components.
	$(TEST_ENV) $(GO) test -race -count=1 -tags integration $(PKGS)

test-deps:
	hack/install-test-deps.sh

# The in-process Vault of the integration tests lives in its own module
# (about 870 modules, minutes to compile cold); rebuilt only when it changes.
$(VAULTDEV): hack/vaultdev/go.mod hack/vaultdev/go.sum $(wildcard hack/vaultdev/*.go)
	cd hack/vaultdev && $(GO) build -o $(abspath $(VAULTDEV)) .

lint: ## gofmt and go vet (the guard-rail tests run with the suite).
	@bad=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$bad" ]; then echo "gofmt needed:"; echo "$$bad"; exit 1; fi
	$(GO) vet -tags integration $(PKGS)

bench: ## Run the benchmarks (figures recorded in docs/benchmarks.md).
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

clean: ## Remove build outputs and local run state.
	rm -rf $(BIN) .run dist
