package codec_test

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/iggywire/iggywire/codec"
)

// A client builds a LOGIN_REGISTER body and sends it in a Register request
// frame; AppendRequestFrame sets the header's size.
func ExampleAppendRequestFrame() {
	body, err := codec.LoginRegister{
		Info: codec.ClientVersionInfo{
			Protocol:   codec.MustParseVersion("0.11.0"),
			SDKName:    []byte("go-sdk"),
			SDKVersion: []byte("0.1.0"),
		},
		Username: []byte("iggy"),
		Password: codec.NewSecret([]byte("iggy")),
	}.AppendBinary(nil)
	if err != nil {
		panic(err)
	}
	h := codec.RequestHeader{Client: codec.Uint128From(0x5eed), Operation: codec.OperationRegister}
	frame, err := codec.AppendRequestFrame(nil, h, body)
	if err != nil {
		panic(err)
	}
	size, _ := codec.FrameSize(frame)
	cmd, _ := codec.PeekCommand(frame)
	fmt.Println(len(body), size, cmd)
	fmt.Printf("% x\n", frame[codec.HeaderSize:codec.HeaderSize+4])
	// Output:
	// 31 287 Request
	// 00 2c 00 00
}

// A client reads an eviction and turns it into an error; reason 14 says
// which protocol versions the server accepts.
func ExampleEviction_Err() {
	server := codec.MustParseVersion("0.11.0")
	sent := codec.NewIncompatibleProtocolEviction(codec.Uint128From(7), codec.DefaultWindow(server))
	frame, _ := sent.AppendBinary(nil)

	ev, err := codec.DecodeEviction(frame)
	if err != nil {
		panic(err)
	}
	err = fmt.Errorf("login: %w", ev.Err())
	var ipe *codec.IncompatibleProtocolError
	if errors.As(err, &ipe) {
		fmt.Println(ev.Reason, ipe.Window)
	}
	fmt.Println(err)
	fmt.Println(errors.Is(codec.NewEviction(codec.Uint128From(7), codec.ReasonNoSession).Err(), codec.StatusUnauthenticated.Err()))
	// Output:
	// IncompatibleProtocol [0.11.0, 0.11.0]
	// login: codec: incompatible protocol version: server accepts [0.11.0, 0.11.0]
	// true
}

// A 0.x server accepts clients of its own major.minor, any patch; from 1.0
// on it accepts its own major.
func ExampleWindow_Accepts() {
	for _, server := range []string{"0.11.2", "1.4.0"} {
		w := codec.DefaultWindow(codec.MustParseVersion(server))
		fmt.Print(server, " ", w, ":")
		for _, client := range []string{"0.10.9", "0.11.0", "0.11.7", "0.12.0", "1.0.0", "1.9.9", "2.0.0"} {
			if w.Accepts(codec.MustParseVersion(client)) {
				fmt.Print(" ", client)
			}
		}
		fmt.Println()
	}
	// Output:
	// 0.11.2 [0.11.0, 0.11.2]: 0.11.0 0.11.7
	// 1.4.0 [1.0.0, 1.4.0]: 1.0.0 1.9.9
}

// A client reads the reply to its login: the header, the result section
// the server puts first, then the login reply.
func ExampleSplitResult() {
	// What the server sent.
	frame, _ := codec.AppendLoginReplyFrame(nil,
		codec.ReplyHeader{Client: codec.Uint128From(0x5eed), Operation: codec.OperationRegister},
		codec.LoginReply{UserID: 1, Session: 42, ServerProtocol: 0x2C00, ServerVersion: []byte("0.6.0")})

	h, err := codec.DecodeReplyHeader(frame)
	if err != nil {
		panic(err)
	}
	payload, code, err := codec.SplitResult(frame[codec.HeaderSize:h.Size])
	if err != nil || code != 0 {
		panic(fmt.Sprint(err, code))
	}
	reply, err := codec.ParseLoginReply(payload)
	if err != nil {
		panic(err)
	}
	fmt.Println(h.Status.String(), reply.UserID, reply.Session, reply.ServerProtocol, string(reply.ServerVersion))
	// Output:
	// OK 1 42 0.11.0 0.6.0
}

// A client reads the server's answer from the connection with ReadFrame,
// which checks the size field before it reads a body, and then decodes the
// frame it got: only that frame, however many bytes follow it.
func ExampleReadFrame() {
	// What the server sent, and the start of what it sends next.
	sent, _ := codec.AppendLoginReplyFrame(nil,
		codec.ReplyHeader{Client: codec.Uint128From(0x5eed), Operation: codec.OperationRegister},
		codec.LoginReply{UserID: 1, Session: 42, ServerProtocol: 0x2C00, ServerVersion: []byte("0.6.0")})
	conn := bytes.NewReader(append(sent, "next frame"...))

	frame, err := codec.ReadFrame(conn, nil, codec.MaxFrameSize)
	if err != nil {
		panic(err)
	}
	h, err := codec.DecodeReplyHeader(frame)
	if err != nil {
		panic(err)
	}
	payload, code, err := codec.SplitResult(frame[codec.HeaderSize:])
	if err != nil || code != codec.StatusOK {
		panic(fmt.Sprint(err, code))
	}
	reply, err := codec.ParseLoginReply(payload)
	if err != nil {
		panic(err)
	}
	fmt.Println(h.Status, reply.UserID, reply.Session, reply.ServerProtocol, string(reply.ServerVersion), conn.Len())
	// Output:
	// OK 1 42 0.11.0 0.6.0 10
}

