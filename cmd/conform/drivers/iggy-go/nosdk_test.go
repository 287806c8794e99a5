//go:build !iggysdk

package main

import (
	"os"
	"testing"
)

// Without the build tag iggysdk nothing of the driver is built: its code
// and tests need the Go SDK, which no module proxy serves. The test says
// how to run them; it skips only when the SDK is not linked at all.
func TestDriverNeedsTheSDK(t *testing.T) {
	const how = "make conform-sdks IGGY_REPO=PATH links foreign/go of an apache/iggy checkout as sdk/ and runs GOWORK=off go test -tags iggysdk ./... here (README.md says how by hand)"
	if _, err := os.Stat("sdk/go.mod"); err != nil {
		t.Skip("the Apache Iggy Go SDK is not linked at sdk/: the driver and its tests were not built; " + how)
	}
	t.Fatal("sdk/ is linked, but the driver and its tests build only with -tags iggysdk: GOWORK=off go test -tags iggysdk ./...")
}
