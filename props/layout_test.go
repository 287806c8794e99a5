package props

import (
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/stretchr/testify/assert"
)

// TestHeaderLayouts pins what LayoutOf reads from the codec's header table
// to the offsets of WIRE.md section 5, including the NonReplicated code that
// takes the first 4 bytes of the Request's reserved area.
func TestHeaderLayouts(t *testing.T) {
	size := []LenField{{"size", 48, 4}}
	frame := Span{"reserved_frame", 62, 66}
	cases := []struct {
		v    any
		want Layout
	}{
		{codec.RequestHeader{Operation: codec.OperationRegister},
			Layout{Reserved: []Span{frame, {"operation_padding", 177, 7}, {"reserved", 196, 60}}, Lengths: size}},
		{codec.RequestHeader{Operation: codec.OperationNonReplicated},
			Layout{Reserved: []Span{frame, {"operation_padding", 177, 7}, {"reserved", 200, 56}}, Lengths: size}},
		{codec.ReplyHeader{}, Layout{Reserved: []Span{frame, {"operation_padding", 209, 7}, {"reserved", 220, 36}}, Lengths: size}},
		{codec.Eviction{}, Layout{Reserved: []Span{frame, {"reserved", 152, 103}}, Lengths: size}},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, LayoutOf(c.v), "%T", c.v)
	}
	assert.Equal(t, 255, headerField(codec.CommandEviction, "reason").Offset)
	assert.Panics(t, func() { headerField(codec.CommandReply, "reason") })
}
