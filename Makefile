# iggywire: run `make help` for the targets.
GO       ?= go
FUZZTIME ?= 7s
T        ?=
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
BENCHSTAT   := golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
GREMLINS    := github.com/go-gremlins/gremlins/cmd/gremlins@v0.6.0
ACTIONLINT  := github.com/rhysd/actionlint/cmd/actionlint@v1.7.12

# Two modules. The root module (go.mod) is the product (codec, lifecycle,
# lifecycle/tcp) and its workbench (props, fuzz, internal); its go line is
# the oldest Go the product builds with, and it requires only what the
# workbench's tests import, none of which reaches an importer of codec or
# lifecycle (make importcheck holds that, and docs/importing.md says what
# it raises). cmd/ is the module github.com/iggywire/iggywire/cmd: conform,
# loginserver and wiredump, with Prometheus and the go 1.26.0 it needs. Its
# packages may still import the root's internal/... (the internal rule goes
# by import path, not by module).
#
# cmd/go.mod requires the root module at the release it ships with, and has
# no replace directive: go install refuses a module with one, and
# `go install github.com/iggywire/iggywire/cmd/conform@v0.1.0` is how the
# kit and the server install (make release-check rehearses it). In a clone,
# the committed cmd/go.work (use ., and a replace of the root module => ..)
# builds the commands from this checkout instead. It is seen only from cmd/
# and below, and names no module of the root: a go.work at the root (use .
# and ./cmd) was tried and not kept, because ./... from the root does not
# reach cmd/ even in a workspace, its go line would make every go command
# at the root need Go 1.26 (an older toolchain, and OSS-Fuzz's Go 1.25
# build, would need GOWORK=off), a workspace builds each module with the
# other's requirements, and tests would run with the go.work's GODEBUG
# defaults, not the root module's. So each target names its module: the
# root with GOWORK=off (which also keeps a go.work of your own, say for an
# editor, from changing what make runs), cmd/ through $(CMDGO), which names
# cmd/go.work. go mod tidy reads no go.work: make tidy and tidy-diff handle
# cmd/ on a copy of its go.mod (CMDTIDY below).
export GOWORK := off
CMDGO := GOWORK=$(CURDIR)/cmd/go.work $(GO) -C cmd

.PHONY: help test props bench bench-mem benchstat race mutants gremlins mutants-workbench lint fuzz fuzz-one corpus-seed corpus-promote cover-corpus triage loginserver importcheck tidy tidy-diff release-check api api-update

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-16s %s\n", $$1, $$2}'

test: ## go vet, then every test (corpus and crashers replay as regression tests), in both modules
	$(GO) vet ./...
	$(GO) test ./...
	$(CMDGO) vet ./...
	$(CMDGO) test ./...

# cmd/ is tidied on a copy of its go.mod and go.sum (-modfile) that
# replaces the root module with this checkout: go mod tidy reads no
# go.work, and the release cmd/go.mod requires is not published before it
# is tagged. The replace is dropped again before the copy is compared or
# written back, so cmd/go.sum holds no line for the root module (go install
# of a release reads no go.sum of the module it installs).
ROOTMOD := github.com/iggywire/iggywire
CMDTIDY  = dir=$$(mktemp -d); trap 'rm -rf "$$dir"' EXIT INT TERM; \
	cp cmd/go.mod cmd/go.sum "$$dir/"; \
	$(GO) -C cmd mod edit -modfile="$$dir/go.mod" -replace=$(ROOTMOD)=$(CURDIR); \
	$(GO) -C cmd mod tidy -modfile="$$dir/go.mod"; \
	$(GO) -C cmd mod edit -modfile="$$dir/go.mod" -dropreplace=$(ROOTMOD)

tidy: ## go mod tidy in both modules
	$(GO) mod tidy
	@set -e; $(CMDTIDY); cp "$$dir/go.mod" "$$dir/go.sum" cmd/

tidy-diff: ## what go mod tidy would change in either module (cmd/ against this checkout); fails when either would change
	$(GO) mod tidy -diff
	@set -e; $(CMDTIDY); \
	for f in go.mod go.sum; do diff -u --label cmd/$$f --label "cmd/$$f (tidy)" cmd/$$f "$$dir/$$f" || \
		{ echo "tidy-diff: cmd/ is not tidy: make tidy"; exit 1; }; done

