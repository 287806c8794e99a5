package codec_test

import (
	"strings"
	"testing"

	"github.com/iggywire/iggywire/codec"
)

// TestString: each message type prints its fields by their wire names,
// texts quoted, and a secret only as the redaction, whatever its length.
func TestString(t *testing.T) {
	login := codec.LoginRegister{Info: infoGoSDK, Username: []byte("iggy"), Password: codec.NewSecret([]byte("hunter2")), Context: []byte("c")}
	cases := []struct {
		v    interface{ String() string }
		want string
	}{
		{infoGoSDK, `ClientVersionInfo{protocol_version: 0.11.0, sdk_name: "go-sdk", sdk_version: "0.1.0"}`},
		{login, `LoginRegister{info: ClientVersionInfo{protocol_version: 0.11.0, sdk_name: "go-sdk", sdk_version: "0.1.0"}, username: "iggy", password: [REDACTED], context: "c"}`},
		{codec.LoginRegisterPAT{Info: infoGoSDK, Token: codec.NewSecret([]byte("t"))}, `LoginRegisterPAT{info: ClientVersionInfo{protocol_version: 0.11.0, sdk_name: "go-sdk", sdk_version: "0.1.0"}, token: [REDACTED], context: ""}`},
		{codec.LoginReply{UserID: 1, Session: 9, ServerProtocol: codec.MustPack(0, 11, 0), ServerVersion: []byte("0.6.0")}, `LoginReply{user_id: 1, session: 9, server_protocol_version: 0.11.0, server_version: "0.6.0"}`},
		{codec.RequestHeader{Size: 256, Client: codec.Uint128From(7), Request: 1, Operation: codec.OperationNonReplicated, Code: codec.CodePing},
			`RequestHeader{size: 256, client: 0x00000000000000000000000000000007, request: 1, operation: NonReplicated, session: 0, user_id: 0, code: PING}`},
		{codec.RequestHeader{Size: 256, Client: codec.Uint128From(7), Operation: codec.OperationRegister, View: 3},
			`RequestHeader{view: 3, size: 256, client: 0x00000000000000000000000000000007, request: 0, operation: Register, session: 0, user_id: 0}`},
		{codec.ReplyHeader{Size: 256, Client: codec.Uint128From(7), Request: 1, Operation: codec.OperationNonReplicated, Status: codec.StatusUnauthenticated},
			`ReplyHeader{size: 256, client: 0x00000000000000000000000000000007, op: 0, commit: 0, request: 1, operation: NonReplicated, status: Unauthenticated}`},
		{codec.NewIncompatibleProtocolEviction(codec.Uint128From(7), codec.DefaultWindow(codec.MustPack(0, 11, 0))),
			`Eviction{client: 0x00000000000000000000000000000007, window: [0.11.0, 0.11.0], reason: IncompatibleProtocol}`},
	}
	for _, tc := range cases {
		if got := tc.v.String(); got != tc.want {
			t.Errorf("%T.String() =\n\t%s\nwant\n\t%s", tc.v, got, tc.want)
		}
	}
	other := login
	other.Password = codec.NewSecret([]byte("a much longer password than before"))
	if login.String() != other.String() || strings.Contains(login.String(), "hunter2") {
		t.Errorf("a login prints differently with another password, or shows it: %s / %s", login, other)
	}
}
