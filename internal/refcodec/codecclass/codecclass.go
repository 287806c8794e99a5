// Package codecclass maps the codec's errors to the reference codec's
// error classes, so that differential tests and fuzz targets compare the
// two codecs error class for error class. It is the one place that pairs
// each codec sentinel with its reference class; refcodec itself stays
// independent of codec and never imports it.
package codecclass

import (
	"errors"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/refcodec"
)

// Classes of a codec error that breaks the codec's error contract. Both
// are negative, so they never equal a class refcodec returns (refcodec.OK
// or above) nor the refcodec.Class(-1) that refcodec.ClassOf gives an
// error without a class.
const (
	// NotCodecError: a non-nil error that is not a *codec.Error.
	NotCodecError refcodec.Class = -2
	// Ambiguous: a *codec.Error that matches no sentinel, or several.
	Ambiguous refcodec.Class = -3
)

// pairs pairs each codec sentinel with the reference's class of the same
// meaning.
var pairs = [...]struct {
	err   error
	class refcodec.Class
}{
	{codec.ErrTruncated, refcodec.Truncated}, {codec.ErrCommand, refcodec.Command},
	{codec.ErrSize, refcodec.Size}, {codec.ErrReserved, refcodec.Reserved},
	{codec.ErrField, refcodec.Field}, {codec.ErrReason, refcodec.Reason},
	{codec.ErrWindow, refcodec.BadWindow}, {codec.ErrLength, refcodec.Length},
	{codec.ErrUTF8, refcodec.UTF8}, {codec.ErrTrailing, refcodec.Trailing},
	{codec.ErrRange, refcodec.Range}, {codec.ErrSyntax, refcodec.Syntax},
}

// Of maps a codec error to the reference's class: refcodec.OK for nil, the
// class of the one sentinel it matches, NotCodecError when it is not a
// *codec.Error, and Ambiguous when it matches no sentinel or several.
func Of(err error) refcodec.Class {
	if err == nil {
		return refcodec.OK
	}
	var ce *codec.Error
	if !errors.As(err, &ce) {
		return NotCodecError
	}
	found := Ambiguous
	for _, p := range pairs {
		if errors.Is(err, p.err) {
			if found != Ambiguous {
				return Ambiguous
			}
			found = p.class
		}
	}
	return found
}
