package main

import (
	"fmt"

	"github.com/iggywire/iggywire/codec"
)

// Frames every header seed starts from.
func pingRequest() codec.RequestHeader {
	return codec.RequestHeader{Client: client, Request: 1, Operation: codec.OperationNonReplicated, Code: codec.CodePing}
}

func loginBody() []byte {
	return must(codec.LoginRegister{Info: info, Username: []byte("iggy"), Password: codec.NewSecret([]byte("iggy"))}.AppendBinary(nil))
}

func requestFrame(h codec.RequestHeader, body []byte) []byte {
	return must(codec.AppendRequestFrame(nil, h, body))
}

func replyFrame(h codec.ReplyHeader, body []byte) []byte {
	return must(codec.AppendReplyFrame(nil, h, body))
}

func loginReplyFrame() []byte {
	h := codec.ReplyHeader{Client: client, Commit: 7, Operation: codec.OperationRegister}
	return must(codec.AppendLoginReplyFrame(nil, h, codec.LoginReply{UserID: 1, Session: 7, ServerProtocol: protocol, ServerVersion: []byte("0.11.0")}))
}

func requestSeeds() []Seed {
	ping := requestFrame(pingRequest(), nil)
	register := requestFrame(codec.RequestHeader{Client: client, Operation: codec.OperationRegister}, loginBody())
	logout := requestFrame(codec.RequestHeader{Client: client, Session: 7, Request: 2, Operation: codec.OperationLogout}, nil)
	return []Seed{
		{"valid-ping", ping},
		{"valid-register-with-login-body", register},
		{"valid-logout", logout},
		{"valid-metadata-128", requestFrame(codec.RequestHeader{Client: client, Session: 7, Request: 3, Operation: codec.OperationCreateStream}, []byte("x"))},
		{"valid-partition-162", requestFrame(codec.RequestHeader{Client: client, Session: 7, Request: 3, Operation: codec.OperationDeleteConsumerOffset}, nil)},
		{"valid-internal-64", requestFrame(codec.RequestHeader{Client: client, Session: 1, Request: 1, Operation: codec.OperationCreateTopicWithAssignments}, nil)},
		{"valid-get-cluster-metadata", requestFrame(codec.RequestHeader{Client: client, Request: 1, Operation: codec.OperationNonReplicated, Code: codec.CodeGetClusterMetadata}, nil)},
		{"valid-size-64mib-header-only", patch(ping, 48, u32(codec.MaxFrameSize)...)},
		{"valid-every-carried-field-set", requestFrame(codec.RequestHeader{
			Checksum: client, ChecksumBody: client, Cluster: client, View: 9, Release: 10, Replica: 11,
			Client: client, RequestChecksum: client, Timestamp: 12, Request: 13, Operation: codec.OperationNonReplicated,
			Session: 14, UserID: 15, Code: 0xffffffff,
		}, nil)},
		{"bad-header-255-bytes-truncated", ping[:255]},
		{"bad-command-reply", patch(ping, 60, byte(codec.CommandReply))},
		{"bad-size-255", patch(ping, 48, u32(255)...)},
		{"bad-size-above-64mib", patch(ping, 48, u32(codec.MaxFrameSize+1)...)},
		{"bad-client-0", patch(ping, 128, make([]byte, 16)...)},
		{"bad-operation-reserved-0", patch(ping, 176, 0)},
		{"bad-operation-unknown-4", patch(ping, 176, 4)},
		{"bad-register-with-session", patch(register, 184, 1)},
		{"bad-register-with-request", patch(register, 168, 1)},
		{"bad-nonreplicated-code-0", patch(ping, 196, 0)},
		{"bad-replicated-session-0", patch(logout, 184, 0)},
		{"bad-replicated-request-0", patch(logout, 168, 0)},
		{"bad-reserved-frame-first-byte", patch(ping, 62, 1)},
		{"bad-reserved-frame-last-byte", patch(ping, 127, 1)},
		{"bad-operation-padding", patch(ping, 183, 1)},
		{"bad-reserved-after-code", patch(ping, 200, 1)},
		{"bad-reserved-last-byte", patch(ping, 255, 1)},
		{"bad-code-on-logout", patch(logout, 196, 1)},
		{"bad-code-high-byte-on-register", patch(register, 199, 1)},
	}
}

