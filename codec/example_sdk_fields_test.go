package codec_test

import (
	"fmt"

	"github.com/iggywire/iggywire/codec"
)

// The examples of this file are docs/sdk.md's cheap reads and writes: field
// loads on a header that need not validate, a header written into the
// caller's own array, and the login bodies of both protocol revisions.

// A denial's status is one load from the header the transport read into
// its fixed array, before (or instead of) judging the rest: plain loads,
// no error, nothing copied. DecodeReplyHeaderLenient judges it all.
func ExampleReplyFields_Status() {
	var hdr codec.Header // the transport's header buffer, as read from the socket
	reply := codec.ReplyHeader{Size: codec.HeaderSize, Client: codec.Uint128From(7), Request: 5,
		Operation: codec.OperationNonReplicated, Status: codec.StatusUnauthenticated}
	_, _ = reply.AppendBinary(hdr[:0])
	hdr[48] = 0x10 // a server that sent a body with its denial: the strict rules break, the loads do not care

	r := hdr.Reply()
	if status := r.Status(); status != codec.StatusOK {
		fmt.Println("request", r.Request(), "denied:", status, status.Err())
	}
	// Output: request 5 denied: Unauthenticated codec: iggy status 40 (Unauthenticated)
}

// An eviction's reason maps to the status an SDK reports with one load
// and a switch, whatever client id it carries (the reference puts its own
// on evictions 1 and 13); an incompatible-protocol eviction (its status is
// Unauthenticated) carries the window of versions the server speaks.
// DecodeEvictionLenient judges the whole header.
func ExampleEvictionFields_Window() {
	w := codec.Window{Min: codec.MustParseVersion("0.12.0"), Max: codec.MustParseVersion("0.12.1")}
	var hdr codec.Header
	ev := codec.NewIncompatibleProtocolEviction(codec.Uint128From(7), w)
	_, _ = ev.AppendBinary(hdr[:0])
	hdr[128] = 0 // a server that sent client id 0: the strict rules break, the loads do not care

	h := &hdr
	if h.Command() == codec.CommandEviction {
		e := h.Eviction()
		fmt.Println(e.Reason(), e.Reason().Status(), e.Window())
	}
	// Output: IncompatibleProtocol Unauthenticated [0.12.0, 0.12.1]
}

// A transport that keeps the header apart from the body writes the header,
// with the size of the whole frame, into its own 256-byte array: Size is
// set explicitly, AppendBinary validates and writes in place (the array's
// capacity is the header's), and the body is written to the socket after
// it, never copied behind it.
func ExampleRequestHeader_AppendBinary() {
	body := []byte(`{"name":"orders"}`)
	var hdr codec.Header // the transport's, reused for every request
	h := codec.RequestHeader{
		Size:      uint32(codec.HeaderSize + len(body)), // the frame's size: header and body
		Client:    codec.Uint128From(7),
		Request:   3,
		Operation: codec.OperationForCode(codec.CodeCreateStream),
		Session:   42,
	}
	out, err := h.AppendBinary(hdr[:0])
	fmt.Println(len(out), &out[0] == &hdr[0], err, hdr.Size(), hdr.Request().Operation())
	// Output: 256 true <nil> 273 CreateStream
}

// A login body is built by codec, behind the 256 bytes the header takes:
// protocol 0.11.0's layout (RevisionBase, the zero value) for an SDK of
// 0.11.0, and 0.11.1's (RevisionBindSecret) with a fresh 32-byte bind
// secret from crypto/rand for each new client id. One allocation: the
// frame, sized with EncodedLen.
func ExampleLoginRegister_AppendBinary() {
	info := codec.ClientVersionInfo{Protocol: codec.Protocol0110, SDKName: []byte("go-sdk"), SDKVersion: []byte("0.7.0")}
	login := codec.LoginRegister{Info: info, Username: []byte("iggy"), Password: codec.NewSecret([]byte("iggy"))}
	frame := make([]byte, codec.HeaderSize, codec.HeaderSize+login.EncodedLen())
	frame, err := login.AppendBinary(frame)
	if err == nil {
		err = codec.PutRequestHeader(frame, codec.RequestHeader{Client: codec.Uint128From(7), Operation: codec.OperationRegister})
	}
	fmt.Println("0.11.0:", len(frame)-codec.HeaderSize, err)

	info.Protocol = codec.Protocol0111
	login = codec.LoginRegister{Info: info, Revision: codec.RevisionOf(info.Protocol),
		BindSecret: codec.NewSecret(make([]byte, codec.BindSecretLen)), // from crypto/rand in an SDK
		Username:   []byte("iggy"), Password: codec.NewSecret([]byte("iggy"))}
	body, err := login.AppendBinary(nil)
	fmt.Println("0.11.1:", len(body), login.Revision, err)
	// Output:
	// 0.11.0: 31 <nil>
	// 0.11.1: 63 0.11.1 <nil>
}

// The personal-access-token login, in both layouts; the token, like a
// password, prints only as a redaction.
func ExampleLoginRegisterPAT_AppendBinary() {
	info := codec.ClientVersionInfo{Protocol: codec.Protocol0110, SDKName: []byte("go-sdk"), SDKVersion: []byte("0.7.0")}
	pat := codec.LoginRegisterPAT{Info: info, Token: codec.NewSecret([]byte("a-token-of-the-user"))}
	old, err := pat.AppendBinary(nil)
	fmt.Println("0.11.0:", len(old), err)

	pat.Info.Protocol = codec.Protocol0111
	pat.Revision = codec.RevisionOf(pat.Info.Protocol)
	pat.BindSecret = codec.NewSecret(make([]byte, codec.BindSecretLen))
	body, err := pat.AppendBinary(nil)
	fmt.Println("0.11.1:", len(body), err)
	fmt.Println(pat.Token)
	// Output:
	// 0.11.0: 41 <nil>
	// 0.11.1: 73 <nil>
	// [REDACTED]
}
