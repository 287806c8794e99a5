module github.com/iggywire/iggywire/cmd/conform/drivers/iggy-go

go 1.25.0

require (
	github.com/apache/iggy/foreign/go v0.0.0-00010101000000-000000000000
	github.com/stretchr/testify v1.11.1
)

require (
	github.com/avast/retry-go/v5 v5.0.0 // indirect
	github.com/davecgh/go-spew v1.1.1 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/klauspost/compress v1.19.2 // indirect
	github.com/klauspost/cpuid/v2 v2.2.10 // indirect
	github.com/kr/text v0.2.0 // indirect
	github.com/pmezard/go-difflib v1.0.0 // indirect
	github.com/zeebo/xxh3 v1.1.0 // indirect
	golang.org/x/sys v0.30.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)

// The SDK is not published as a module: sdk is a link to foreign/go of an
// apache/iggy checkout (make conform-sdks makes one; the driver's README
// says how by hand). It is never committed. This module sits inside
// cmd/'s tree but is a module of its own, so that the project's cmd
// module never requires the SDK: go vet ./... and go mod tidy of cmd/
// leave this folder out whether sdk is linked or not. cmd/go.work, which
// the go command finds from here, does not list this module: run go here
// with GOWORK=off. The driver builds only with -tags iggysdk, so go vet
// ./... and go test ./... pass without the link (the test skips, saying
// so); go mod tidy reads the SDK's go.mod and so needs the link.
replace github.com/apache/iggy/foreign/go => ./sdk
