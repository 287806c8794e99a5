// Package codec encodes and decodes the frames and bodies of the Apache Iggy
// connection lifecycle: the packed protocol version and its accept window,
// ClientVersionInfo, the two login bodies (command codes 40 and 45), the login
// reply, and the 256-byte Request, Reply and Eviction headers.
//
// The codec is strict: every byte of a frame is either a field or must be
// zero, so on valid input decoding and encoding are exact inverses. It imports
// only the standard library, keeps no global mutable state, never panics on
// any input, and allocates nothing on success paths.
//
// # Encoding
//
// Every message type has EncodedLen and AppendTo. AppendTo validates the value
// first and, on error, returns dst unchanged; otherwise it appends the
// encoding, so a caller that reuses a buffer with enough capacity pays no
// allocation.
//
// # Decoding
//
// Bodies have two decoders: DecodeT reads a prefix of its input and reports
// how many bytes it used, the way the reference server reads login bodies;
// ParseT demands that the whole input is exactly one T and reports trailing
// bytes as an error. Headers are decoded from the first 256 bytes of a frame.
//
// Byte-slice fields of a decoded value alias the input: they stay valid only
// while the input is unchanged. Call Clone to keep a value past that. An empty
// field decodes as nil. Every returned slice has its capacity capped at its
// length, so appending to it can never overwrite the bytes that follow it.
//
// # Errors
//
// Every decode and validation failure is a *Error naming the field, its byte
// offset and the rule that was broken. Each *Error matches exactly one of the
// sentinels (ErrTruncated, ErrCommand, ...) with errors.Is. Checks run in the
// order the wire reference lists them, and the first broken rule is reported.
//
// Passwords and tokens are carried as Secret, which holds no byte slice:
// every way of printing it, or a value that contains it, shows a redaction
// (see Secret), Bytes is the one way to read it, and no error text ever
// contains its bytes.
package codec
