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
// connection (Server.NewConnWith one with a Guard in front of its
// credential checks); Conn.Handle takes one request frame, appends the
// answer, if any, to a caller-owned buffer, and returns an Outcome that says
// what the frame was and did, so that a transport never decodes a frame
// again to log, count or time it. codec.ReadFrame cuts frames out of a byte
// stream. Package lifecycle/tcp holds the thin adapter, a Listener, that
// puts Conns on real network connections; this package imports nothing of
// the network, system calls, logging or JSON itself.
//
// # Client
//
// A Client builds request frames (Login, LoginPAT, Ping, Logout,
// Request, Replicated) with the right client id, session and request
// number, and Receive reads the Reply or Eviction that answers each one.
// At protocol 0.11.1 it sends a fresh bind secret with each logical
// session's login, and BindSession resumes that session on a new
// connection (WIRE.md section 10).
//
// A Sequencer is the layer under the Client for an SDK transport that keeps
// its own frames: it stamps a request header in front of a payload already
// in place (or into a caller's 256-byte array), correlates a reply header
// read apart from its body, replays the identical request after a transient
// 57 or 58, and binds and resets the session. It allocates nothing.
//
// # Errors
//
// Conn.Handle returns nil with an answer, or one of: a *DroppedError
// (matches ErrDropped; no answer, no change of state), an error matching
// codec.ErrSize (the frame cannot be delimited; the transport must close),
// or ErrClosed (the connection ended earlier). Client.Receive returns the
// *codec.IggyError or *codec.IncompatibleProtocolError a frame means (a
// *TransientError for a transient login or bind result), or an error of this
// package when the frame itself is wrong. Every error type of this package
// and of codec has a pointer receiver: errors.As wants a *DroppedError or a
// *TransientError, and errors.Is matches the sentinels below and, for a
// status, codec.StatusX.Err().
//
// Passwords, tokens and bind secrets travel as codec.Secret and never appear in any
// error, log or printed value of this package.
package lifecycle