# The release rehearsed without publishing it. Both modules are served at
# v$(RELEASE) (internal/release's Version) from a local file proxy, laid
# out as proxy.golang.org serves them once tagged, and every command is
# installed from it into an empty GOPATH, as an SDK author would install it
# (go install refuses a module with a replace directive, and one requiring
# a version no proxy has); each must print the version it was installed
# at, and the kit must find its cases in the root module's vectors/, which
# go install put in the module cache. A module's zip is git archive of this tree as `git add -A` would
# commit it (a tag is made of a commit), less every directory holding a
# go.mod of its own, as the go command cuts one. Offline: our modules from
# the file proxy, every dependency from this machine's module cache (make
# test fills it; RELEASEDEPS=https://proxy.golang.org fetches what it
# lacks), and no checksum database, which knows neither module.
RELEASE     := $(shell sed -n 's/^const Version = "\(.*\)"/\1/p' internal/release/release.go)
RELEASEDEPS ?= off
release-check: ## the release rehearsed: go install conform, loginserver and wiredump at internal/release's version from a local module proxy of this tree into an empty GOPATH (offline); each must print it
	@set -e; v=v$(RELEASE); dir=$$(mktemp -d); \
	trap 'chmod -R u+w "$$dir" 2>/dev/null; rm -rf "$$dir"' EXIT INT TERM; \
	cache=$$($(GO) env GOMODCACHE)/cache/download; \
	GIT_INDEX_FILE="$$dir/index" git add -A; tree=$$(GIT_INDEX_FILE="$$dir/index" git write-tree); \
	for m in "" cmd; do \
		p=$(ROOTMOD)$${m:+/$$m}; src=$$tree$${m:+:$$m}; at="$$dir/proxy/$$p/@v"; mkdir -p "$$at"; \
		skip=$$(git ls-tree -r --name-only $$src | sed -n 's|^\(.*\)/go\.mod$$|:(exclude)\1|p'); \
		git archive --format=zip --prefix=$$p@$$v/ $$src -- . $$skip > "$$at/$$v.zip"; \
		git show $$tree:$${m:+$$m/}go.mod > "$$at/$$v.mod"; \
		printf '{"Version":"%s","Time":"%s"}\n' $$v $$(date -u +%Y-%m-%dT%H:%M:%SZ) > "$$at/$$v.info"; \
		echo $$v > "$$at/list"; \
		echo "release-check: $$p@$$v: $$(git archive --format=tar $$src -- . $$skip | tar -tf - | grep -vc '/$$') files$${skip:+, without }$$(echo $$skip | sed 's/:(exclude)//g')"; \
	done; \
	cd "$$dir"; \
	env GOPATH="$$dir/gopath" GOMODCACHE="$$dir/gopath/pkg/mod" GOBIN="$$dir/bin" GOFLAGS=-modcacherw \
		GOPROXY="file://$$dir/proxy,file://$$cache,$(RELEASEDEPS)" GOSUMDB=off GONOSUMDB= GONOPROXY= GOPRIVATE= \
		GOWORK=off GOTOOLCHAIN=local \
		$(GO) install $(ROOTMOD)/cmd/conform@$$v $(ROOTMOD)/cmd/loginserver@$$v $(ROOTMOD)/cmd/wiredump@$$v; \
	for c in conform loginserver wiredump; do \
		line=$$("$$dir/bin/$$c" -version); echo "release-check: $$line"; \
		case "$$line " in "$$c $(RELEASE) module=$$v "*) ;; \
		*) echo "release-check: $$c -version does not say $$v"; exit 1;; esac; \
	done; \
	mkdir "$$dir/empty"; n=$$(cd "$$dir/empty" && "$$dir/bin/conform" list server | wc -l); \
	echo "release-check: conform list server outside a checkout (its built-in vectors): $$n cases"; \
	test "$$n" -gt 0; \
	echo "release-check: v$(RELEASE) installs (a rehearsal: docs/release.md says how to tag it)"

# The record in api/ is internal/cmd/apirecord's (one feature a line, as
# go/types spells it, sorted); on a difference make api also prints what apidiff,
# pinned here, classifies as compatible or incompatible against the last
# commit (git archive HEAD). apidiff keeps no readable record itself.
APIDIFF     := golang.org/x/exp/cmd/apidiff@v0.0.0-20261113113407-e3970619a1a4
api: ## check the exported API of codec, lifecycle, lifecycle/tcp and props against its record in api/ (fails and lists +/- features, and apidiff's compatible/incompatible changes, when they differ)
	@set -e; dir=$$(mktemp -d); trap 'rm -rf "$$dir"' EXIT INT TERM; \
	$(GO) run ./internal/cmd/apirecord -o "$$dir/api" > /dev/null; \
	if diff -ru api "$$dir/api"; then echo "api: api/ matches the exported API"; exit 0; fi; \
	echo "api: apidiff, the last commit's API against this tree's:"; \
	mod=$$($(GO) list -m); mkdir "$$dir/base"; \
	if git archive HEAD 2>/dev/null | tar -x -C "$$dir/base" && \
		(cd "$$dir/base" && $(GO) run $(APIDIFF) -m -w "$$dir/base.x" "$$mod" > /dev/null 2>&1); then \
		$(GO) run $(APIDIFF) -m "$$dir/base.x" "$$mod" 2>&1 | grep -v '^Ignoring internal package' | sed 's/^/  /' || true; \
	else echo "  (no commit to compare with)"; fi; \
	echo "api: the exported API differs from its record; if that is deliberate, run \`make api-update\` and add the change to CHANGELOG.md"; \
	exit 1

