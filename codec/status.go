package codec

// Status is an error code an SDK maps a frame to: the status of a denial
// Reply, the result code of a login, or what an Eviction means to a
// client. A Status is a number, not an error: Err turns a non-zero one
// into an *IggyError, and StatusOK into nil, so that success can never be
// mistaken for an error.
type Status uint32

// Status codes of the connection lifecycle.
const (
	StatusOK Status = 0
	// StatusError is the reference's generic Error: a server that cannot
	// answer a request (an answer over the frame cap) denies it so.
	StatusError              Status = 1
	StatusInvalidCommand     Status = 3
	StatusInvalidFormat      Status = 4
	StatusStaleClient        Status = 30
	StatusUnauthenticated    Status = 40
	StatusInvalidCredentials Status = 42
	StatusInvalidPAT         Status = 53
	// The transient result codes of a Register reply (WIRE.md section 8).
	// 57: the outcome is unknown, so only the same request may be replayed
	// (same connection, same client id). 58: nothing was committed, so the
	// login may be re-issued anywhere, even under a fresh client id.
	StatusTransientNotCommitted Status = 57
	StatusTransientNotAccepted  Status = 58
	// The statuses of protocol 0.11.1's BIND_SESSION denials (WIRE.md
	// section 10.4). 14001: the session named is not the logical
	// session's. 14003: the body's protocol version is outside the
	// server's window (a login is evicted with reason 14 instead).
	StatusInvalidSession              Status = 14001
	StatusIncompatibleProtocolVersion Status = 14003
)

// statusNames is the name table of Status.
func statusNames() [12]enumName {
	return [...]enumName{
		{0, 0, "OK"}, {1, 1, "Error"}, {3, 3, "InvalidCommand"}, {4, 4, "InvalidFormat"}, {30, 30, "StaleClient"},
		{40, 40, "Unauthenticated"}, {42, 42, "InvalidCredentials"},
		{53, 53, "InvalidPersonalAccessToken"},
		{57, 57, "TransientNotCommitted"}, {58, 58, "TransientNotAccepted"},
		{14001, 14001, "InvalidSession"}, {14003, 14003, "IncompatibleProtocolVersion"},
	}
}

// Known reports whether s is one of the codes named above.
func (s Status) IsKnown() bool {
	names := statusNames()
	_, ok := lookupName(names[:], uint32(s))
	return ok
}

// String names a known status and prints others as "UNKNOWN_STATUS_N".
func (s Status) String() string {
	names := statusNames()
	return enumString(names[:], "STATUS", uint32(s))
}

// Err returns nil for StatusOK and an *IggyError carrying s otherwise.
func (s Status) Err() error {
	if s == StatusOK {
		return nil
	}
	return &IggyError{Status: s}
}

// IggyError is a non-zero Status as an error: what a denial Reply, a
// login's result code or an Eviction means to a client (Status.Err,
// Eviction.Err). errors.Is(err, codec.StatusInvalidCredentials.Err())
// matches an *IggyError of the same Status anywhere in err's chain;
// errors.As(err, &target) with a target of type *IggyError reads it.
type IggyError struct {
	Status Status // never StatusOK
}

// Error returns "codec: iggy status N (Name)".
func (e *IggyError) Error() string {
	return "codec: iggy status " + itoa(uint64(e.Status)) + " (" + e.Status.String() + ")"
}

// Is reports whether target is an *IggyError of the same Status.
func (e *IggyError) Is(target error) bool {
	t, ok := target.(*IggyError)
	return ok && t.Status == e.Status
}

// IncompatibleProtocolError is what an eviction with reason 14 and a
// well-formed window means, IncompatibleProtocolVersion(client, min, max) in
// WIRE.md section 8: the server accepts only client protocol versions in
// Window, and Client is the version the client sent. The eviction does not
// carry the client's version: Eviction.ErrFor(v) fills it with the version
// the client sent, Eviction.Err leaves it zero.
type IncompatibleProtocolError struct {
	Client Version // the version the client sent; 0 when not known
	Window Window  // the versions the server accepts
}

// Error names the client's version, when known, and the window the server
// accepts.
func (e *IncompatibleProtocolError) Error() string {
	if e.Client == 0 {
		return "codec: incompatible protocol version: server accepts " + e.Window.String()
	}
	return "codec: incompatible protocol version: client speaks " + e.Client.String() + ", server accepts " + e.Window.String()
}
