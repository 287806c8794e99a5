package main

import (
	"encoding/binary"

	"github.com/iggywire/iggywire/codec"
)

// The lifecycle targets read a sequence of chunks, [flags u8][len u16
// LE][frame] (see fuzz/chunks_test.go). Flags 0 lets the target set the
// frame's size field to its length; flags 1 keeps it; flags 2 (FuzzClient)
// also patches in the client id, request number and operation the client
// waits for.
const (
	fixSize  = 0
	keepSize = 1
	echoIDs  = 2
)

func chunk(flags byte, frame []byte) []byte {
	out := binary.LittleEndian.AppendUint16([]byte{flags}, uint16(len(frame)))
	return append(out, frame...)
}

// Clients of the FuzzConn seeds: two ids, as a re-login mints a new one.
var (
	clientA = codec.Uint128{Lo: 0xA}
	clientB = codec.Uint128{Lo: 0xB}
)

func req(id codec.Uint128, op codec.Operation, session, request uint64, code codec.Code, body []byte) []byte {
	return chunk(fixSize, requestFrame(codec.RequestHeader{Client: id, Operation: op, Session: session, Request: request, Code: code}, body))
}

func ping(id codec.Uint128, session uint64) []byte {
	return req(id, codec.OperationNonReplicated, session, 1, codec.CodePing, nil)
}

func loginAs(id codec.Uint128, user, password string) []byte {
	body := must(codec.LoginRegister{Info: info, Username: []byte(user), Password: codec.NewSecret([]byte(password))}.AppendBinary(nil))
	return req(id, codec.OperationRegister, 0, 0, 0, body)
}

func loginToken(id codec.Uint128, token string) []byte {
	body := must(codec.LoginRegisterPAT{Info: info, Token: codec.NewSecret([]byte(token))}.AppendBinary(nil))
	return req(id, codec.OperationRegister, 0, 0, 0, body)
}

func connSeeds() []Seed {
	tooNew := codec.ClientVersionInfo{Protocol: codec.MustPack(0, 12, 0), SDKName: []byte("rust-sdk"), SDKVersion: []byte("0.12.0")}
	tooNewBody := must(codec.LoginRegister{Info: tooNew, Username: []byte("iggy"), Password: codec.NewSecret([]byte("iggy"))}.AppendBinary(nil))
	const meta = codec.OperationCreateStream
	return []Seed{
		{"ping-before-login", ping(clientA, 0)},
		{"login-ping-logout-relogin-metadata", cat(loginAs(clientA, "iggy", "iggy"), ping(clientA, 1),
			req(clientA, codec.OperationLogout, 1, 1, 0, nil), loginAs(clientB, "iggy", "iggy"),
			req(clientB, meta, 2, 1, 0, []byte("x")))},
		{"login-token-then-get-cluster-metadata-denied", cat(loginToken(clientA, "tok"), req(clientA, codec.OperationNonReplicated, 1, 1, codec.CodeGetClusterMetadata, nil))},
		{"login-wrong-password-evicted-9-then-closed", cat(loginAs(clientA, "iggy", "nope"), ping(clientA, 0))},
		{"login-wrong-empty-password-evicted-10", loginAs(clientA, "iggy", "")},
		{"login-inactive-user-evicted-9", loginAs(clientA, "gone", "gone")},
		{"login-inactive-token-evicted-11", loginToken(clientA, "old")},
		{"login-version-too-new-evicted-14", req(clientA, codec.OperationRegister, 0, 0, 0, tooNewBody)},
		{"login-malformed-body-evicted-15", req(clientA, codec.OperationRegister, 0, 0, 0, []byte{1, 2, 3})},
		{"legacy-login-38-evicted-15", req(clientA, codec.OperationNonReplicated, 0, 1, codec.CodeLoginUser, nil)},
		{"replicated-before-login-evicted-1", req(clientA, meta, 1, 1, 0, nil)},
		{"nonreplicated-before-login-denied-40", req(clientA, codec.OperationNonReplicated, 0, 1, codec.CodeGetClusterMetadata, nil)},
		{"relogin-same-client-then-zombie-session-evicted-7", cat(loginAs(clientA, "iggy", "iggy"), loginAs(clientA, "iggy", "iggy"), req(clientA, meta, 1, 1, 0, nil))},
		{"session-ahead-dropped-then-ping", cat(loginAs(clientA, "iggy", "iggy"), req(clientA, meta, 9, 1, 0, nil), ping(clientA, 1))},
		{"other-client-after-login-evicted-1", cat(loginAs(clientA, "iggy", "iggy"), req(clientB, meta, 1, 1, 0, nil))},
		{"invalid-header-dropped-then-ping", cat(chunk(fixSize, patch(requestFrame(pingRequest(), nil), 60, 8)), ping(clientA, 0))},
		{"size-mismatch-closes-then-ping", cat(chunk(keepSize, patch(requestFrame(pingRequest(), nil), 48, u32(300)...)), ping(clientA, 0))},
	}
}