api-update: ## rewrite api/ from the exported API; then say why in CHANGELOG.md
	$(GO) run ./internal/cmd/apirecord -o api

importcheck: ## scratch importers of codec, lifecycle and lifecycle/tcp must gain no require, no go.sum line, no newer go line (offline); one with older testify and go-cmp is raised only to our versions (docs/importing.md)
	$(GO) run ./internal/cmd/importcheck

props: ## the gopter property suite (PROPS_SEED=n, PROPS_COUNT=n to explore)
	$(GO) test ./props/... -count=1 -v -run . $(if $(PROPS_COUNT),-args -props.count=$(PROPS_COUNT))

BENCHCOUNT ?= 7
BENCHTIME  ?= 300ms
# BENCHCOUNT rounds of every benchmark once, not -count (each benchmark
# BENCHCOUNT times in a row): benchratio pairs each path with the floor of
# the same round, so a machine whose speed drifts during the run moves both.
bench: ## codec and lifecycle benchmarks in BENCHCOUNT rounds, then each codec path's ratio to its floor; fails when a goal is missed (writes bench.new.txt)
	@set -e; for i in $$(seq $(BENCHCOUNT)); do \
		$(GO) test ./codec/ ./lifecycle/ -run '^$$' -bench . -benchmem -count=1 -benchtime=$(BENCHTIME); \
	done | tee bench.new.txt
	$(GO) run ./internal/cmd/benchratio -check < bench.new.txt

bench-mem: ## make bench's allocation budgets alone, timing nothing (CI runs it): ReadFrameBody, OperationForCode, NewServer at MaxSessionsLimit
	$(GO) test ./codec/ ./lifecycle/ -run '^$$' -bench '^Benchmark(Frame|NewServer)$$' -benchmem -benchtime 100x | $(GO) run ./internal/cmd/benchratio -mem -check

benchstat: ## compare bench.old.txt with bench.new.txt (BENCHCOUNT=6 make bench twice, renaming the first)
	@for f in bench.old.txt bench.new.txt; do \
		test -s $$f || { echo "benchstat: $$f is missing: run make bench, rename bench.new.txt to bench.old.txt, change the code, run make bench again"; exit 1; }; \
	done
	$(GO) run $(BENCHSTAT) bench.old.txt bench.new.txt

race: ## the lifecycle and loginserver tests under the race detector
	$(GO) test -race -count=1 ./lifecycle/...
	$(CMDGO) test -race -count=1 ./loginserver/...

mutants: ## mutation check: each named codec bug (keyed by function and expression) must fail a property (opt-in)
	$(GO) run ./internal/cmd/mutants

gremlins: ## mutation testing of codec/ by its own tests (slow)
	$(GO) run $(GREMLINS) unleash --workers 2 ./codec

# The workbench's own mutation score: codec/ mutated, and only props/ and
# fuzz/ (corpus and crashers replayed) left to notice. The module is copied
# so deleting every other *_test.go never touches the working tree; cmd/
# is another module and is left out of the copy.
# MUTANTS_JSON=path also keeps gremlins' machine-readable report;
# MUTANTS_FLAGS passes more flags to gremlins (a subset of codec/:
# -E '(a|b)\.go' leaves codec/a.go and b.go out; docs/mutants.md).
MUTANTS_JSON ?=
MUTANTS_FLAGS ?=
mutants-workbench: ## gremlins on codec/ judged by props/ and fuzz/ alone; prints efficacy and mutant coverage (slow)
	@set -e; dir=$$(mktemp -d); trap 'rm -rf "$$dir"' EXIT INT TERM; \
	tar --exclude=./.git --exclude=./bin --exclude=./cmd -cf - . | tar -xf - -C "$$dir"; \
	find "$$dir" -name '*_test.go' ! -path "$$dir/props/*" ! -path "$$dir/fuzz/*" -delete; \
	echo "mutants-workbench: tests left: $$(cd "$$dir" && find . -name '*_test.go' | sort | tr '\n' ' ')"; \
	cd "$$dir" && $(GO) run $(GREMLINS) unleash --integration --workers 2 --timeout-coefficient 3 \
		--coverpkg ./codec/... $(if $(MUTANTS_JSON),--output $(abspath $(MUTANTS_JSON))) $(MUTANTS_FLAGS) ./codec

