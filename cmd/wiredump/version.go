package main

import (
	"strconv"

	"github.com/iggywire/iggywire/codec"
)

// decodeVersion reads src as version text (WIRE.md section 1). On success
// it lists each component at the offsets of its digits, and the suffix the
// grammar ignores; on failure the codec's offset is the offending character.
func decodeVersion(src []byte) Section {
	s := Section{Title: "version text",
		Fields: []Field{{Name: "text", Offset: 0, Size: len(src), Value: showText(src)}}}
	v, err := codec.ParseVersion(string(src))
	s.settle(err)
	if err != nil {
		return s
	}
	comps, end := versionComponents(src)
	s.Fields = append(s.Fields, Field{Name: "version", Offset: 0, Size: end, Value: showVersion(uint32(v))})
	s.Fields = append(s.Fields, comps...)
	if end < len(src) {
		s.Fields = append(s.Fields, Field{Name: "suffix (ignored)", Offset: end, Size: len(src) - end,
			Value: showText(src[end:])})
	}
	return s
}

// versionComponents finds the three digit runs of text that ParseVersion
// accepted, and the offset just past the patch.
func versionComponents(src []byte) ([]Field, int) {
	names := [3]string{"major", "minor", "patch"}
	var fields []Field
	i := 0
	for c, name := range names {
		if c > 0 && i < len(src) && src[i] == '.' {
			i++
		}
		start := i
		for i < len(src) && '0' <= src[i] && src[i] <= '9' {
			i++
		}
		n, _ := strconv.ParseUint(string(src[start:i]), 10, 64)
		fields = append(fields, Field{Name: name, Offset: start, Size: i - start, Value: strconv.FormatUint(n, 10)})
	}
	return fields, i
}
