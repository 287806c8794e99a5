package codec

import "encoding/binary"

// Eviction is the 256-byte, header-only frame (command 13) a server sends
// before it closes a session. Its size is always 256, so it has no Size
// field. Window is non-zero only for ReasonIncompatibleProtocol, where it
// carries the versions the server accepts (Max at byte 144, Min at 148).
type Eviction struct {
	Checksum, ChecksumBody, Cluster Uint128
	View, Release                   uint32
	Replica                         uint8
	Client                          Uint128
	Window                          Window
	Reason                          EvictionReason
}

// NewEviction returns the eviction of client for reason, with a zero window.
// Use NewIncompatibleProtocol for reason 14.
func NewEviction(client Uint128, reason EvictionReason) Eviction {
	return Eviction{Client: client, Reason: reason}
}

// NewIncompatibleProtocol returns the eviction of client with reason 14
// carrying the window the server accepts.
func NewIncompatibleProtocol(client Uint128, w Window) Eviction {
	return Eviction{Client: client, Window: w, Reason: ReasonIncompatibleProtocol}
}

// Validate returns the first broken rule of e in the reference's order:
// client != 0; reason known and != 0; reason 14 => well-formed window; any
// other reason => zero window.
func (e Eviction) Validate() error {
	if e.Client.IsZero() {
		return newError(ErrField, "client", offEvClient, "client != 0")
	}
	return e.validateReason()
}

func (e Eviction) validateReason() error {
	if !e.Reason.Known() {
		return newError(ErrReason, "reason", offEvReason, "1 <= reason <= 15")
	}
	if e.Reason == ReasonIncompatibleProtocol {
		if !e.Window.Valid() {
			return newError(ErrWindow, "window", offEvWindowMax, "reason == 14 => 1 <= min <= max")
		}
		return nil
	}
	if e.Window != (Window{}) {
		return newError(ErrWindow, "window", offEvWindowMax, "reason != 14 => window == 0")
	}
	return nil
}

// EncodedLen returns HeaderSize.
func (Eviction) EncodedLen() int { return HeaderSize }

// AppendTo validates e and appends its 256 bytes to dst. On error it returns
// dst unchanged.
func (e Eviction) AppendTo(dst []byte) ([]byte, error) {
	if err := e.Validate(); err != nil {
		return dst, err
	}
	dst, b := growHeader(dst)
	prologue{e.Checksum, e.ChecksumBody, e.Cluster, HeaderSize, e.View, e.Release, e.Replica}.put(b, CommandEviction)
	putU128(b[offEvClient:], e.Client)
	binary.LittleEndian.PutUint32(b[offEvWindowMax:], uint32(e.Window.Max))
	binary.LittleEndian.PutUint32(b[offEvWindowMin:], uint32(e.Window.Min))
	b[offEvReason] = byte(e.Reason)
	return dst, nil
}

// DecodeEviction decodes the first 256 bytes of src as an eviction. It
// checks, in the reference's order: the length, command == 13, size == 256,
// client != 0, reserved_frame zero, reserved zero, then the reason and
// window rules of Validate.
func DecodeEviction(src []byte) (Eviction, error) {
	b, err := header(src, CommandEviction)
	if err != nil {
		return Eviction{}, err
	}
	p := getPrologue(b)
	if p.Size != HeaderSize {
		return Eviction{}, newError(ErrSize, "size", offSize, "size == 256")
	}
	e := Eviction{
		Checksum: p.Checksum, ChecksumBody: p.ChecksumBody, Cluster: p.Cluster,
		View: p.View, Release: p.Release, Replica: p.Replica,
		Client: getU128(b[offEvClient:]),
		Window: Window{
			Max: Version(binary.LittleEndian.Uint32(b[offEvWindowMax:])),
			Min: Version(binary.LittleEndian.Uint32(b[offEvWindowMin:])),
		},
		Reason: EvictionReason(b[offEvReason]),
	}
	if e.Client.IsZero() {
		return Eviction{}, newError(ErrField, "client", offEvClient, "client != 0")
	}
	if err := checkZero(b, offReservedFrame, sizeReservedFrame, "reserved_frame"); err != nil {
		return Eviction{}, err
	}
	if err := checkZero(b, offEvReserved, sizeEvReserved, "reserved"); err != nil {
		return Eviction{}, err
	}
	if err := e.validateReason(); err != nil {
		return Eviction{}, err
	}
	return e, nil
}

// Err returns what e means to a client (wire reference section 8): an
// IncompatibleProtocolError for reason 14 with a well-formed window, else a
// Status (an unknown reason is StatusInvalidCommand).
func (e Eviction) Err() error {
	switch e.Reason {
	case ReasonIncompatibleProtocol:
		if e.Window.Valid() {
			return IncompatibleProtocolError{Window: e.Window}
		}
		return StatusUnauthenticated
	case ReasonNoSession, ReasonSessionTooLow, ReasonSessionReleaseMismatch,
		ReasonUserInactive, ReasonSessionError:
		return StatusUnauthenticated
	case ReasonInvalidCredentials:
		return StatusInvalidCredentials
	case ReasonInvalidToken:
		return StatusInvalidPersonalAccessToken
	case ReasonStaleClient:
		return StatusStaleClient
	case ReasonMalformedLogin:
		return StatusInvalidFormat
	}
	return StatusInvalidCommand // 2..6 and unknown reasons
}

// DecodeEvictionForClient decodes src as a client reads an eviction: like
// DecodeEviction, but it also accepts the one eviction DecodeEviction
// refuses that WIRE.md section 8 still gives a meaning, reason 14 with an
// ill-formed window. That eviction comes back with its window as sent, and
// its Err is StatusUnauthenticated. Every other rule is checked by
// DecodeEviction itself, in its order.
func DecodeEvictionForClient(src []byte) (Eviction, error) {
	if len(src) < HeaderSize || EvictionReason(src[offEvReason]) != ReasonIncompatibleProtocol {
		return DecodeEviction(src)
	}
	w := Window{
		Max: Version(binary.LittleEndian.Uint32(src[offEvWindowMax:])),
		Min: Version(binary.LittleEndian.Uint32(src[offEvWindowMin:])),
	}
	if w.Valid() {
		return DecodeEviction(src)
	}
	// The window is checked last, so decoding a copy whose window is
	// well-formed checks every other rule exactly as DecodeEviction does.
	var b [HeaderSize]byte
	copy(b[:], src)
	binary.LittleEndian.PutUint32(b[offEvWindowMax:], 1)
	binary.LittleEndian.PutUint32(b[offEvWindowMin:], 1)
	e, err := DecodeEviction(b[:])
	if err != nil {
		return Eviction{}, err
	}
	e.Window = w
	return e, nil
}