lint: ## staticcheck (both modules) and actionlint (every workflow), pinned
	$(GO) run $(STATICCHECK) ./...
	$(CMDGO) run $(STATICCHECK) ./...
	$(GO) run $(ACTIONLINT)

# The fuzz loop (make fuzz, fuzz-one): each target of $$targets for
# FUZZTIME (a duration, or a count like 50000x, as go test -fuzztime takes
# it), then a table of each target's last status line. A failing input is
# moved to crashers/<Target>/ as raw bytes (fuzzrun -save); go test's
# own deadline error with no failing input (go.dev/issue/75804, Go 1.26)
# passes, and says so. When $GITHUB_STEP_SUMMARY is set (a GitHub Actions
# step) the table is appended to it too. FUZZFLAGS passes more flags to
# go test (-parallel=1, say).
FUZZFLAGS ?=
FUZZLIST  := $(GO) test -list '^Fuzz' ./fuzz/ | grep '^Fuzz'
# FUZZTABLE prints a table file of lines "target n1 ... nN result..." under
# the column names of $$cols, a total of the first column and "$$job: N
# passed, N failed", and fails when a result is not PASS.
FUZZTABLE = awk -v cols="$$cols" -v job="$$job" ' \
	function row(a, r, n, i) { printf "%-28s", a[1]; for (i = 2; i <= n + 1; i++) printf " %10s", a[i]; print "  " r } \
	BEGIN { n = split("target " cols, h, " ") - 1; row(h, "result", n) } \
	{ r = $$(n + 2); for (i = n + 3; i <= NF; i++) r = r " " $$i; split($$0, a, " "); row(a, r, n); total += $$2; if (r !~ /^PASS/) failed++ } \
	END { printf "%-28s %10d\n\n%s: %d passed, %d failed\n", "total", total, job, NR - failed, failed; exit (failed > 0) }'
# FUZZSUMMARY shows the table and, in a GitHub Actions step, appends it
# to the step summary.
FUZZSUMMARY = $(FUZZTABLE) "$$log/table" > "$$log/summary" || status=1; echo; cat "$$log/summary"; \
	if [ -n "$$GITHUB_STEP_SUMMARY" ]; then { echo '```'; cat "$$log/summary"; echo '```'; } >> "$$GITHUB_STEP_SUMMARY"; fi; \
	exit $${status:-0}
GOFUZZ = set -e; log=$$(mktemp -d); trap 'rm -rf "$$log"' EXIT INT TERM; \
	for t in $$targets; do \
		echo "=== $$t for $(FUZZTIME)"; \
		{ rc=0; $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) $(FUZZFLAGS) ./fuzz/ 2>&1 || rc=$$?; echo $$rc > "$$log/rc"; } | tee "$$log/out"; \
		result=PASS; \
		if [ "$$(cat "$$log/rc")" != 0 ]; then \
			in=$$(sed -n 's/.*Failing input written to \([^ ]*\).*/\1/p' "$$log/out" | tail -n 1); \
			if [ -n "$$in" ]; then \
				result=$$($(GO) run ./internal/cmd/fuzzrun -save $$t "fuzz/$$in") || result="FAIL: fuzzrun -save fuzz/$$in"; \
				echo "fuzz: the failing input is now $$result (raw bytes; xxd reads it, make triage decodes it), moved from fuzz/$$in"; \
				echo "fuzz: to re-run it: go test ./fuzz -run '^$$t$$' (which names the file of each failing seed\#N)"; \
			elif grep -qx 'context deadline exceeded' "$$log/out"; then result="PASS (go.dev/issue/75804 deadline race, no input failed)"; \
			else result="FAIL: go test failed without a failing input (see output above; go test ./fuzz -run '^$$t$$' names the file of a failing seed\#N)"; fi; \
		fi; \
		last=$$(sed -n 's/^fuzz: elapsed: \([^,]*\), execs: \([0-9]*\) (\([0-9]*\)\/sec), new interesting: \([0-9]*\) (total: \([0-9]*\)).*/\2 \3 \4 \5 \1/p' "$$log/out" | tail -n 1); \
		echo "$$t $${last:-0 0 0 0 -} $$result" >> "$$log/table"; \
	done; \
	cols="execs execs/s new corpus elapsed" job=fuzz; $(FUZZSUMMARY)

fuzz: ## the main job: every fuzz target for FUZZTIME (7s, or a count like 50000x) each, then a summary table
	@targets=$$($(FUZZLIST)); $(GOFUZZ)

fuzz-one: ## one fuzz target: make fuzz-one T=FuzzX [FUZZTIME=1m]
	@$(FUZZLIST) | grep -qx '$(T)' || { echo "fuzz-one: no fuzz target '$(T)' in ./fuzz/ (T=FuzzX)"; exit 2; }; \
	targets='$(T)'; $(GOFUZZ)