// ParseVersion accepts a pre-release or build suffix and ignores it.
func ExampleParseVersion() {
	for _, s := range []string{"0.11.0", "0.11.0-edge.2", "1.2.3+build.5", "v1.2.3", "1.2.1024"} {
		v, err := codec.ParseVersion(s)
		if err != nil {
			fmt.Println(s, "->", err)
			continue
		}
		fmt.Printf("%s -> %v (%#08x)\n", s, v, uint32(v))
	}
	// Output:
	// 0.11.0 -> 0.11.0 (0x00002c00)
	// 0.11.0-edge.2 -> 0.11.0 (0x00002c00)
	// 1.2.3+build.5 -> 1.2.3 (0x00100803)
	// v1.2.3 -> codec: version at offset 0: syntax error, want one or more digits (rule version.text.digits)
	// 1.2.1024 -> codec: version at offset 4: out of range, want component <= 1023 (rule version.text.range)
}

// A server reads each request header into one value it keeps for the
// connection, so decoding copies nothing; on error the value is zero and the
// error names the field, its offset and the rule.
func ExampleRequestHeader_Decode() {
	frame, err := codec.AppendRequestFrame(nil,
		codec.RequestHeader{Client: codec.Uint128From(7), Operation: codec.OperationNonReplicated, Code: 1}, nil)
	if err != nil {
		panic(err)
	}
	var h codec.RequestHeader
	if err := h.Decode(frame); err != nil {
		panic(err)
	}
	fmt.Println(h.Operation, h.Code, h.Size)

	frame[codec.HeaderSize-1] = 1 // a reserved byte
	err = h.Decode(frame)
	fmt.Println(errors.Is(err, codec.ErrReserved), h.Operation)
	fmt.Println(err)
	// Output:
	// NonReplicated PING 256
	// true Reserved
	// codec: reserved at offset 255: non-zero reserved byte, want reserved byte == 0 (rule request.reserved)
}

// A server reads the ClientVersionInfo first, gates its version, and then
// decodes the rest of a login body in the layout that version selects: a
// 0.11.1 body carries a 32-byte bind secret after the prefix.
func ExampleDecodeLoginRegisterRev() {
	secret := make([]byte, codec.BindSecretLen) // a client draws it from crypto/rand
	body, _ := codec.LoginRegister{
		Info:       codec.ClientVersionInfo{Protocol: codec.Protocol0111, SDKName: []byte("go-sdk"), SDKVersion: []byte("0.1.0")},
		Revision:   codec.RevisionBindSecret,
		BindSecret: codec.NewSecret(secret),
		Username:   []byte("iggy"),
		Password:   codec.NewSecret([]byte("iggy")),
	}.AppendBinary(nil)

	info, _, _ := codec.DecodeClientVersionInfo(body)
	window := codec.ServeWindow(codec.Protocol0111)
	fmt.Println(info.Protocol, window.Accepts(info.Protocol), codec.RevisionOf(info.Protocol))
	l, _, err := codec.DecodeLoginRegisterRev(body, codec.RevisionOf(info.Protocol))
	fmt.Println(string(l.Username), l.BindSecret.Len(), err)
	fmt.Println(l)
	// Output:
	// 0.11.1 true 0.11.1
	// iggy 32 <nil>
	// LoginRegister{info: ClientVersionInfo{protocol_version: 0.11.1, sdk_name: "go-sdk", sdk_version: "0.1.0"}, revision: 0.11.1, bind_secret: [REDACTED], username: "iggy", password: [REDACTED], context: ""}
}

// BIND_SESSION authenticates a new connection as an existing logical
// session: its client id, its session (0 when the login's reply was
// lost) and the login's bind secret.
func ExampleBindSession() {
	b := codec.BindSession{
		Info:       codec.ClientVersionInfo{Protocol: codec.Protocol0111, SDKName: []byte("go-sdk"), SDKVersion: []byte("0.1.0")},
		ClientID:   codec.Uint128From(0x5eed),
		Session:    42,
		BindSecret: codec.NewSecret(make([]byte, codec.BindSecretLen)),
	}
	body, _ := b.AppendBinary(nil)
	frame, _ := codec.AppendRequestFrame(nil, codec.RequestHeader{Client: b.ClientID, Request: 1,
		Operation: codec.OperationNonReplicated, Code: codec.CodeBindSession}, body)
	got, err := codec.ParseBindSession(frame[codec.HeaderSize:])
	fmt.Println(len(body), got.Session, err)
	fmt.Println(got)
	// Output:
	// 81 42 <nil>
	// BindSession{info: ClientVersionInfo{protocol_version: 0.11.1, sdk_name: "go-sdk", sdk_version: "0.1.0"}, client_id: 0x00000000000000000000000000005eed, session: 42, metadata_watermark: 0, bind_secret: [REDACTED]}
}
