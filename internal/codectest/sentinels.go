// Package codectest holds what the codec's unit tests and its fuzz targets
// both need to know about the codec, so that it is written once.
package codectest

import (
	"errors"

	"github.com/iggywire/iggywire/codec"
)

// Class is one error class of the codec: its sentinel, and the name the
// conformance vectors give it (the "sentinel" of vectors/rules.json and of
// an error verdict).
type Class struct {
	Err  error
	Name string
}

// classes is the one list of the codec's error classes, in the order
// codec/errors.go declares them. Everything else that lists them derives
// from it: the reference classes of internal/refcodec/codecclass (by Name)
// and the sentinel names of internal/cmd/vectorgen. TestSentinelsAreErrorsGo
// fails when codec/errors.go gains or loses a sentinel this list does not
// have. The names are those of the published vectors: changing one changes
// vectors/.
var classes = [...]Class{
	{codec.ErrTruncated, "truncated"},
	{codec.ErrCommand, "command"},
	{codec.ErrSize, "size"},
	{codec.ErrReserved, "reserved"},
	{codec.ErrField, "field"},
	{codec.ErrReason, "reason"},
	{codec.ErrWindow, "window"},
	{codec.ErrLength, "length"},
	{codec.ErrUTF8, "utf8"},
	{codec.ErrTrailing, "trailing"},
	{codec.ErrRange, "range"},
	{codec.ErrSyntax, "syntax"},
}

// Classes returns every error class of the codec, in the order errors.go
// declares them: each *codec.Error matches exactly one sentinel. It is an
// array value, so no caller can change what another sees and a fuzz body
// may call it per input without allocating.
func Classes() [len(classes)]Class { return classes }

// Name returns the vectors' name of the first class, in declaration order,
// whose sentinel err matches with errors.Is, or "" when it matches none.
func Name(err error) string {
	for _, c := range classes {
		if errors.Is(err, c.Err) {
			return c.Name
		}
	}
	return ""
}
