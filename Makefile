# iggywire: run `make help` for the targets.
GO       ?= go
FUZZTIME ?= 10s
T        ?=
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@2025.1.1
BENCHSTAT   := golang.org/x/perf/cmd/benchstat@v0.0.0-20250813145418-2a7c8c7e4bcb

.PHONY: help test props bench lint fuzz fuzz-one corpus-seed corpus-promote cover-corpus triage loginserver

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-16s %s\n", $$1, $$2}'

test: ## go vet, then every test (corpus and crashers replay as regression tests)
	$(GO) vet ./...
	$(GO) test ./...

props: ## the gopter property suite (PROPS_SEED=n, PROPS_COUNT=n to explore)
	$(GO) test ./props/... -count=1 -v -run . $(if $(PROPS_COUNT),-args -props.count=$(PROPS_COUNT))

bench: ## codec benchmarks with allocation counts
	$(GO) test ./codec/ -run '^$$' -bench . -benchmem

lint: ## staticcheck, pinned
	$(GO) run $(STATICCHECK) ./...

fuzz: ## the main job: every fuzz target for FUZZTIME each, then a summary table
	$(GO) run ./internal/fuzzrun -fuzztime $(FUZZTIME)

fuzz-one: ## one fuzz target: make fuzz-one T=FuzzX [FUZZTIME=1m]
	$(GO) run ./internal/fuzzrun -fuzztime $(FUZZTIME) -run $(T)

corpus-seed: ## regenerate the seed files in corpus/ (reproducible)
	$(GO) run ./internal/corpusseed -out corpus

corpus-promote: ## copy what fuzzing found into corpus/ as raw files
	$(GO) run ./internal/fuzzrun -promote

cover-corpus: ## replay corpus/ and crashers/ only; print codec/ statement coverage
	$(GO) run ./internal/fuzzrun -cover

triage: ## decode every crasher into named fields
	@for f in $$(find crashers -type f ! -name '*.md' | sort); do echo "== $$f"; $(GO) run ./cmd/wiredump $$f || true; done

loginserver: ## run the loopback login server (user iggy:iggy)
	$(GO) run ./cmd/loginserver -user iggy:iggy