corpus-seed: ## regenerate the vec-* seed files in corpus/ from the cases of vectors/ (reproducible)
	$(GO) run ./internal/cmd/corpusseed -out corpus

.PHONY: vectors
vectors: ## regenerate the conformance vectors in vectors/ (reproducible; checked against codec and lifecycle)
	$(GO) run ./internal/cmd/vectorgen -out vectors

corpus-promote: ## copy what fuzzing found into corpus/ as raw files
	$(GO) run ./internal/cmd/fuzzrun -promote

# COVERSUM sums coverage profiles (a block counts when any profile ran
# it) into "$$what: P% (C of N statements)", then, unless $$quiet is set,
# the blocks never reached.
COVERSUM = awk -v what="$$what" -v quiet="$$quiet" ' \
	FNR > 1 && NF == 3 { n[$$1] = $$2; if ($$3 > 0) hit[$$1] = 1 } \
	END { for (b in n) { all += n[b]; if (b in hit) c += n[b] } \
		printf "%s: %.1f%% (%d of %d statements)\n", what, all ? 100 * c / all : 100, c, all; \
		if (!quiet) for (b in n) if (!(b in hit)) print "  not reached: " b | "LC_ALL=C sort" }'

COVER_HTML ?=
cover-corpus: ## replay corpus/ and crashers/ only; print codec/ statement coverage (COVER_HTML=file.html: also the annotated page)
	@set -e; dir=$$(mktemp -d); trap 'rm -rf "$$dir"' EXIT INT TERM; \
	$(GO) test -count=1 -run '^Fuzz' -coverpkg=./codec/... -coverprofile="$$dir/cover.out" ./fuzz/; \
	what="codec/ statement coverage from corpus/ and crashers/"; $(COVERSUM) "$$dir/cover.out"; \
	$(if $(COVER_HTML),$(GO) tool cover -html="$$dir/cover.out" -o $(COVER_HTML); echo "coverage page: $(COVER_HTML)")

triage: ## decode every crasher into named fields, and say where the reference codec (internal/refcodec) reads it otherwise
	@set -e; bin=$$(mktemp -d); trap 'rm -rf "$$bin"' EXIT INT TERM; \
	$(CMDGO) build -o "$$bin/wiredump" ./wiredump; \
	for f in $$(find crashers -type f ! -name '*.md' | sort); do echo "== $$f"; "$$bin/wiredump" -ref $$f | tee "$$bin/out" || true; \
		if grep -q 'reference: DIFFERS' "$$bin/out"; then echo "$$f" >> "$$bin/differ"; fi; done; \
	if [ -s "$$bin/differ" ]; then echo "triage: the codec and the reference codec disagree on:"; sed 's/^/  /' "$$bin/differ"; \
	else echo "triage: the codec and the reference codec agree on every crasher"; fi

loginserver: ## run the loopback login server (user iggy:iggy)
	$(CMDGO) run ./loginserver -user iggy:iggy

.PHONY: soak
# The server binary is built inside the clone (bin/ is ignored by git), not
# at a fixed path in the shared temporary directory.
SOAKBIN   ?= bin/loginserver-soak
SOAKFLAGS ?=
soak: ## every attack at full size against cmd/loginserver (loopback, not in CI): probe p50/p99, RSS, kernel TCP memory, log lines/s; exits 1 on a miss (SOAKFLAGS=-run NAME, -list)
	$(CMDGO) build -o $(abspath $(SOAKBIN)) ./loginserver
	$(GO) run ./internal/cmd/soak -server $(abspath $(SOAKBIN)) $(SOAKFLAGS)

# Opt-in: it measures wall-clock time, so `go test ./...` skips it.
.PHONY: timing
timing: ## StaticAuth timing: an unknown user and a wrong password take the same time against 1,000 users (medians, KS test at p < 0.001)
	IGGYWIRE_TIMING=1 $(GO) test ./lifecycle -run '^TestAuthTiming$$' -count=1 -v

