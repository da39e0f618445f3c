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
# The dqlite store is behind the dqlite build tag and needs cgo with
# Debian's libdqlite-dev and libraft-dev (make test-deps); libsqlite3 links
# the system SQLite instead of compiling a second one.
DQLITE_TAGS := dqlite,libsqlite3
# The daemon's cluster test runs two serve processes built with the tags,
# without dev: the release build, which refuses --dev (TestReleaseRefusesDev).
# Every other test builds with the dev tag: serve --dev and the tests that
# run it exist only there (make deb leaves it out).
DQLITE_TEST := CGO_ENABLED=1 $(GO) test -race -count=1 -tags $(DQLITE_TAGS) ./daemon/store/dqlite/... ./daemon/store/storecopy/... && \
	CGO_ENABLED=1 $(GO) test -race -count=1 -tags $(DQLITE_TAGS),integration -run '^(TestCluster|TestStoreMigrateDqlite|TestStoreSpecTLS|TestMemberPort|TestRollingUpgradeToTheStoreCA|TestReleaseRefusesDev)' ./daemon/cmd/maas-sidecar/

.PHONY: help build run test test-unit test-integration test-dqlite test-cluster test-browser screenshots e2e lint bench fuzz soak deb deb-daemon clean

help: ## Show this help.
	@awk 'BEGIN{FS=":.*## "} /^[a-zA-Z_-]+:.*## /{printf "  %-18s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

build: ## Build the binaries into bin/ (the daemon with dev mode: tag dev; with the simulated hosts' fakehost and fakegpu).
	$(GO) build -tags dev -ldflags '$(LDFLAGS)' -o $(BIN)/ ./daemon/cmd/maas-sidecar ./agent/cmd/gpuaas-node-agent ./sim/cmd/maassim \
		./sim/cmd/fakehost ./sim/cmd/fakegpu

run: build ## Run the daemon in dev mode: a simulated MAAS site and a demo batch (Ctrl-C stops it).
	mkdir -p $(STATE_DIR)
	$(BIN)/maas-sidecar serve --dev --state-dir $(STATE_DIR)

test: test-deps lint $(VAULTDEV) ## Install test dependencies, lint, run every unit, integration, dqlite store and end-to-end test (cluster ones included).
	$(TEST_ENV) $(GO) test -race -count=1 -tags integration,dev $(PKGS)
	$(DQLITE_TEST)
	$(MAKE) --no-print-directory test-browser
	$(MAKE) --no-print-directory e2e
	$(CLUSTER_E2E)

# The console's browser tests drive the real daemon of an e2e world (the
# simulator, Vault, agents on the simulated hosts) in headless Chromium.
BROWSER_TEST := $(TEST_ENV) $(GO) test -count=1 -tags e2e,browser,dev -run '^TestBrowser' ./e2e/system/

test-browser: test-deps $(VAULTDEV) ## Run the console's browser tests on the real daemon in headless Chromium (fails without chromium; about 60 s).
	$(BROWSER_TEST)

