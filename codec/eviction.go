package codec

// Eviction is the 256-byte, header-only frame (command 13) a server sends
// before it closes a session. Its size is always 256, so it has no Size
// field. Window is non-zero only for ReasonIncompatibleProtocol, where it
// carries the versions the server accepts (Max at byte 144, Min at 148).
type Eviction struct {
	// Checksum, ChecksumBody and Cluster (bytes 0, 16, 32) are carried as
	// they are, as in every header.
	Checksum, ChecksumBody, Cluster Uint128
	// View and Release (bytes 52, 56) are carried as they are.
	View, Release uint32
	// Replica (byte 61) is carried as it is.
	Replica uint8
	// Client (byte 128) is the client id evicted, never 0.
	Client Uint128
	// Window (bytes 144..152) is the accept window of a reason 14
	// eviction, zero for every other reason.
	Window Window
	// Reason (byte 255) says why the session ends.
	Reason EvictionReason
}

// NewEviction returns the eviction of client for reason, with a zero window.
// Use NewIncompatibleProtocolEviction for reason 14.
func NewEviction(client Uint128, reason EvictionReason) Eviction {
	return Eviction{Client: client, Reason: reason}
}

// NewIncompatibleProtocolEviction returns the eviction of client with reason 14
// carrying the window the server accepts.
func NewIncompatibleProtocolEviction(client Uint128, w Window) Eviction {
	// The frame carries the bounds, not whether the window counts patch.
	return Eviction{Client: client, Window: Window{Min: w.Min, Max: w.Max}, Reason: ReasonIncompatibleProtocol}
}

// Validate returns the first broken rule of e in the reference's order:
// client != 0; reason known and != 0; reason 14 => well-formed window; any
// other reason => zero window.
func (e Eviction) Validate() error { return e.validate() }

// validate is Validate on a pointer, so that AppendBinary checks e in place.
func (e *Eviction) validate() error {
	if e.Client.IsZero() {
		return clientError(offEvClient, ruleEvClient)
	}
	return checkReason(e.Reason, e.Window)
}

// checkReason is the reason and window rule of an eviction, the last of its
// checks. The first line is the whole rule at once, small enough to inline;
// reasonError says which part broke.
func checkReason(r EvictionReason, w Window) error {
	if reasonOK(r, w) {
		return nil
	}
	return reasonError(r)
}

// reasonOK is the reason and window rule as one boolean.
func reasonOK(r EvictionReason, w Window) bool {
	return r == ReasonIncompatibleProtocol && w.IsValid() || r != ReasonIncompatibleProtocol && r.IsKnown() && w == (Window{})
}

// reasonError is the error of a reason and window that checkReason
// rejected: an unknown reason first, then the window rule of the reason.
func reasonError(r EvictionReason) error {
	switch {
	case !r.IsKnown():
		return newError(ErrReason, "reason", offEvReason, ruleEvReason, "1 <= reason <= 15")
	case r == ReasonIncompatibleProtocol:
		return newError(ErrWindow, "window", offEvWindowMax, ruleEvWindow14, "reason == 14 => 1 <= min <= max")
	}
	return newError(ErrWindow, "window", offEvWindowMax, ruleEvWindowZero, "reason != 14 => window == 0")
}

// EncodedLen returns HeaderSize.
func (Eviction) EncodedLen() int { return HeaderSize }

// AppendBinary validates e and appends its 256 bytes to dst. On error it returns
// dst unchanged.
//
// It takes a pointer, as Decode does: a header value is 96 to 152 bytes,
// and the copy a value receiver made at every call was about 40% of
// encoding one (Encode/RequestHeader 2.9x -> 1.7x of a 256-byte copy).
// A header in a variable or a field encodes with e.AppendBinary(dst) all
// the same; *Eviction is the encoding.BinaryAppender.
func (e *Eviction) AppendBinary(dst []byte) ([]byte, error) {
	if e.Client.IsZero() || !reasonOK(e.Reason, e.Window) {
		return dst, e.validate()
	}
	dst, b := growHeader(dst)
	// The 128-bit fields move as 16-byte arrays (copy128).
	copy128(b, offChecksum, &e.Checksum)
	copy128(b, offChecksumBody, &e.ChecksumBody)
	copy128(b, offCluster, &e.Cluster)
	putFrame(b, HeaderSize, e.View, e.Release, CommandEviction, e.Replica)
	copy128(b, offEvClient, &e.Client)
	*(*[HeaderSize - offEvWindowMax]byte)(b[offEvWindowMax:]) = [HeaderSize - offEvWindowMax]byte{}
	put32(b, offEvWindowMax, uint32(e.Window.Max))
	put32(b, offEvWindowMin, uint32(e.Window.Min))
	b[offEvReason] = byte(e.Reason)
	return dst, nil
}