.PHONY: conform
# The kit against this project: server mode driven by lifecycle.Client
# (conform drive), client mode against cmd/loginserver, each at every
# protocol of its list. Everything listens on free loopback ports, read
# back from each program's first lines, so two runs at once never meet.
# Binaries go to bin/, which git ignores; the reports to CONFORMOUT, one
# per implementation and protocol (0.11.0,0.11.1: a server of both
# revisions, each login read in its own layout). conform drive refuses a
# protocol whose login lifecycle.Client does not build.
CONFORMOUT ?= bin/conform-reports
CONFORM_PROTOCOLS ?= 0.11.0 0.11.1 0.11.0,0.11.1
CONFORM_DRIVE_PROTOCOLS ?= 0.11.0 0.11.1
conform: ## the conformance kit against this project at each protocol: server mode driven by lifecycle.Client, client mode against cmd/loginserver; reports in CONFORMOUT
	$(CMDGO) build -o $(abspath bin/conform) ./conform
	$(CMDGO) build -o $(abspath bin/loginserver-conform) ./loginserver
	@set -e; dir=$$(mktemp -d); pid=; kit=; reports=; \
	trap 'for p in $$pid $$kit; do kill $$p 2>/dev/null || true; done; rm -rf "$$dir"' EXIT INT TERM; \
	await() { for i in $$(seq 100); do v=$$(sed -n "$$2" "$$1"); if [ -n "$$v" ]; then echo "$$v"; return; fi; sleep 0.1; done; cat "$$1" >&2; exit 1; }; \
	printf 'iggy:iggy\nbob:secret\ntok=iggy\nbobtok=bob\n' > "$$dir/users"; chmod 600 "$$dir/users"; \
	for p in $(CONFORM_DRIVE_PROTOCOLS); do \
	bin/conform server -protocol $$p -listen 127.0.0.1:0 -control 127.0.0.1:0 -agent lifecycle.Client-$$p -out $(CONFORMOUT) > "$$dir/kit" & kit=$$!; \
	addr=$$(await "$$dir/kit" 's/^conform: server mode on \([^,]*\),.*/\1/p'); \
	ctl=$$(await "$$dir/kit" 's|^conform: control endpoint http://\([^ ]*\) .*|\1|p'); \
	bin/conform drive -protocol $$p -addr $$addr -control $$ctl || { status=1; kill $$kit; }; wait $$kit || status=$$?; kit=; cat "$$dir/kit"; \
	reports="$$reports $(CONFORMOUT)/server-lifecycle.Client-$$p.json"; \
	done; \
	for p in $(CONFORM_PROTOCOLS); do \
	bin/loginserver-conform -protocol $$p -addr 127.0.0.1:0 -users-file "$$dir/users" -inactive bob -login-burst 0 -accept-burst -1 2>"$$dir/log" & pid=$$!; \
	ls=$$(await "$$dir/log" 's/.*msg=listening addr=\([^ ]*\).*/\1/p'); \
	a=loginserver-$$(echo $$p | tr , _); \
	bin/conform client -protocol $$p -addr $$ls -users-file "$$dir/users" -inactive bob -agent $$a -out $(CONFORMOUT) || status=$$?; \
	kill $$pid; wait $$pid 2>/dev/null || true; pid=; : > "$$dir/log"; \
	reports="$$reports $(CONFORMOUT)/client-$$a.json"; \
	done; \
	bin/conform report -out $(CONFORMOUT) $$reports; \
	exit $${status:-0}

.PHONY: conform-sdks
# The kit against the Apache Iggy SDKs, through the drivers in
# cmd/conform/drivers/ (one module or package each, so that neither of
# this project's modules requires an SDK). The SDKs are published neither
# as a Go module nor on npm, so they come from a clone of apache/iggy:
# foreign/go and foreign/node of IGGY_REV are extracted to a temporary
# directory, linked as each driver's sdk/ for the run (and as the Node
# driver's apache-iggy package, as npm install would), and the Node SDK is
# built there. Each driver's tests (the Go one with -tags iggysdk) then
# run it against the kit's server-mode cases and print the pass count.
# Needs the Go module proxy and npm for the SDKs' dependencies, so it is
# not part of make test.
# IGGY_PROTOCOL is the protocol the kit serves (-protocol): the one the
# SDKs of IGGY_REV speak (0.11.0 up to at least cc269ef).
IGGY_REPO ?=
IGGY_REV  ?= HEAD
IGGY_PROTOCOL ?= 0.11.0
conform-sdks: ## the kit against the Apache Iggy Go and Node SDKs: IGGY_REPO=a clone of apache/iggy [IGGY_REV=HEAD] [IGGY_PROTOCOL=0.11.0]; needs the module proxy and npm; prints each pass count
	@test -n "$(IGGY_REPO)" || { echo "conform-sdks: set IGGY_REPO to a clone of https://github.com/apache/iggy (IGGY_REV picks the commit, HEAD by default)"; exit 2; }
	$(CMDGO) build -o $(abspath bin/conform) ./conform
	@set -e; sdk=$$(mktemp -d); drv=cmd/conform/drivers; \
	trap 'rm -f $$drv/iggy-go/sdk $$drv/iggy-node/sdk $$drv/iggy-node/node_modules/apache-iggy; rmdir $$drv/iggy-node/node_modules 2>/dev/null || true; rm -rf "$$sdk"' EXIT INT TERM; \
	rev=$$(git -C "$(IGGY_REPO)" rev-parse --verify "$(IGGY_REV)^{commit}"); \
	echo "conform-sdks: apache/iggy $$rev of $$(git -C "$(IGGY_REPO)" log -1 --format=%cs $$rev)"; \
	git -C "$(IGGY_REPO)" archive "$$rev" foreign/go foreign/node | tar -x -C "$$sdk"; \
	ln -sfn "$$sdk/foreign/go" $$drv/iggy-go/sdk; ln -sfn "$$sdk/foreign/node" $$drv/iggy-node/sdk; \
	echo "conform-sdks: building the Node SDK $$(sed -n 's/^  "version": "\(.*\)",/\1/p' "$$sdk/foreign/node/package.json")"; \
	(cd "$$sdk/foreign/node" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error && npx tsc -p tsconfig.json); \
	mkdir -p $$drv/iggy-node/node_modules; ln -sfn ../sdk $$drv/iggy-node/node_modules/apache-iggy; \
	status=0; \
	CONFORM_KIT=$(abspath bin/conform) CONFORM_PROTOCOL=$(IGGY_PROTOCOL) $(GO) -C $$drv/iggy-go test -tags iggysdk -count=1 -v ./... || status=1; \
	(cd $$drv/iggy-node && CONFORM_KIT=$(abspath bin/conform) CONFORM_PROTOCOL=$(IGGY_PROTOCOL) node --test driver.test.mjs) || status=1; \
	exit $$status