screenshots: test-deps $(VAULTDEV) ## Regenerate the console's screenshots in docs/console/ from its browser tests.
	rm -f docs/console/*.png
	CONSOLE_SCREENSHOTS=$(CURDIR)/docs/console $(BROWSER_TEST)

test-unit: ## Run the unit and component tests only (no external components).
	$(GO) test -count=1 -tags dev $(PKGS)

test-integration: test-deps $(VAULTDEV) ## Run the tests that need real external components.
	$(TEST_ENV) $(GO) test -race -count=1 -tags integration,dev $(PKGS)

# The dqlite store's tests: a single node and 3-node clusters on loopback
# (conformance through the leader and a follower, TLS, handover, failover,
# quorum loss); about 50 s. Then two daemons forming one cluster.
test-dqlite: test-deps ## Run the dqlite store's tests only (cgo, tags $(DQLITE_TAGS); part of make test).
	$(DQLITE_TEST)

e2e: $(VAULTDEV) ## Run the end-to-end tests on the real binaries (daemon, agent, simulator, Vault as processes).
	$(TEST_ENV) $(GO) test -count=1 -tags e2e,dev $(E2E_PKGS)

# Three serve daemons built with the dqlite tags on one store cluster, on
# the real simulator, agents and Vault: failover of a killed lease holder
# (the survivor's first stage progress within 15 s), fencing of a frozen
# one, quorum loss (503 for writes after the store's 10 s timeout, stale
# reads from the survivor's replica, nothing lost when a peer returns),
# webhooks at a member that does not hold the site, the lease's return to
# a site's preferred daemon; about 3 minutes. Part of make test.
CLUSTER_E2E := $(TEST_ENV) CGO_ENABLED=1 $(GO) test -count=1 -tags e2e,dqlite,dev -run '^TestCluster' $(E2E_PKGS)

test-cluster: test-deps $(VAULTDEV) ## Run the end-to-end cluster tests only (cgo, tags e2e,dqlite; part of make test).
	$(CLUSTER_E2E)

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

# The dqlite build needs cgo and the libraries of make test-deps (make test
# installs them first).
lint: $(STATICCHECK) ## gofmt, go vet and staticcheck: untagged, with integration,e2e,browser,dev, and with the dqlite tags (the release build, no dev).
	@bad=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$bad" ]; then echo "gofmt needed:"; echo "$$bad"; exit 1; fi
	$(GO) vet -tags integration,e2e,browser,dev $(PKGS)
	@test -f /usr/include/dqlite.h -a -f /usr/include/raft.h || { echo "lint: the dqlite build needs libdqlite-dev and libraft-dev: run make test-deps"; exit 1; }
	CGO_ENABLED=1 $(GO) vet -tags $(DQLITE_TAGS),integration,e2e $(PKGS)
	printf 'default:\ntagged: -tags=integration,e2e,browser,dev\ndqlite: -tags=$(DQLITE_TAGS),integration,e2e\n' | CGO_ENABLED=1 $(STATICCHECK) -matrix $(PKGS)

# Debian packages. The agent is static (CGO_ENABLED=0) for amd64 and
# arm64. The daemon (amd64) has the dqlite store: cgo with the tags
# $(DQLITE_TAGS), and it is a static PIE (full RELRO, BIND_NOW,
# fortified C) that carries dqlite, raft, libuv, lz4, SQLite and glibc
# from Debian's -dev archives, so one package installs on every supported
# release whatever its libraries (docs/packaging.md); the packager still
# derives Depends from the binary with dpkg-shlibdeps, which gives none.
# Both are built reproducibly (-trimpath, no
# build id, no VCS stamp), stripped (-s -w) and
# stamped with the Debian version; every file in the packages carries
# SOURCE_DATE_EPOCH, the commit's time. Binaries are rebuilt only when a
# Go source, go.mod or the build flags (the version among them) changed.
# The packager (nfpm) is pinned in its own module, hack/pkg, so it adds
# nothing to the product's dependencies.
DIST              ?= dist
DEB_BUILD         ?= $(BIN)/deb
# DEB_SRC is the tree the packages' files come from (units, conffile, scripts).
DEB_SRC           ?= .
DEB_VERSION       ?= $(shell hack/debversion.sh)
SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct)
DEB_LDFLAGS       := -s -w -buildid= -X github.com/gpuaas/maas-sidecar/internal/buildinfo.Version=$(DEB_VERSION)
DEB_FLAGS         := -trimpath -buildvcs=false -ldflags '$(DEB_LDFLAGS)'
DEB_GO            := CGO_ENABLED=0 GOOS=linux $(GO) build $(DEB_FLAGS)
# The C parts (runtime/cgo, go-dqlite's and go-sqlite3's bindings) get
# Debian's hardening flags; they live in GOROOT and the module cache, not
# the checkout, so two checkouts give the same bytes. DQLITE_STATIC_LIBS
# are the archives in link order (a library before those it needs;
# Debian names libuv's archive libuv_a.a); netgo and osusergo keep Go off
# glibc's resolver and user lookup, which a static glibc cannot load.
DQLITE_STATIC_LIBS := -ldqlite -lraft -lsqlite3 -luv_a -llz4 -lm -lpthread -ldl -lrt
DQLITE_STATIC_TAGS := $(DQLITE_TAGS),netgo,osusergo
DEB_CGO           := CGO_ENABLED=1 GOOS=linux GOARCH=amd64 CGO_CFLAGS='-O2 -g -fstack-protector-strong -D_FORTIFY_SOURCE=2' \
	CGO_LDFLAGS='$(DQLITE_STATIC_LIBS)' $(GO) build -buildmode=pie -tags $(DQLITE_STATIC_TAGS) -trimpath -buildvcs=false \
	-ldflags '$(DEB_LDFLAGS) -linkmode=external -extldflags=-static-pie'
# Static glibc warns for each function that would need its shared NSS or
# dlopen at run time. Two are linked but never called (SQLite's
# load_extension, libuv's uv_os_get_passwd); any other (getaddrinfo,
# getpwnam, ...) fails the build.
DQLITE_LINK_OK    := unixDlOpen|uv__getpwuid_r|Using .(dlopen|getpwuid_r). in statically linked
DEB_BINS          := $(DEB_BUILD)/amd64/maas-sidecar $(DEB_BUILD)/amd64/gpuaas-node-agent $(DEB_BUILD)/arm64/gpuaas-node-agent
GO_SRC            := go.mod go.sum $(shell find daemon agent internal ipmi cloudinit -name '*.go' -not -name '*_test.go')
PKGDEB            := $(BIN)/pkgdeb

deb: $(DEB_BINS) $(PKGDEB) ## Build the .deb packages into $(DIST)/ (override DEB_VERSION, DIST).
	@test -n "$(DEB_VERSION)" -a -n "$(SOURCE_DATE_EPOCH)" || { echo "deb: set DEB_VERSION and SOURCE_DATE_EPOCH outside git"; exit 1; }
	$(PKGDEB) --version $(DEB_VERSION) --epoch $(SOURCE_DATE_EPOCH) --src $(DEB_SRC) --bin $(DEB_BUILD) --out $(DIST)

# The build flags (the version among them), rewritten only when they change.
$(DEB_BUILD)/.flags: FORCE
	@mkdir -p $(@D); echo '$(DEB_GO) $(DEB_CGO)' | cmp -s - $@ || echo '$(DEB_GO) $(DEB_CGO)' > $@

$(DEB_BUILD)/amd64/maas-sidecar: $(GO_SRC) $(DEB_BUILD)/.flags
	@mkdir -p $(@D); for a in libdqlite.a libraft.a libsqlite3.a libuv_a.a liblz4.a; do \
		test -f "$$($${CC:-cc} -print-file-name=$$a)" || { echo "deb: the daemon links $$a statically: install libdqlite-dev, libraft-dev, libsqlite3-dev, libuv1-dev and liblz4-dev (make test-deps)"; exit 1; }; done
	$(DEB_CGO) -o $@ ./daemon/cmd/maas-sidecar 2>$@.link || { cat $@.link; exit 1; }
	@if grep -Ev '$(DQLITE_LINK_OK)|^#' $@.link | grep -q .; then \
		cat $@.link; echo "deb: the static link warns of a glibc function other than dlopen and getpwuid_r (above)"; rm -f $@; exit 1; fi

deb-daemon: $(DEB_BUILD)/amd64/maas-sidecar ## Build only the packaged daemon (static PIE) into $(DEB_BUILD)/amd64/; the cluster e2e tests run it.

$(DEB_BUILD)/%/gpuaas-node-agent: $(GO_SRC) $(DEB_BUILD)/.flags
	GOARCH=$* $(DEB_GO) -o $@ ./agent/cmd/gpuaas-node-agent

$(PKGDEB): hack/pkg/go.mod hack/pkg/go.sum $(wildcard hack/pkg/*.go)
	cd hack/pkg && $(GO) build -o $(abspath $(PKGDEB)) .

.PHONY: FORCE
FORCE:

# Built with the dqlite tags (cgo, make test-deps) so that the onboarding
# benchmark runs on bbolt and on a 3-node dqlite cluster in one run.
# The e2e tag adds the daemon's own-process memory benchmark (e2e/system,
# with Vault from bin/vaultdev). The raw output is kept in $(BENCH_OUT);
# hack/benchtable copies it through and ends with the table of the
# targets (measure, target, now, ratio), failing when a benchmark failed.
BENCH_OUT := bench.out
bench: test-deps $(VAULTDEV) ## Run the benchmarks (bbolt and dqlite side by side), then print the table of targets (raw output in bench.out).
	$(TEST_ENV) CGO_ENABLED=1 $(GO) test -tags $(DQLITE_TAGS),e2e -run '^$$' -bench . -benchmem -timeout 60m $(PKGS) 2>&1 \
		| tee $(BENCH_OUT) | $(GO) run ./hack/benchtable

# Every Go fuzz target (hack/fuzz.sh finds them by name), one after the
# other, each for FUZZTIME; FUZZ=regexp picks targets, FUZZ_SAVE=N keeps up
# to N of each target's new inputs in its testdata/fuzz corpus. make test
# runs the committed corpora and the f.Add seeds as ordinary tests, not the
# fuzzing engine (docs/fuzzing.md).
FUZZTIME ?= 1m
fuzz: ## Fuzz every parser for FUZZTIME each (default 1m; FUZZ=regexp picks targets; see docs/fuzzing.md).
	FUZZTIME=$(FUZZTIME) GO=$(GO) hack/fuzz.sh

# The soak: SOAK_N onboardings through the real workflow, MAAS client and
# bbolt store against the simulator (MAAS's clock at speed 20,000), with a
# full drift pass after every wave of 500; goroutines, heap, open files and
# store size printed at start and end and held to the test's bounds.
# make test runs the same test with 20 onboardings.
SOAK_N ?= 10000
soak: ## Run the soak: 10,000 onboardings and their drift checks, bounded goroutines, heap, files and store (SOAK_N to change).
	MAAS_SIDECAR_SOAK_N=$(SOAK_N) $(GO) test -count=1 -run '^TestSoakOnboardingsAndDriftChecksStayBounded$$' -v -timeout 120m ./daemon/workflow/

clean: ## Remove build outputs and local run state.
	rm -rf $(BIN) .run dist
