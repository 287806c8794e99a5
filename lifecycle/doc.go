// Package lifecycle implements the connection rules of the Apache Iggy wire
// protocol (login, ping, logout, session fencing and evictions) as sans-IO
// state machines: a server-side Conn and a client-side Client read and
// return whole frames as bytes and never touch a socket, so that tests,
// property models and fuzz targets drive them directly. Every layout is
// encoded and decoded by package codec.
//
// # Server
//
// A Server holds what every connection shares: the accept window, the
// server version text, the Authenticator, the Handler for commands after
// login and the session counter. Server.NewConn returns one Conn per
// connection; Conn.Handle takes one request frame and appends the answer,
// if any, to a caller-owned buffer. ReadFrame cuts frames out of a byte
// stream. Package lifecycle/tcp holds the thin adapter, a Listener, that
// puts Conns on real network connections; this package imports nothing of
// the network, system calls, logging or JSON itself.
//
// # Client
//
// A Client builds request frames (Login, LoginWithToken, Ping, Logout,
// Request, Replicated) with the right client id, session and request
// number, and Receive reads the Reply or Eviction that answers each one.
//
// # Errors
//
// Conn.Handle returns nil with an answer, or one of: a *DroppedError
// (matches ErrDropped; no answer, no change of state), an error matching
// ErrFrameSize (the frame cannot be delimited; the transport must close),
// or ErrClosed (the connection ended earlier). Client.Receive returns the
// codec.Status or codec.IncompatibleProtocolError a frame means, or an
// error of this package when the frame itself is wrong.
//
// Passwords and tokens travel as codec.Secret and never appear in any
// error, log or printed value of this package.
package lifecycle
