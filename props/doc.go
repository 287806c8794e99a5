// Package props is the property suite of the wire codec: generators that
// reach the edges of every message type on purpose (lengths 0, 1 and 255,
// multi-byte UTF-8 cut at the length limit, versions at 0 and 1023, windows
// around the 0.x / 1.0.0 boundary, every eviction reason), generators of
// hostile bytes derived from valid encodings (a flipped byte, a truncation,
// an extension, a length field claiming more than is there, invalid UTF-8
// in a text field), and the properties in its tests: round trip, canonical
// bytes, prefix agreement, rejection, agreement with the reference codec,
// the version algebra, eviction validity, secrecy, the login lifecycle and
// the overlap of the two login body shapes.
//
// Every generator shrinks through its mapping (gopter.DeriveGen or
// WithShrinker), so a failing case shrinks to a small value a person can
// read, and every shrunk candidate still obeys the generator's rules.
//
// The tests run with a fixed seed; PROPS_SEED or -props.seed explores
// another one and PROPS_COUNT or -props.count raises the number of cases.
package props
