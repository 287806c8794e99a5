package tcp

import (
	"time"

	"github.com/iggywire/iggywire/codec"
)

// ServeOptions bound what a Listener spends on its connections.
//
// One convention holds for every field: zero takes the default the field
// names; a negative value turns off the fields that say they can be off,
// and takes the default in the others. Resolved returns the options with
// every default filled in, as a Listener uses them; DefaultServeOptions is
// the resolved zero ServeOptions.
type ServeOptions struct {
	// MaxConns caps the connections open at once. A connection accepted
	// at the cap is refused (Observer.Limited, LimitConns), never left
	// waiting in the listen backlog: its first request, if it comes
	// within a second, is answered with Eviction 12 (SessionError), then
	// it is closed. Default 8192.
	MaxConns int
	// MaxPreLogin caps the connections open and not logged in. When a new
	// connection arrives at the cap, the oldest connection not logged in
	// is closed (CausePreLoginCap), so a newcomer always gets its chance
	// to log in. Default 256.
	MaxPreLogin int
	// LoginTimeout bounds how long a connection may stay without a login,
	// from its accept or its last logout, whether it pings or not.
	// Default 10s.
	LoginTimeout time.Duration
	// IdleTimeout closes a logged-in connection when no frame begins
	// within it. Default off, as in the reference server.
	IdleTimeout time.Duration
	// ReadTimeout bounds the read of one frame, from its first byte to
	// its last. Default 30s.
	ReadTimeout time.Duration
	// WriteTimeout bounds the write of each answer. Default 10s.
	WriteTimeout time.Duration
	// MaxFrame is the largest frame served. A larger one (up to the wire's
	// 64 MiB) is answered with Eviction 6 (InvalidRequestBodySize) and the
	// connection closed, as WIRE.md section 7 point 8 allows a server that
	// caps frames. Default 1 MiB; at least 256 bytes and at most 64 MiB.
	MaxFrame int
	// LargeFrameMemory bounds the bytes of frames above 64 KiB held at
	// once, server-wide. Such a frame waits until its size is free (it is
	// not dropped), is read into a buffer of its own, and that buffer is
	// let go of once the frame is answered. Default 8 MiB.
	LargeFrameMemory int
	// PreLoginFrameMemory is the part of LargeFrameMemory that frames of
	// connections not logged in may hold at once, so that a few stalled
	// unauthenticated frames cannot starve a logged-in client's. Default
	// a quarter of LargeFrameMemory; at most LargeFrameMemory.
	PreLoginFrameMemory int
	// LoginBurst and LoginRate throttle failed logins per remote address
	// (IPv4 address, or IPv6 /64): a token bucket of LoginBurst credential
	// checks that refills at LoginRate per second and that only failures
	// spend. Over budget, a login is refused with the eviction a wrong
	// password or token gets, after about the time a check takes, without
	// checking the credentials. Defaults 20 and 5 a second; LoginBurst can
	// be off, and then so is the per-account throttle.
	LoginBurst int     // credential checks an address may fail at once
	LoginRate  float64 // failed checks an address is given back per second
	// AccountLoginBurst and AccountLoginRate throttle failed checks per
	// account (per username; token logins share one bucket), from every
	// address at once, on top of the per-address throttle. Every address
	// is held to it, a fresh one included, but those where the account's
	// credentials passed within the last seven days, so that rotating
	// addresses buys an attacker no guesses and guessing from elsewhere
	// never locks the owner out where it logged in before. Defaults 20
	// and 5 a second; AccountLoginBurst can be off.
	AccountLoginBurst int
	AccountLoginRate  float64
	// MaxSessionsPerUser caps the connections logged in as one account
	// (user id) at once. A login over it is refused as a wrong
	// credential is, decided before the check where the username says
	// the account (Observer.Limited, LimitAccount), so that the refusal
	// says nothing of the password; a new login of the same account on a connection
	// already logged in as it is not counted twice. Default an eighth of
	// MaxConns and at least 8 (1024 of 8192), so that one account cannot
	// hold the whole budget; it can be off.
	MaxSessionsPerUser int
	// MaxSessionsPerUserAddr caps the connections logged in as one
	// account from one remote address (IPv4 address, or IPv6 /64), so
	// that one account cannot fill an address that others share (a NAT);
	// a login over it is refused as at MaxSessionsPerUser
	// (LimitUserAddress). Default a quarter of MaxConnsPerAddr and at
	// least 8 (256 of 1024); it can be off.
	MaxSessionsPerUserAddr int
	// MaxConnsPerAddr caps the connections open at once from one remote
	// address (IPv4 address, or IPv6 /64, as the login throttle keys
	// them). A connection over it is refused as at MaxConns
	// (Observer.Limited, LimitAddress). Default an eighth of MaxConns and
	// at least 8; it can be off.
	MaxConnsPerAddr int
	// ReservedConns is the part of MaxConns kept for the first session of
	// an account: once MaxConns-ReservedConns connections are logged in,
	// a login is admitted only for an account that holds no session yet,
	// so that accounts that filled the budget cannot lock others out. A
	// login refused so is answered as over MaxSessionsPerUser
	// (LimitReserve). Default an eighth of MaxConns; at most MaxConns; it
	// can be off.
	ReservedConns int
	// AcceptBurst and AcceptRate limit how fast one address (IPv4, or
	// IPv6 /64) may open connections: a token bucket of AcceptBurst
	// accepts that refills at AcceptRate per second, and that a
	// connection's first successful login gives back, so that only
	// connections that never log in spend it, and that a logout spends
	// again (a connection that logs out is one a client would otherwise
	// dial anew). Over budget, a connection is taken on probation while
	// its address has fewer than 32 on it: it has 2 s (or LoginTimeout) to
	// log in, so that a neighbour spending a shared address's budget with
	// connections it resets does not lock a legitimate client there out.
	// Past that, it is reset as soon as it is accepted, before it costs a
	// goroutine or an Opened and Closed call (Observer.Limited,
	// LimitAcceptRate). Defaults 64 and 32 a second; AcceptBurst can be
	// off.
	AcceptBurst int     // connections an address may open at once without logging in
	AcceptRate  float64 // such connections an address is given back per second
	// SocketReadBuffer and SocketWriteBuffer set each connection's kernel
	// receive and send buffers (SetReadBuffer, SetWriteBuffer), which
	// otherwise grow to megabytes on a peer that sends and never reads.
	// A connection writes the answers of the frames it has read before
	// it reads more, so the answers waiting for a peer are never more
	// than the send buffer holds: once it is full the connection stops
	// reading. PipelineMemory lets a client pipeline more than that
	// before it reads. The kernel doubles the value for its bookkeeping.
	// Defaults 32 KiB each; off leaves the kernel's own sizing.
	SocketReadBuffer  int
	SocketWriteBuffer int
	// PipelineMemory is the send buffer, server-wide, that connections
	// whose answers pile up may borrow: a connection whose answer has
	// waited 50 ms for room raises its send buffer to 1 MiB while the
	// budget has room, and gives it back when it closes, so that a
	// client writing thousands of requests before it reads its answers
	// (20,000 pings in one write, 5 MB) is served, while peers that never
	// read pin no more than the budget. Default 8 MiB (eight such
	// connections at once); it can be off.
	PipelineMemory int
	// WriteStall closes a connection whose answer makes no progress for
	// this long (CauseNotReading): a peer that keeps sending and does not
	// read its answers. WriteTimeout still bounds the whole write.
	// Default 3s.
	WriteStall time.Duration
	// ReplayTimeout is how long a connection not logged in stays open
	// after a login answered with result code 57 (TransientNotCommitted),
	// which the client replays on the same connection, when that is
	// later than LoginTimeout. Default 30s, the SDKs' replay window.
	ReplayTimeout time.Duration

	// ReleaseMemory, if set, is called on a goroutine of its own, at most
	// every 250 ms, when the Listener has let go of memory it would want
	// the operating system to have back: the last large frame's buffer, or
	// the goroutines and buffers of a crowd of at least 256 connections
	// that left. Without it the Go runtime returns that memory on its own
	// schedule, within minutes. A command may set debug.FreeOSMemory,
	// which forces a collection of the whole process; a library that
	// serves beside other work should leave it nil.
	ReleaseMemory func()

	// Observer's hooks, those set, learn of connections opened, limited
	// and closed, logins, logouts, dropped frames, accept errors and every
	// frame exchanged.
	Observer Observer
}

