// Package lifecycletest holds the fixtures that the tests of lifecycle,
// lifecycle/tcp and cmd/loginserver share, so that they are written once.
//
// It imports lifecycle, so only external test packages (lifecycle_test, not
// package lifecycle's own test files) may import it.
package lifecycletest

import (
	"encoding/binary"
	"io"
	"strings"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/leakcheck"
	"github.com/iggywire/iggywire/lifecycle"
)

var (
	// V011 is protocol version 0.11.0, the test server's own.
	V011 = codec.MustPack(0, 11, 0)
	// Window is the test server's window, the default one: 0.11.x.
	Window = codec.DefaultWindow(V011)
	// Auth is the test server's accounts, iggy (password "iggy", active) and bob
	// ("bobpw", inactive), tokens "tok-iggy" and "tok-bob". Tests must not change it.
	Auth = lifecycle.StaticAuth{
		Users: []lifecycle.User{
			{ID: 1, Name: "iggy", Password: codec.NewSecret([]byte("iggy"))},
			{ID: 2, Name: "bob", Password: codec.NewSecret([]byte("bobpw")), Inactive: true},
		},
		Tokens: []lifecycle.Token{
			{Value: codec.NewSecret([]byte("tok-iggy")), User: "iggy"},
			{Value: codec.NewSecret([]byte("tok-bob")), User: "bob"},
		},
	}
	// ClientA is a client id for requests a test writes by hand.
	ClientA = codec.Uint128{Lo: 0xA1, Hi: 0xA2}
)

// ServerVersion is the test server's version string.
const ServerVersion = "iggywire-test 1.0"

// NewServer returns a server with Window, ServerVersion and Auth.
func NewServer(t testing.TB) *lifecycle.Server {
	t.Helper()
	s, err := lifecycle.NewServer(lifecycle.Config{Window: Window, Version: ServerVersion, Auth: Auth})
	return must(t, "NewServer", s, err)
}

// must returns v, failing t with what and err when err is not nil.
func must[T any](t testing.TB, what string, v T, err error) T {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return v
}

// IDs is a deterministic randomness source for a client: each 16-byte
// read is the next client id 1, 2, 3, ... (after Zeros all-zero ids).
type IDs struct {
	next uint64
	// Zeros is how many reads give a zero id before the counting starts.
	Zeros int
}

// Read fills p with the next id.
func (r *IDs) Read(p []byte) (int, error) {
	clear(p)
	if r.Zeros > 0 {
		r.Zeros--
	} else {
		r.next++
		binary.LittleEndian.PutUint64(p, r.next)
	}
	return len(p), nil
}

// NewClient returns a client of SDK go-sdk 0.1.0 whose ids are 1, 2, 3, ...
func NewClient(t testing.TB) *lifecycle.Client {
	t.Helper()
	c, err := lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "go-sdk", SDKVersion: "0.1.0", Rand: &IDs{}})
	return must(t, "NewClient", c, err)
}

// Info is the version information of SDK go-sdk 0.1.0 speaking protocol v.
func Info(v codec.Version) codec.ClientVersionInfo {
	return codec.ClientVersionInfo{Protocol: v, SDKName: []byte("go-sdk"), SDKVersion: []byte("0.1.0")}
}

// PasswordBody is a LOGIN_REGISTER body.
func PasswordBody(t testing.TB, v codec.Version, user, pass string) []byte {
	t.Helper()
	b, err := codec.LoginRegister{Info: Info(v), Username: []byte(user), Password: codec.NewSecret([]byte(pass))}.AppendBinary(nil)
	return must(t, "LoginRegister.AppendBinary", b, err)
}

// Request is a whole request frame.
func Request(t testing.TB, h codec.RequestHeader, body []byte) []byte {
	t.Helper()
	b, err := codec.AppendRequestFrame(nil, h, body)
	return must(t, "AppendRequestFrame", b, err)
}

// Register is a Register request frame of client with body.
func Register(t testing.TB, client codec.Uint128, body []byte) []byte {
	t.Helper()
	return Request(t, codec.RequestHeader{Client: client, Operation: codec.OperationRegister}, body)
}

// NonReplicated is a non-replicated request frame of client with no body.
func NonReplicated(t testing.TB, client codec.Uint128, req uint64, code codec.Code) []byte {
	t.Helper()
	return Request(t, codec.RequestHeader{Client: client, Request: req, Operation: codec.OperationNonReplicated, Code: code}, nil)
}

// EvictionFrame is the eviction the test server sends client for reason;
// an IncompatibleProtocol one carries Window.
func EvictionFrame(t testing.TB, client codec.Uint128, reason codec.EvictionReason) []byte {
	t.Helper()
	e := codec.NewEviction(client, reason)
	if reason == codec.ReasonIncompatibleProtocol {
		e = codec.NewIncompatibleProtocolEviction(client, Window)
	}
	b, err := e.AppendBinary(nil)
	return must(t, "Eviction.AppendBinary", b, err)
}

// Wire is a client talking over a connection. It fails no test, so the
// goroutines a test starts may use it.
type Wire struct {
	Conn   io.ReadWriter
	Client *lifecycle.Client
}

// Do writes a frame the client built to the connection, reads the answer
// and returns what the client makes of it, or the first error of building
// (err), writing, reading or receiving. It takes a builder's two results,
// so that w.Do(c.Ping(nil)) is one step.
func (w Wire) Do(frame []byte, err error) (lifecycle.Response, error) {
	if err == nil {
		_, err = w.Conn.Write(frame)
	}
	if err == nil {
		frame, err = codec.ReadFrame(w.Conn, nil, codec.MaxFrameSize)
	}
	if err != nil {
		return lifecycle.Response{}, err
	}
	return w.Client.Receive(frame)
}

// PhaseOf is the Phase a ConnState stands for: what an Outcome's Before
// and After must say of the states around a Handle.
func PhaseOf(s lifecycle.ConnState) lifecycle.Phase {
	switch {
	case s.Closed:
		return lifecycle.PhaseClosed
	case s.LoggedIn:
		return lifecycle.PhaseLoggedIn
	}
	return lifecycle.PhaseOpen
}

// EachShownSecret prints v every way leakcheck.PrintForms knows, failing
// the test at once if none of the forms is JSON (v must marshal), and
// calls shown for each form (how it was printed, and the text) that
// contains one of secrets.
func EachShownSecret(t testing.TB, v any, secrets []string, shown func(how, secret, s string)) {
	t.Helper()
	forms := leakcheck.PrintForms(v)
	if _, ok := forms["json"]; !ok {
		t.Fatalf("%T marshals: no json form among the %d printed forms", v, len(forms))
	}
	for how, s := range forms {
		for _, secret := range secrets {
			if strings.Contains(s, secret) {
				shown(how, secret, s)
			}
		}
	}
}
