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
// Every message type has EncodedLen and AppendBinary, its one encoder (it
// is encoding.BinaryAppender; for the three headers, whose AppendBinary
// takes a pointer as their Decode does, a pointer to one is). AppendBinary validates the value first and,
// on error, returns dst unchanged; otherwise it appends the encoding, so a
// caller that reuses a buffer with enough capacity pays no allocation. The
// message types do not implement encoding.BinaryUnmarshaler: its contract
// has the value keep no reference to the input, while the decoders alias it
// (see Clone).
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
// offset and the rule that was broken, as WIRE.md section 9 says a decoder
// reports an error (it states where offsets point). Error.Rule is the rule's
// stable id, the one the conformance vectors use (vectors/rules.json:
// "cvi.sdk_name.utf8", "request.size", ...), and an encoder's Validate
// reports the id that decoding the same bytes would; Error.Want is the rule
// written like code, for people. Each *Error matches exactly one of the
// sentinels (ErrTruncated, ErrCommand, ...) with errors.Is. Checks run in the
// order the wire reference lists them, and the first broken rule is
// reported. An error's text names the field, the offset, the class, what
// the rule wants and its id, never a byte of the input.
//
// What a frame means to a client is a second kind of error: Status.Err and
// Eviction.Err return an *IggyError (match one with errors.Is(err,
// StatusInvalidCredentials.Err())) or an *IncompatibleProtocolError, and
// nil for StatusOK. Every error type of the package has a pointer receiver,
// so errors.As wants a **Error, **IggyError or **IncompatibleProtocolError.
// ReadFrame's ErrFrameTooLarge is a plain sentinel.
//
// Passwords and tokens are carried as Secret, which holds no byte slice:
// every way of printing it, or a value that contains it, shows a redaction
// (see Secret), Bytes is the one way to read it, and no error text ever
// contains its bytes.
package codec