// Defaults of ServeOptions.
const (
	defaultMaxConns         = 8192
	defaultMaxPreLogin      = 256
	defaultLoginTimeout     = 10 * time.Second
	defaultReadTimeout      = 30 * time.Second
	defaultWriteTimeout     = 10 * time.Second
	defaultMaxFrame         = 1 << 20
	defaultLargeFrameMemory = 8 << 20
	defaultLoginBurst       = 20
	defaultLoginRate        = 5.0
	// The per-account throttle spends as the per-address one does.
	defaultAccountLoginBurst = 20
	defaultAccountLoginRate  = 5.0
	// The per-account, per-address and reserve shares are an eighth of
	// MaxConns, so that one account or one address can never hold the
	// whole budget; the first two are at least minShare, so that a small
	// budget (a test server's) does not refuse a client's second
	// connection.
	defaultShareDivisor = 8
	minShare            = 8
	defaultAcceptBurst  = 64
	defaultAcceptRate   = 32.0
	// 32 KiB each way (64 KiB as the kernel counts it) holds over a
	// hundred answers in flight: a client that reads keeps its pipeline
	// full, and 200 peers that never read pin a few tens of MiB of
	// kernel memory instead of gigabytes.
	defaultSocketBuffer = 32 << 10
	// Eight pipelining clients at once at 1 MiB each.
	defaultPipelineMemory = 8 << 20
	// A few seconds without progress is far beyond any live reader on a
	// full 64 KiB buffer, and short enough that peers which do not read
	// are shed before they add up.
	defaultWriteStall = 3 * time.Second
	// The SDKs replay a transient login for up to 30 s.
	defaultReplayTimeout = 30 * time.Second
)

