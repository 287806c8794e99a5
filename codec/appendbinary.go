package codec

// The message types implement encoding.BinaryAppender (Go 1.24) with the
// AppendTo they already have, so that code written against the standard
// interface can encode them. They do not implement
// encoding.BinaryUnmarshaler: its contract has the value keep no reference
// to the input, while the decoders alias it (see Clone).

// AppendBinary implements encoding.BinaryAppender; it is AppendTo.
func (c ClientVersionInfo) AppendBinary(b []byte) ([]byte, error) { return c.AppendTo(b) }

// AppendBinary implements encoding.BinaryAppender; it is AppendTo.
func (l LoginRegister) AppendBinary(b []byte) ([]byte, error) { return l.AppendTo(b) }

// AppendBinary implements encoding.BinaryAppender; it is AppendTo.
func (l LoginRegisterPAT) AppendBinary(b []byte) ([]byte, error) { return l.AppendTo(b) }

// AppendBinary implements encoding.BinaryAppender; it is AppendTo.
func (l LoginReply) AppendBinary(b []byte) ([]byte, error) { return l.AppendTo(b) }

// AppendBinary implements encoding.BinaryAppender; it is AppendTo.
func (h RequestHeader) AppendBinary(b []byte) ([]byte, error) { return h.AppendTo(b) }

// AppendBinary implements encoding.BinaryAppender; it is AppendTo.
func (h ReplyHeader) AppendBinary(b []byte) ([]byte, error) { return h.AppendTo(b) }

// AppendBinary implements encoding.BinaryAppender; it is AppendTo.
func (e Eviction) AppendBinary(b []byte) ([]byte, error) { return e.AppendTo(b) }
