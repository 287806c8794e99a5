// Package props is the property suite of the wire codec, and the
// generators it is built from, exported for the property tests of any
// other implementation of the Iggy login handshake (an SDK's decoder, a
// proxy, a server in another codebase): see the package Example, which
// property-tests a decoder of the handshake with them.
//
// The exported API: generators that reach the edges of every message type
// on purpose (GenText, GenSecret, GenVersion, GenWindow, GenLoginRegister,
// GenRequestHeader, ...: lengths 0, 1 and 255, multi-byte UTF-8 cut at the
// length limit, versions at 0 and 1023, windows around the 0.x / 1.0.0
// boundary, every eviction reason); generators of hostile bytes derived
// from valid encodings (GenHostile with a Mutation: a flipped byte, a
// truncation, an extension, a length field claiming more than is there,
// invalid UTF-8 in a text field); the Layout of each encoding they aim at;
// and Describe, which prints a message for a failure report with secrets
// by length only.
//
// The properties in its tests: round trip, canonical bytes, prefix
// agreement, rejection, agreement with the reference codec, the version
// algebra, eviction validity, secrecy, the login lifecycle (a gopter
// stateful model) and the overlap of the two login body shapes.
//
// Every generator shrinks through its mapping (gopter.DeriveGen, gen.Struct
// or WithShrinker), so a failing case shrinks to a small value a person can
// read, and every shrunk candidate still obeys the generator's rules.
//
// The tests run with a fixed seed; PROPS_SEED or -props.seed explores
// another one and PROPS_COUNT or -props.count raises the number of cases.
package props