// Client actions of FuzzClient (the action byte, mod 6). An action of 192
// or more that is 5 mod 6 sends a code by Client.Request instead: 197 is
// CreateStream (202), 203 DeleteSegments (503).
const (
	actLogin, actToken, actPing, actLogout, actReplicated = 0, 1, 2, 3, 5
	actCreateStream, actDeleteSegments                    = 197, 203
	keepOperation                                         = echoIDs | 4 // echo, but keep the reply's operation
)

func step(action byte, flags byte, frame []byte) []byte {
	return append([]byte{action}, chunk(flags, frame)...)
}

func clientSeeds() []Seed {
	okReply := loginReplyFrame()
	pong := replyFrame(codec.ReplyHeader{Client: client, Request: 1, Operation: codec.OperationNonReplicated}, nil)
	denied := replyFrame(codec.ReplyHeader{Client: client, Operation: codec.OperationRegister}, cat(u32(1), u32(0), u32(42)))
	zeroSession := replyFrame(codec.ReplyHeader{Client: client, Operation: codec.OperationRegister},
		cat(u32(0), patch(must(codec.LoginReply{UserID: 1, Session: 7, ServerVersion: []byte("x")}.AppendBinary(nil)), 4, make([]byte, 8)...)))
	logoutReply := replyFrame(codec.ReplyHeader{Client: client, Operation: codec.OperationLogout}, nil)
	evict := func(e codec.Eviction) []byte { return must(e.AppendBinary(nil)) }
	return []Seed{
		{"login-then-login-reply", step(actLogin, echoIDs, okReply)},
		{"ping-then-pong", step(actPing, echoIDs, pong)},
		{"token-login-then-evicted-10", step(actToken, echoIDs, evict(codec.NewEviction(client, codec.ReasonInvalidToken)))},
		{"login-then-evicted-14-with-window", step(actLogin, echoIDs, evict(codec.NewIncompatibleProtocolEviction(client, codec.DefaultWindow(codec.MustPack(0, 11, 0)))))},
		{"login-then-result-code-42", step(actLogin, echoIDs, denied)},
		{"login-then-reply-session-0-malformed", step(actLogin, echoIDs, zeroSession)},
		{"login-logout-then-replicated-needs-session", cat(step(actLogin, echoIDs, okReply), step(actLogout, echoIDs, logoutReply), step(actReplicated, echoIDs, pong))},
		{"login-then-metadata-denied", cat(step(actLogin, echoIDs, okReply), step(actReplicated, echoIDs,
			replyFrame(codec.ReplyHeader{Client: client, Operation: codec.OperationCreateStream, Status: 3}, nil)))},
		{"ping-then-reply-for-another-client", step(actPing, fixSize, pong)},
		{"ping-then-request-frame-malformed", step(actPing, echoIDs, requestFrame(pingRequest(), nil))},
		{"ping-then-size-mismatch", step(actPing, keepSize, patch(pong, 48, u32(300)...))},
		{"login-then-eviction-for-another-client", step(actLogin, fixSize, evict(codec.NewEviction(client, codec.ReasonNoSession)))},
		{"login-then-evicted-14-ill-formed-window-means-40", step(actLogin, echoIDs,
			patch(evict(codec.NewIncompatibleProtocolEviction(client, codec.DefaultWindow(codec.MustPack(0, 11, 0)))), 148, u32(0x3000)...))},
		{"login-then-evicted-14-ill-formed-window-reserved-byte-malformed", step(actLogin, echoIDs,
			patch(evict(codec.NewIncompatibleProtocolEviction(client, codec.DefaultWindow(codec.MustPack(0, 11, 0)))), 148, cat(u32(0x3000), []byte{1})...))},
		{"login-then-transient-57", step(actLogin, echoIDs, replyFrame(codec.ReplyHeader{Client: client, Operation: codec.OperationRegister}, cat(u32(1), u32(0), u32(57))))},
		{"login-then-transient-58", step(actLogin, echoIDs, replyFrame(codec.ReplyHeader{Client: client, Operation: codec.OperationRegister}, cat(u32(1), u32(0), u32(58))))},
		{"login-create-stream-then-delete-segments-answered-under-68", cat(step(actLogin, echoIDs, okReply),
			step(actCreateStream, echoIDs, replyFrame(codec.ReplyHeader{Client: client, Operation: codec.OperationCreateStream}, nil)),
			step(actDeleteSegments, keepOperation, replyFrame(codec.ReplyHeader{Client: client, Operation: 68, Status: 58}, nil)))},
	}
}