// DecodeEviction decodes the first 256 bytes of src as an eviction. It
// checks, in the reference's order: the length, command == 13, size == 256,
// client != 0, reserved_frame zero, reserved zero, then the reason and
// window rules of Validate. It is Eviction.Decode returning a value.
func DecodeEviction(src []byte) (e Eviction, err error) {
	err = e.Decode(src)
	return e, err
}

// Decode decodes the first 256 bytes of src into e, with the checks of
// DecodeEviction in the same order. On error e is the zero value. Like
// RequestHeader.Decode, it writes into an eviction the caller keeps.
func (e *Eviction) Decode(src []byte) error {
	b, err := header(src, CommandEviction)
	if err != nil {
		*e = Eviction{}
		return err
	}
	size := e.load(b)
	// One test of every rule for the common, valid eviction; only one that
	// fails it is checked rule by rule, in the reference's order.
	if size == HeaderSize && !e.Client.IsZero() && evictionReservedBits(b) == 0 && reasonOK(e.Reason, e.Window) {
		return nil
	}
	err = evictionError(b, size, e)
	*e = Eviction{}
	return err
}

// load reads every field of b into e, judging none, and returns the size
// field, which an eviction checks but does not keep.
func (e *Eviction) load(b *hdr) uint32 {
	// The 128-bit fields move as 16-byte arrays (get128).
	get128(&e.Checksum, b, offChecksum)
	get128(&e.ChecksumBody, b, offChecksumBody)
	get128(&e.Cluster, b, offCluster)
	size, view, release, replica := getFrame(b)
	e.View, e.Release, e.Replica = view, release, replica
	get128(&e.Client, b, offEvClient)
	e.Window = Window{Max: Version(le32(b, offEvWindowMax)), Min: Version(le32(b, offEvWindowMin))}
	e.Reason = EvictionReason(b[offEvReason])
	return size
}

// evictionError names the first broken rule of an eviction that Decode's
// one test rejected, in the reference's order.
func evictionError(b *hdr, size uint32, e *Eviction) error {
	if size != HeaderSize {
		return newError(ErrSize, "size", offSize, ruleEvSize, "size == 256")
	}
	if e.Client.IsZero() {
		return clientError(offEvClient, ruleEvClient)
	}
	if err := checkEvictionReserved(b); err != nil {
		return err
	}
	return reasonError(e.Reason)
}

// Err returns what e means to a client (wire reference section 8): an
// *IncompatibleProtocolError for reason 14 with a well-formed window, else
// the *IggyError of Status. An eviction always ends the session, so Err is
// never nil.
func (e Eviction) Err() error {
	if e.Reason == ReasonIncompatibleProtocol && e.Window.IsValid() {
		return &IncompatibleProtocolError{Window: e.Window}
	}
	return e.Reason.Status().Err()
}

// ErrFor is Err for a client that knows the protocol version it sent: an
// *IncompatibleProtocolError carries it as Client, so that the error names
// both sides. Every other eviction's error is Err's.
func (e Eviction) ErrFor(client Version) error {
	err := e.Err()
	if ipe, ok := err.(*IncompatibleProtocolError); ok {
		ipe.Client = client
	}
	return err
}

// Status returns the status an eviction for r maps to for a client (wire
// reference section 8): never StatusOK. Reason 14 maps to
// StatusUnauthenticated here; Eviction.Err says more when the window is
// well-formed. It is a method of the reason, not of Eviction, because the
// reason alone decides it (and so that Status is a field wherever a frame
// carries one, as in ReplyHeader, never a method).
func (r EvictionReason) Status() Status {
	switch r {
	case ReasonIncompatibleProtocol:
		return StatusUnauthenticated
	case ReasonNoSession, ReasonSessionTooLow, ReasonSessionReleaseMismatch,
		ReasonUserInactive, ReasonSessionError:
		return StatusUnauthenticated
	case ReasonInvalidCredentials:
		return StatusInvalidCredentials
	case ReasonInvalidToken:
		return StatusInvalidPAT
	case ReasonStaleClient:
		return StatusStaleClient
	case ReasonMalformedLogin:
		return StatusInvalidFormat
	}
	return StatusInvalidCommand // 2..6 and unknown reasons
}
