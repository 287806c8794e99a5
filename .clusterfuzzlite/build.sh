#!/bin/bash -eu
# Builds every native fuzz target of fuzz/ as a libFuzzer binary with
# OSS-Fuzz's compile_native_go_fuzzer, and packs corpus/<Target>/ and
# crashers/<Target>/ as its seed corpus. Runs inside the builder image, on
# a scratch copy of the repository ($SRC/iggywire): the rewrites below
# never reach the working tree.

# The shim compile_native_go_fuzzer puts in place of package testing, pinned.
shim=github.com/AdamKorcz/go-118-fuzz-build/testing@v0.0.0-20250520111509-a70c2aa677fa
pkg=github.com/iggywire/iggywire/fuzz

cd "$SRC/iggywire"

# The fuzz targets are in the root module (go.mod), whose go line the
# builder's Go satisfies; cmd/ is another module with its own go.mod and
# nothing here builds it. COPY . in the Dockerfile also copies a go.work a
# developer may keep uncommitted, whose go line would be cmd's: every go
# command below, compile_native_go_fuzzer's included, uses the root module
# alone.
export GOWORK=off

# Every Fuzz* function in fuzz/, as `go test -list` finds them (one name a
# line, then "ok ..."), read before the rewrites below make fuzz/ a
# non-test package. The assignment fails the build if go test does.
list=$(go test ./fuzz -list '^Fuzz')
mapfile -t targets < <(printf '%s\n' "$list" | grep '^Fuzz' | LC_ALL=C sort)
if [ "${#targets[@]}" -eq 0 ]; then
	echo "build.sh: go test -list found no fuzz target in fuzz/" >&2
	exit 1
fi
echo "build.sh: ${#targets[@]} fuzz targets: ${targets[*]}"

# Seeds first, while fuzz/ is still a test package: raw inputs become the
# length-prefixed form the built harness reads its []byte argument from.
seeds="$WORK/seeds"
go run ./internal/cmd/fuzzrun -seeds "$seeds"

# compile_native_go_fuzzer builds with go-118-fuzz-build, which compiles no
# *_test.go file, and every target here lives in one and shares checking code
# with the others. As go-118-fuzz-build documents, such files are renamed
# so they do not end in _test.go. Each also imports the shim (its package
# name is testing) in place of "testing", so that the *testing.T a
# target's body receives and the *testing.T its shared checks in other files
# take are one type. The import carries no name: go-118-fuzz-build adds an
# unnamed one itself and would otherwise declare testing twice.
go get "$shim"
for f in fuzz/*_test.go; do
	sed -i 's#^\t"testing"$#\t"github.com/AdamKorcz/go-118-fuzz-build/testing"#' "$f"
	mv "$f" "${f%_test.go}_test_fuzz.go"
done

# compile_native_go_fuzzer finds a target with a substring grep, so
# FuzzClient would also match FuzzClientVersionInfo (and FuzzLoginRegister
# FuzzLoginRegisterPAT) and the target would be skipped with only a
# message. A trailing underscore makes every name unique; the binary keeps
# the target's own name.
for t in "${targets[@]}"; do
	sed -i "s/^func $t(f \\*testing\\.F)/func ${t}_(f *testing.F)/" fuzz/*_test_fuzz.go
done
go mod tidy

for t in "${targets[@]}"; do
	compile_native_go_fuzzer "$pkg" "${t}_" "$t"
	if [ ! -f "$OUT/$t" ]; then
		echo "build.sh: $t was not built" >&2
		exit 1
	fi
	if [ -d "$seeds/$t" ] && [ -n "$(ls -A "$seeds/$t")" ]; then
		(cd "$seeds/$t" && zip -q -j "$OUT/${t}_seed_corpus.zip" ./*)
	fi
	if [ -f ".clusterfuzzlite/$t.dict" ]; then
		cp ".clusterfuzzlite/$t.dict" "$OUT/$t.dict"
	fi
done
