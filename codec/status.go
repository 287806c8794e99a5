package codec

// Status is an error code an SDK maps a frame to: the status of a denial
// Reply, or what an Eviction means to a client. It implements error, so
// errors.Is(err, StatusUnauthenticated) works on whatever wraps it.
type Status uint32

// Status codes of the connection lifecycle.
const (
	StatusOK                         Status = 0
	StatusInvalidCommand             Status = 3
	StatusInvalidFormat              Status = 4
	StatusStaleClient                Status = 30
	StatusUnauthenticated            Status = 40
	StatusInvalidCredentials         Status = 42
	StatusInvalidPersonalAccessToken Status = 53
	// The transient result codes of a Register reply (WIRE.md section 8).
	// 57: the outcome is unknown, so only the same request may be replayed
	// (same connection, same client id). 58: nothing was committed, so the
	// login may be re-issued anywhere, even under a fresh client id.
	StatusTransientNotCommitted Status = 57
	StatusTransientNotAccepted  Status = 58
)

// statusNames is the name table of Status.
func statusNames() [9]enumName {
	return [...]enumName{
		{0, 0, "OK"}, {3, 3, "InvalidCommand"}, {4, 4, "InvalidFormat"}, {30, 30, "StaleClient"},
		{40, 40, "Unauthenticated"}, {42, 42, "InvalidCredentials"},
		{53, 53, "InvalidPersonalAccessToken"},
		{57, 57, "TransientNotCommitted"}, {58, 58, "TransientNotAccepted"},
	}
}

// Known reports whether s is one of the codes named above.
func (s Status) Known() bool {
	names := statusNames()
	_, ok := lookupName(names[:], uint32(s))
	return ok
}

// String names a known status and prints others as "UNKNOWN_STATUS_N".
func (s Status) String() string {
	names := statusNames()
	return enumString(names[:], "STATUS", uint32(s))
}

// Error returns "iggy status N (Name)".
func (s Status) Error() string { return "iggy status " + itoa(uint64(s)) + " (" + s.String() + ")" }

// IncompatibleProtocolError is what an eviction with reason 14 and a
// well-formed window means, IncompatibleProtocolVersion(client, min, max) in
// WIRE.md section 8: the server accepts only client protocol versions in
// Window, and Client is the version the client sent. The eviction does not
// carry the client's version, so Eviction.Err leaves Client zero; a client
// that knows what it sent fills it (lifecycle.Client does).
type IncompatibleProtocolError struct {
	Client Version
	Window Window
}

// Error names the client's version, when known, and the window the server
// accepts.
func (e IncompatibleProtocolError) Error() string {
	if e.Client == 0 {
		return "incompatible protocol version: server accepts " + e.Window.String()
	}
	return "incompatible protocol version: client speaks " + e.Client.String() + ", server accepts " + e.Window.String()
}