func replySeeds() []Seed {
	ping := replyFrame(codec.ReplyHeader{Client: client, Request: 1, Operation: codec.OperationNonReplicated}, nil)
	denial := replyFrame(codec.ReplyHeader{Client: client, Request: 1, Operation: codec.OperationNonReplicated, Status: codec.StatusUnauthenticated}, nil)
	return []Seed{
		{"valid-ping-reply", ping},
		{"valid-login-reply-frame", loginReplyFrame()},
		{"valid-denial-status-40", denial},
		{"valid-operation-reserved-0-echoed", patch(ping, 208, 0)},
		{"valid-logout-reply", replyFrame(codec.ReplyHeader{Client: client, Request: 2, Operation: codec.OperationLogout}, nil)},
		{"valid-every-carried-field-set", replyFrame(codec.ReplyHeader{
			Checksum: client, ChecksumBody: client, Cluster: client, View: 1, Release: 2, Replica: 3,
			RequestChecksum: client, Context: client, Client: client, Op: 4, Commit: 5, Timestamp: 6, Request: 7,
			Operation: codec.OperationSendMessages, Status: 0,
		}, []byte("body"))},
		{"bad-header-truncated", ping[:100]},
		{"bad-command-eviction", patch(ping, 60, byte(codec.CommandEviction))},
		{"bad-size-0", patch(ping, 48, 0, 0, 0, 0)},
		{"bad-size-above-64mib", patch(ping, 48, u32(codec.MaxFrameSize+1)...)},
		{"bad-operation-unknown-150", patch(ping, 208, 150)},
		{"bad-denial-with-body", patch(denial, 48, u32(300)...)},
		{"bad-reserved-frame", patch(ping, 100, 1)},
		{"bad-operation-padding", patch(ping, 209, 1)},
		{"bad-reserved", patch(ping, 220, 1)},
		{"bad-reserved-last-byte", patch(ping, 255, 1)},
	}
}

var reasonNames = [...]string{
	1: "no-session", 2: "client-release-too-low", 3: "client-release-too-high",
	4: "invalid-request-operation", 5: "invalid-request-body", 6: "invalid-request-body-size",
	7: "session-too-low", 8: "session-release-mismatch", 9: "invalid-credentials",
	10: "invalid-token", 11: "user-inactive", 12: "session-error", 13: "stale-client",
	14: "incompatible-protocol", 15: "malformed-login",
}

func evictionSeeds() []Seed {
	var out []Seed
	for r := codec.ReasonNoSession; r <= codec.ReasonMalformedLogin; r++ {
		e := codec.NewEviction(client, r)
		if r == codec.ReasonIncompatibleProtocol {
			e = codec.NewIncompatibleProtocolEviction(client, codec.DefaultWindow(codec.MustPack(0, 11, 5)))
		}
		out = append(out, Seed{fmt.Sprintf("eviction-reason%d-%s", r, reasonNames[r]), must(e.AppendBinary(nil))})
	}
	ok := must(codec.NewEviction(client, codec.ReasonNoSession).AppendBinary(nil))
	w14 := must(codec.NewIncompatibleProtocolEviction(client, codec.Window{Min: 0x2C00, Max: 0x2C00}).AppendBinary(nil))
	return append(out,
		Seed{"eviction-reason14-window-min-equals-max", w14},
		Seed{"eviction-reason14-window-ill-formed", patch(w14, 148, u32(0x2C01)...)},
		Seed{"eviction-reason14-window-min-0", patch(w14, 148, 0, 0, 0, 0)},
		Seed{"eviction-reason1-window-nonzero", patch(ok, 144, 1)},
		Seed{"eviction-reason0", patch(ok, 255, 0)},
		Seed{"eviction-reason16", patch(ok, 255, 16)},
		Seed{"eviction-reason255", patch(ok, 255, 255)},
		Seed{"eviction-size-257", patch(ok, 48, u32(257)...)},
		Seed{"eviction-client-0", patch(ok, 128, make([]byte, 16)...)},
		Seed{"eviction-reserved-frame", patch(ok, 62, 1)},
		Seed{"eviction-reserved", patch(ok, 152, 1)},
		Seed{"eviction-reserved-last-byte", patch(ok, 254, 1)},
		Seed{"eviction-command-request", patch(ok, 60, byte(codec.CommandRequest))},
		Seed{"eviction-truncated", ok[:255]},
		Seed{"eviction-every-carried-field-set", must(codec.Eviction{
			Checksum: client, ChecksumBody: client, Cluster: client, View: 1, Release: 2, Replica: 3,
			Client: client, Reason: codec.ReasonStaleClient,
		}.AppendBinary(nil))},
	)
}

