// Package codecclass maps the codec's errors to the reference codec's
// error classes, so that differential tests and fuzz targets compare the
// two codecs error class for error class. It is the one place that pairs
// each codec sentinel with its reference class, and it lists neither: the
// sentinels and their names come from codectest.Classes, and each is paired
// with the reference class whose String is that name. refcodec itself stays
// independent of codec and never imports it.
package codecclass

import (
	"errors"
	"fmt"
	"strings"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/codectest"
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

// pair is a codec sentinel and the reference's class of the same meaning.
type pair struct {
	err   error
	class refcodec.Class
}

// pairs pairs each codec sentinel of codectest.Classes, in its order, with
// the reference's class of the same meaning: the one whose String is the
// class's vectors name. The sentinels are listed once, in codectest; the
// classes once, in refcodec, which never sees the codec.
var pairs = func() []pair {
	classes := codectest.Classes()
	ps, err := pairClasses(classes[:])
	if err != nil {
		panic(err)
	}
	return ps
}()

// pairClasses pairs each class with the reference class named like it, and
// fails when a name has none or two classes share one reference class.
func pairClasses(classes []codectest.Class) ([]pair, error) {
	byName := map[string]refcodec.Class{}
	for c := refcodec.OK + 1; !strings.HasPrefix(c.String(), "Class("); c++ {
		byName[c.String()] = c
	}
	ps := make([]pair, 0, len(classes))
	used := map[refcodec.Class]bool{}
	for _, c := range classes {
		rc, ok := byName[c.Name]
		if !ok {
			return nil, fmt.Errorf("codecclass: no reference class is named %q (the class of %v)", c.Name, c.Err)
		}
		if used[rc] {
			return nil, fmt.Errorf("codecclass: reference class %v paired twice", rc)
		}
		used[rc] = true
		ps = append(ps, pair{c.Err, rc})
	}
	return ps, nil
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
