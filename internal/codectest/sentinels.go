// Package codectest holds what the codec's unit tests and its fuzz targets
// both need to know about the codec, so that it is written once.
package codectest

import "github.com/iggywire/iggywire/codec"

// Sentinels returns every error class of the codec, in the order errors.go
// declares them: each *codec.Error matches exactly one. It is an array
// value, so no caller can change what another sees and a fuzz body may call
// it per input without allocating.
func Sentinels() [12]error {
	return [...]error{
		codec.ErrTruncated, codec.ErrCommand, codec.ErrSize, codec.ErrReserved,
		codec.ErrField, codec.ErrReason, codec.ErrWindow, codec.ErrLength,
		codec.ErrUTF8, codec.ErrTrailing, codec.ErrRange, codec.ErrSyntax,
	}
}