func frameSeeds() []Seed {
	ping := requestFrame(pingRequest(), nil)
	pong := replyFrame(codec.ReplyHeader{Client: client, Request: 1, Operation: codec.OperationNonReplicated}, nil)
	evict := must(codec.NewEviction(client, codec.ReasonNoSession).AppendBinary(nil))
	register := requestFrame(codec.RequestHeader{Client: client, Operation: codec.OperationRegister}, loginBody())
	return []Seed{
		{"stream-ping-pong-eviction", cat(ping, pong, evict)},
		{"stream-register-then-login-reply", cat(register, loginReplyFrame())},
		{"stream-login-reply-with-result-entry", replyFrame(codec.ReplyHeader{Client: client, Operation: codec.OperationRegister}, cat(u32(1), u32(0), u32(0), must(codec.LoginReply{UserID: 1, Session: 7, ServerProtocol: protocol, ServerVersion: []byte("x")}.AppendBinary(nil))))},
		{"stream-unknown-command-0-then-ping", cat(patch(ping, 60, 0), ping)},
		{"stream-command-29-known-not-client-facing", patch(ping, 60, 29)},
		{"stream-command-200-unknown", patch(ping, 60, 200)},
		{"stream-size-below-256-ends-stream", cat(patch(ping, 48, u32(100)...), ping)},
		{"stream-size-above-cap-ends-stream", patch(ping, 48, u32(codec.MaxFrameSize+1)...)},
		{"stream-frame-longer-than-input", patch(ping, 48, u32(1000)...)},
		{"stream-short-tail", cat(ping, ping[:10])},
		{"stream-eviction-size-300", cat(patch(evict, 48, u32(300)...), make([]byte, 44))},
		{"stream-empty", nil},
		{"stream-every-code-operation-status-reason", enumStream()},
	}
}

// enumStream is one frame per named value of every typed field (command
// codes, operations of each range, statuses, reasons) plus an unknown one
// of each, so that replaying it reaches every String branch.
func enumStream() []byte {
	var out []byte
	for _, c := range []codec.Code{1, 12, 38, 39, 40, 44, 45, 99} {
		out = append(out, requestFrame(codec.RequestHeader{Client: client, Request: 1, Operation: codec.OperationNonReplicated, Code: c}, nil)...)
	}
	for _, op := range []codec.Operation{0, 1, 2, 3, 64, 128, 160, 200} {
		out = append(out, patch(replyFrame(codec.ReplyHeader{Client: client, Operation: codec.OperationNonReplicated}, nil), 208, byte(op))...)
	}
	for _, s := range []codec.Status{3, 4, 30, 40, 42, 53, 99} {
		out = append(out, replyFrame(codec.ReplyHeader{Client: client, Operation: codec.OperationNonReplicated, Status: s}, nil)...)
	}
	evict := must(codec.NewEviction(client, codec.ReasonNoSession).AppendBinary(nil))
	return append(out, patch(evict, 255, 200)...)
}
