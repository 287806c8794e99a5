#!/bin/bash -eu
# Builds every native fuzz target of fuzz/ into $OUT inside OSS-Fuzz's
# builder image (ClusterFuzzLite's too): one libFuzzer binary per target,
# named after it, with <Target>_seed_corpus.zip (corpus/<Target>/ and
# crashers/<Target>/, raw, as both engines read them) and <Target>.dict
# when .clusterfuzzlite/ has one. With SANITIZER=coverage each binary is
# the package's coverage-instrumented test binary instead.
#
# The steps are not here: they are internal/cmd/fuzzrun's -libfuzzer-build,
# the same command `make libfuzzer` runs on a developer's machine, so the
# build CI tests is the build OSS-Fuzz runs. It does what OSS-Fuzz's
# compile_native_go_fuzzer does (the pinned go-118-fuzz-build writes an
# archive, $CXX $CXXFLAGS $LIB_FUZZING_ENGINE links it), in a scratch copy
# of the module, and reads the same variables. compile_native_go_fuzzer
# itself is not called: it finds a target by a substring grep (FuzzClient
# would also match FuzzClientVersionInfo), and it compiles the targets'
# _test.go files without the checks they share in other _test.go files;
# docs/fuzzing.md ("How the build is done") says what the scratch copy
# changes instead.

cd "$SRC/iggywire"
# The fuzz targets are in the root module; cmd/ is another module, which
# nothing here builds, and a go.work a developer may keep uncommitted
# (COPY . copies it) must not decide.
export GOWORK=off
go run ./internal/cmd/fuzzrun -libfuzzer-build "$OUT"
