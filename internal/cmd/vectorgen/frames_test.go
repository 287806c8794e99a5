package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFramesCatchChanges: a frame one byte longer or shorter than its size,
// or with another verdict, no longer replays; every header case has its
// frame.
func TestFramesCatchChanges(t *testing.T) {
	var withBody, sized *Case
	n := 0
	for _, f := range loadFiles(t) {
		for i := range f.Cases {
			c := &f.Cases[i]
			if !isHeaderKind(c.Kind) {
				assert.Nil(t, c.Frame, c.Name)
				continue
			}
			require.NotNil(t, c.Frame, c.Name)
			n++
			switch {
			case c.Frame.Body == "login_reply" && withBody == nil:
				withBody = c
			case c.Frame.Expect.Rule == "frame.size" && sized == nil:
				sized = c
			}
		}
	}
	require.NotNil(t, withBody)
	require.NotNil(t, sized)
	for name, change := range map[string]func(f *Frame){
		"a byte more":  func(f *Frame) { f.Input += "00"; f.Length++ },
		"a byte less":  func(f *Frame) { f.Input = f.Input[:len(f.Input)-2]; f.Length-- },
		"a fill more":  func(f *Frame) { f.Fill++; f.Length++ },
		"rule":         func(f *Frame) { f.Expect.Rule = "reply.size" },
		"verdict":      func(f *Frame) { f.Expect.Verdict = "error" },
		"fields added": func(f *Frame) { f.Expect.Fields = map[string]any{"size": 282} },
	} {
		c := *withBody
		fr := *c.Frame
		e := *fr.Expect
		fr.Expect, c.Frame = &e, &fr
		change(&fr)
		assert.Error(t, verifyCase(nil, &c), name)
	}
	c := *sized
	fr := *c.Frame
	e := *fr.Expect
	e.Rule = c.Expect.Rule // the header's size rule, not the frame reader's
	fr.Expect, c.Frame = &e, &fr
	assert.Error(t, verifyCase(nil, &c))
	assert.GreaterOrEqual(t, n, 250, "header cases")
}