# libFuzzer, the engine ClusterFuzzLite and OSS-Fuzz run (docs/fuzzing.md).
# fuzzrun -libfuzzer-build holds the build steps, once: .clusterfuzzlite/
# build.sh runs the same command in the builder image. Binaries, seed zips
# and dictionaries go to LFDIR (bin/ is ignored by git); each target then
# runs for LFTIME (a count like 5000x, libFuzzer's -runs, or seconds or
# minutes like 60s) over corpus/<Target>/ and crashers/<Target>/, and a crash is saved raw
# under crashers/<Target>/. CXX, CXXFLAGS and LIB_FUZZING_ENGINE are
# honoured as in the image (default clang++, -fsanitize=fuzzer).
LFDIR     ?= bin/libfuzzer
LFTIME    ?= 5000x
LFOVERLAY ?=
LFBUILD   := $(GO) run ./internal/cmd/fuzzrun -libfuzzer-build $(LFDIR) $(if $(LFOVERLAY),-overlay $(abspath $(LFOVERLAY)))
# Links a do-nothing fuzz target: clang and its libFuzzer runtime work.
LFCHECK   := printf 'extern "C" int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }\n' | $${CXX:-clang++} -x c++ -fsanitize=fuzzer -o /dev/null - >/dev/null 2>&1
LFNEED    := make libfuzzer needs clang and its libFuzzer runtime: apt-get install clang libclang-rt-N-dev (N is clang's major version: 14 on Debian 12)
.PHONY: libfuzzer libfuzzer-one libfuzzer-clang libfuzzer-cover libfuzzer-planted

# LFRUN runs each libFuzzer binary of $$targets for LFTIME (a count like
# 5000x, libFuzzer's -runs, or seconds or minutes like 60s, 10m) over a
# scratch directory (where libFuzzer writes what it finds, so corpus/
# never changes), corpus/<Target>/ and crashers/<Target>/, with its
# dictionary; a crash is moved to crashers/<Target>/ (fuzzrun -save).
LFRUN = set -e; log=$$(mktemp -d); trap 'rm -rf "$$log"' EXIT INT TERM; \
	case '$(LFTIME)' in \
		*x) budget=-runs=$$(echo '$(LFTIME)' | tr -d x) ;; \
		*m) budget=-max_total_time=$$(( $$(echo '$(LFTIME)' | tr -d m) * 60 )) ;; \
		*s) budget=-max_total_time=$$(echo '$(LFTIME)' | tr -d s) ;; \
		*) echo "LFTIME=$(LFTIME): want a count (5000x) or seconds or minutes (60s, 10m)"; exit 2 ;; \
	esac; \
	for t in $$targets; do \
		echo "=== $$t (libFuzzer) for $(LFTIME)"; \
		bin=$(abspath $(LFDIR))/$$t; mkdir "$$log/$$t"; \
		set -- $$budget -print_final_stats=1 -artifact_prefix="$$log/$$t-"; \
		if [ -f "$$bin.dict" ]; then set -- "$$@" -dict="$$bin.dict"; fi; \
		set -- "$$@" "$$log/$$t"; \
		for d in corpus/$$t crashers/$$t; do if [ -d "$$d" ]; then set -- "$$@" "$$d"; fi; done; \
		start=$$(date +%s%N); \
		{ rc=0; "$$bin" "$$@" 2>&1 || rc=$$?; echo $$rc > "$$log/rc"; } | tee "$$log/out"; \
		ns=$$(( $$(date +%s%N) - start )); \
		art=$$(sed -n 's/.*Test unit written to \([^ ]*\).*/\1/p' "$$log/out" | grep -v 'slow-unit-' | tail -n 1); \
		result=PASS; \
		if [ -n "$$art" ]; then \
			result=$$($(GO) run ./internal/cmd/fuzzrun -save $$t "$$art") || result="FAIL: fuzzrun -save $$art"; \
			echo "libfuzzer: the crashing input is now $$result (raw bytes, as libFuzzer wrote it)"; \
			echo "libfuzzer: to re-run it: go test ./fuzz -run '^$$t$$'   (or $$bin $$result)"; \
		elif [ "$$(cat "$$log/rc")" != 0 ]; then result="FAIL: exit status $$(cat "$$log/rc"), no input written (see output above)"; fi; \
		lfstat() { v=$$(sed -n "s/^stat::$$1: *//p" "$$log/out" | tail -n 1); echo $${v:-0}; }; \
		cov=$$(sed -n 's/^\#[0-9].* cov: \([0-9]*\) ft: \([0-9]*\).*/\1 \2/p' "$$log/out" | tail -n 1); \
		execs=$$(lfstat number_of_executed_units); \
		echo "$$t $$execs $$(( execs * 1000000000 / (ns > 0 ? ns : 1) )) $${cov:-0 0} $$(lfstat new_units_added) $$result" >> "$$log/table"; \
	done; \
	cols="execs execs/s cov ft new" job=libfuzzer; $(FUZZSUMMARY)

