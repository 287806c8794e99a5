# iggywire: run `make help` for the targets.
GO       ?= go
FUZZTIME ?= 7s
T        ?=
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
BENCHSTAT   := golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
GREMLINS    := github.com/go-gremlins/gremlins/cmd/gremlins@v0.6.0
ACTIONLINT  := github.com/rhysd/actionlint/cmd/actionlint@v1.7.12

.PHONY: help test props bench benchstat race mutants gremlins mutants-workbench lint fuzz fuzz-one corpus-seed corpus-promote cover-corpus triage loginserver

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-16s %s\n", $$1, $$2}'

test: ## go vet, then every test (corpus and crashers replay as regression tests)
	$(GO) vet ./...
	$(GO) test ./...

props: ## the gopter property suite (PROPS_SEED=n, PROPS_COUNT=n to explore)
	$(GO) test ./props/... -count=1 -v -run . $(if $(PROPS_COUNT),-args -props.count=$(PROPS_COUNT))

BENCHCOUNT ?= 7
BENCHTIME  ?= 300ms
# BENCHCOUNT rounds of every benchmark once, not -count (each benchmark
# BENCHCOUNT times in a row): benchratio pairs each path with the floor of
# the same round, so a machine whose speed drifts during the run moves both.
bench: ## codec and lifecycle benchmarks in BENCHCOUNT rounds, then each codec path's ratio to its floor (writes bench.new.txt)
	@set -e; for i in $$(seq $(BENCHCOUNT)); do \
		$(GO) test ./codec/ ./lifecycle/ -run '^$$' -bench . -benchmem -count=1 -benchtime=$(BENCHTIME); \
	done | tee bench.new.txt
	$(GO) run ./internal/benchratio < bench.new.txt

benchstat: ## compare bench.old.txt with bench.new.txt (BENCHCOUNT=6 make bench twice, renaming the first)
	$(GO) run $(BENCHSTAT) bench.old.txt bench.new.txt

race: ## the lifecycle and loginserver tests under the race detector
	$(GO) test -race -count=1 ./lifecycle/... ./cmd/loginserver/...

mutants: ## mutation check: each deliberate codec bug must fail a property (opt-in, ~30 s)
	$(GO) run ./internal/mutants

gremlins: ## mutation testing of codec/ by its own tests (slow: minutes)
	$(GO) run $(GREMLINS) unleash --workers 2 ./codec

# The workbench's own mutation score: codec/ mutated, and only props/ and
# fuzz/ (corpus and crashers replayed) left to notice. The module is copied
# so deleting every other *_test.go never touches the working tree.
# MUTANTS_JSON=path also keeps gremlins' machine-readable report.
MUTANTS_JSON ?=
mutants-workbench: ## gremlins on codec/ judged by props/ and fuzz/ alone; prints efficacy and mutant coverage (slow: ~40 min on 2 cores)
	@set -e; dir=$$(mktemp -d); trap 'rm -rf "$$dir"' EXIT INT TERM; \
	tar --exclude=./.git --exclude=./bin -cf - . | tar -xf - -C "$$dir"; \
	find "$$dir" -name '*_test.go' ! -path "$$dir/props/*" ! -path "$$dir/fuzz/*" -delete; \
	echo "mutants-workbench: tests left: $$(cd "$$dir" && find . -name '*_test.go' | sort | tr '\n' ' ')"; \
	cd "$$dir" && $(GO) run $(GREMLINS) unleash --integration --workers 2 --timeout-coefficient 3 \
		--coverpkg ./codec/... $(if $(MUTANTS_JSON),--output $(abspath $(MUTANTS_JSON))) ./codec

lint: ## staticcheck and actionlint (every workflow), pinned
	$(GO) run $(STATICCHECK) ./...
	$(GO) run $(ACTIONLINT)

# FUZZFLAGS passes more flags to fuzzrun, e.g. -budget FuzzX=5000x to give
# one target a budget of its own.
FUZZFLAGS ?=
fuzz: ## the main job: every fuzz target for FUZZTIME (7s, or a count like 50000x) each, then a summary table
	$(GO) run ./internal/fuzzrun -fuzztime $(FUZZTIME) $(FUZZFLAGS)

fuzz-one: ## one fuzz target: make fuzz-one T=FuzzX [FUZZTIME=1m]
	$(GO) run ./internal/fuzzrun -fuzztime $(FUZZTIME) -run $(T)

corpus-seed: ## regenerate the seed files in corpus/ (reproducible)
	$(GO) run ./internal/corpusseed -out corpus

.PHONY: vectors
vectors: ## regenerate the conformance vectors in vectors/ (reproducible; checked against codec and lifecycle)
	$(GO) run ./internal/vectorgen -out vectors

corpus-promote: ## copy what fuzzing found into corpus/ as raw files
	$(GO) run ./internal/fuzzrun -promote

COVER_HTML ?=
cover-corpus: ## replay corpus/ and crashers/ only; print codec/ statement coverage (COVER_HTML=file.html: also the annotated page)
	$(GO) run ./internal/fuzzrun -cover $(if $(COVER_HTML),-html $(COVER_HTML))

triage: ## decode every crasher into named fields
	@for f in $$(find crashers -type f ! -name '*.md' | sort); do echo "== $$f"; $(GO) run ./cmd/wiredump $$f || true; done

loginserver: ## run the loopback login server (user iggy:iggy)
	$(GO) run ./cmd/loginserver -user iggy:iggy

.PHONY: soak
SOAKBIN   ?= /tmp/iggywire-soak-loginserver
SOAKFLAGS ?=
soak: ## the attacks at full size against cmd/loginserver (loopback, ~3 min, not in CI): probe login p50/p99, peak RSS, fds
	$(GO) build -o $(SOAKBIN) ./cmd/loginserver
	$(GO) run ./internal/soak -server $(SOAKBIN) $(SOAKFLAGS)