// off is what Resolved leaves in a field that is turned off.
const off = -1

// DefaultServeOptions returns the options a zero ServeOptions stands for,
// every one as a Listener uses it (the Observer has no hooks), so that a
// command can show them.
func DefaultServeOptions() ServeOptions { return ServeOptions{}.Resolved() }

// Resolved returns o with its defaults filled in: every field holds the
// value a Listener made with o uses, a field that is off holds -1 (and
// IdleTimeout, off, 0). The shares that default to a fraction of
// MaxConns or LargeFrameMemory follow o's own.
func (o ServeOptions) Resolved() ServeOptions {
	orDefault(&o.MaxConns, defaultMaxConns)
	orDefault(&o.MaxPreLogin, defaultMaxPreLogin)
	orDefault(&o.LoginTimeout, defaultLoginTimeout)
	o.IdleTimeout = max(o.IdleTimeout, 0)
	orDefault(&o.ReadTimeout, defaultReadTimeout)
	orDefault(&o.WriteTimeout, defaultWriteTimeout)
	orDefault(&o.MaxFrame, defaultMaxFrame)
	o.MaxFrame = min(max(o.MaxFrame, codec.HeaderSize), codec.MaxFrameSize)
	orDefault(&o.LargeFrameMemory, defaultLargeFrameMemory)
	orDefault(&o.PreLoginFrameMemory, o.LargeFrameMemory/4)
	o.PreLoginFrameMemory = min(max(o.PreLoginFrameMemory, 1), o.LargeFrameMemory)
	orDefault(&o.LoginRate, defaultLoginRate)
	orOff(&o.LoginBurst, defaultLoginBurst)
	orDefault(&o.AccountLoginRate, defaultAccountLoginRate)
	orOff(&o.AccountLoginBurst, defaultAccountLoginBurst)
	if o.LoginBurst == off {
		o.AccountLoginBurst = off // it counts only addresses the per-address throttle saw fail
	}
	share := max(o.MaxConns/defaultShareDivisor, minShare)
	orOff(&o.MaxSessionsPerUser, share)
	orOff(&o.MaxConnsPerAddr, share)
	perAddr := o.MaxConnsPerAddr
	if perAddr <= 0 {
		perAddr = share
	}
	orOff(&o.MaxSessionsPerUserAddr, max(perAddr/4, minShare))
	if o.MaxConnsPerAddr > 0 {
		o.MaxSessionsPerUserAddr = min(o.MaxSessionsPerUserAddr, o.MaxConnsPerAddr)
	}
	orOff(&o.ReservedConns, o.MaxConns/defaultShareDivisor)
	if o.ReservedConns == 0 {
		o.ReservedConns = off // an eighth of a budget under 8
	}
	o.ReservedConns = min(o.ReservedConns, o.MaxConns)
	orDefault(&o.AcceptRate, defaultAcceptRate)
	orOff(&o.AcceptBurst, defaultAcceptBurst)
	orOff(&o.SocketReadBuffer, defaultSocketBuffer)
	orOff(&o.SocketWriteBuffer, defaultSocketBuffer)
	orOff(&o.PipelineMemory, defaultPipelineMemory)
	orDefault(&o.WriteStall, defaultWriteStall)
	orDefault(&o.ReplayTimeout, defaultReplayTimeout)
	return o
}

// orDefault gives a field that cannot be off its default when it is not
// positive.
func orDefault[T int | float64 | time.Duration](v *T, def T) {
	if !(*v > 0) { // NaN too
		*v = def
	}
}

// orOff gives a field that can be off its default when zero, and -1 when
// negative.
func orOff(v *int, def int) {
	switch {
	case *v == 0:
		*v = def
	case *v < 0:
		*v = off
	}
}