libfuzzer: libfuzzer-clang ## every fuzz target built as a libFuzzer binary (as ClusterFuzzLite does), run for LFTIME (5000x) each over corpus/; a table
	$(LFBUILD)
	@targets=$$($(FUZZLIST)); $(LFRUN)

libfuzzer-one: libfuzzer-clang ## one libFuzzer target: make libfuzzer-one T=FuzzX [LFTIME=30s or 100000x] [LFOVERLAY=overlay.json]
	$(LFBUILD) -run $(T)
	@targets='$(T)'; $(LFRUN)

# Installs clang with apt-get when the check fails and we are root or
# have sudo without a password; otherwise says what to install.
libfuzzer-clang:
	@$(LFCHECK) && exit 0; \
	if [ "$$(id -u)" = 0 ]; then sudo=; \
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo=sudo; \
	else echo "$(LFNEED)"; exit 1; fi; \
	command -v apt-get >/dev/null 2>&1 || { echo "$(LFNEED)"; exit 1; }; \
	echo "libfuzzer: installing clang with apt-get"; \
	export DEBIAN_FRONTEND=noninteractive; \
	$$sudo apt-get update -qq && $$sudo apt-get install -y -qq clang >/dev/null || { echo "$(LFNEED)"; exit 1; }; \
	v=$$(clang --version | sed -n 's/.*clang version \([0-9][0-9]*\).*/\1/p' | head -n 1); \
	$(LFCHECK) || $$sudo apt-get install -y -qq "libclang-rt-$$v-dev" >/dev/null || true; \
	$(LFCHECK) || { echo "$(LFNEED)"; exit 1; }

libfuzzer-cover: ## the SANITIZER=coverage build, then the product statements each target's corpus reaches in it
	SANITIZER=coverage $(GO) run ./internal/cmd/fuzzrun -libfuzzer-build bin/libfuzzer-cover
	@set -e; log=$$(mktemp -d); trap 'rm -rf "$$log"' EXIT INT TERM; \
	for t in $$($(FUZZLIST)); do \
		mkdir "$$log/$$t"; for d in corpus/$$t crashers/$$t; do if [ -d "$$d" ]; then cp -R "$$d/." "$$log/$$t/"; fi; done; \
		(cd "$$log" && FUZZ_CORPUS_DIR="$$log/$$t" $(abspath bin/libfuzzer-cover)/$$t -test.coverprofile="$$log/$$t.cov" > "$$log/$$t.log" 2>&1) || { cat "$$log/$$t.log"; exit 1; }; \
		what="$$t ($$(ls "$$log/$$t" | wc -l) inputs)" quiet=1; $(COVERSUM) "$$log/$$t.cov"; \
	done; \
	what="all targets" quiet=1; $(COVERSUM) "$$log"/*.cov

libfuzzer-planted: libfuzzer-clang ## a codec bug planted through an overlay: make libfuzzer-one must find it, go test must fail on the crasher it saves; and the coverage build counts real statements
	IGGYWIRE_LIBFUZZER=1 $(GO) test ./internal/cmd/fuzzrun -run '^TestLibFuzzer(FindsPlantedBug|CoverageBuild)$$' -count=1 -v
