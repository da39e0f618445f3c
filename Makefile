# maas-sidecar: run `make help` for the targets.
GO        ?= go
BIN       := bin
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS   := -X github.com/gpuaas/maas-sidecar/internal/buildinfo.Version=$(VERSION)
STATE_DIR ?= .run/state
PKGS      := ./...
E2E_PKGS  := ./e2e/system/...
VAULTDEV  := $(BIN)/vaultdev
TEST_ENV  := MAAS_SIDECAR_VAULTDEV=$(abspath $(VAULTDEV))

.PHONY: help build run test test-unit test-integration e2e lint bench clean

help: ## Show this help.
	@awk 'BEGIN{FS=":.*## "} /^[a-zA-Z_-]+:.*## /{printf "  %-18s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

build: ## Build the binaries into bin/ (with the simulated hosts' fakehost and fakegpu).
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN)/ ./daemon/cmd/maas-sidecar ./agent/cmd/gpuaas-node-agent ./hack/maassim \
		./hack/fakehost ./hack/fakegpu

run: build ## Run the daemon in dev mode: a simulated MAAS site and a demo batch (Ctrl-C stops it).
	mkdir -p $(STATE_DIR)
	$(BIN)/maas-sidecar serve --dev --state-dir $(STATE_DIR)

test: lint test-deps $(VAULTDEV) ## Lint, install test dependencies, run every unit, integration and end-to-end test.
	$(TEST_ENV) $(GO) test -race -count=1 -tags integration $(PKGS)
	$(MAKE) --no-print-directory e2e

test-unit: ## Run the unit and component tests only (no external components).
	$(GO) test -count=1 $(PKGS)

test-integration: test-deps $(VAULTDEV) ## Run the tests that need real external components.
	$(TEST_ENV) $(GO) test -race -count=1 -tags integration $(PKGS)

e2e: $(VAULTDEV) ## Run the end-to-end tests on the real binaries (daemon, agent, simulator, Vault as processes).
	$(TEST_ENV) $(GO) test -count=1 -tags e2e $(E2E_PKGS)

test-deps:
	hack/install-test-deps.sh

# The in-process Vault of the integration tests lives in its own module
# (about 870 modules, minutes to compile cold); rebuilt only when it changes.
$(VAULTDEV): hack/vaultdev/go.mod hack/vaultdev/go.sum $(wildcard hack/vaultdev/*.go)
	cd hack/vaultdev && $(GO) build -o $(abspath $(VAULTDEV)) .

# staticcheck is pinned in its own module (hack/tools) so that it adds nothing
# to the product's dependencies. -matrix checks the untagged and the tagged
# build in one run and reports dead code only when it is dead in both.
STATICCHECK := $(BIN)/staticcheck
$(STATICCHECK): hack/tools/go.mod hack/tools/go.sum
	$(GO) build -C hack/tools -o $(abspath $(STATICCHECK)) honnef.co/go/tools/cmd/staticcheck

lint: $(STATICCHECK) ## gofmt, go vet and staticcheck, untagged and with the integration,e2e tags.
	@bad=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$bad" ]; then echo "gofmt needed:"; echo "$$bad"; exit 1; fi
	$(GO) vet -tags integration,e2e $(PKGS)
	printf 'default:\ntagged: -tags=integration,e2e\n' | $(STATICCHECK) -matrix $(PKGS)

bench: ## Run the benchmarks (figures recorded in docs/benchmarks.md).
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

clean: ## Remove build outputs and local run state.
	rm -rf $(BIN) .run dist
