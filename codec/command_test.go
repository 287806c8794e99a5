package codec_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/iggywire/iggywire/codec"
)

// checkByteNames checks String against names, then, on all 256 values of
// the one-byte enum typ, that String admits the unknown (prefix unknown)
// exactly where Known is false.
func checkByteNames[E interface {
	~uint8
	String() string
	IsKnown() bool
}](t *testing.T, typ, unknown string, names map[E]string) {
	t.Helper()
	for v, want := range names {
		if got := v.String(); got != want {
			t.Fatalf("%s(%d).String() = %q, want %q", typ, v, got, want)
		}
	}
	for i := range 256 {
		v := E(i)
		if isUnknown := strings.HasPrefix(v.String(), unknown); isUnknown != !v.IsKnown() {
			t.Fatalf("%s(%d): IsKnown and the name table agree: IsKnown() = %v, String() = %q", typ, i, v.IsKnown(), v.String())
		}
	}
}

// TestCommand: known values are 0..29 (WIRE.md section 5); String names
// the client-facing kinds and admits the unknown.
func TestCommand(t *testing.T) {
	for c := range 256 {
		if got, want := codec.Command(c).IsKnown(), c <= 29; got != want {
			t.Fatalf("Command(%d).IsKnown() = %v, want %v", c, got, want)
		}
	}
	names := map[codec.Command]string{
		0: "Reserved", 5: "Request", 8: "Reply", 13: "Eviction",
		1: "command_1", 29: "command_29", 30: "UNKNOWN_COMMAND_30", 255: "UNKNOWN_COMMAND_255",
	}
	checkByteNames(t, "Command", "UNKNOWN_COMMAND_", names)
	if got, want := [3]codec.Command{codec.CommandRequest, codec.CommandReply, codec.CommandEviction}, [3]codec.Command{5, 8, 13}; got != want {
		t.Fatalf("values: got %d, want %d", got, want)
	}
}

// operationKnown is WIRE.md section 6 written out independently: 0..3,
// internal 64..68, metadata 128..149, partition 160..162.
func operationKnown(o int) bool {
	return o <= 3 || 64 <= o && o <= 68 || 128 <= o && o <= 149 || 160 <= o && o <= 162
}

// TestOperation checks Known and String on every value (the classes are
// TestOperationClasses').
func TestOperation(t *testing.T) {
	for o := range 256 {
		op := codec.Operation(o)
		if got, want := op.IsKnown(), operationKnown(o); got != want {
			t.Fatalf("Operation(%d).IsKnown() = %v, want %v", o, got, want)
		}
	}
	names := map[codec.Operation]string{
		0: "Reserved", 1: "Register", 2: "NonReplicated", 3: "Logout",
		64: "CreateTopicWithAssignments", 68: "TruncatePartition", 128: "CreateStream", 138: "DeleteSegments",
		146: "CreatePersonalAccessToken", 149: "LeaveConsumerGroup", 160: "SendMessages", 162: "DeleteConsumerOffset",
		4: "UNKNOWN_OPERATION_4", 63: "UNKNOWN_OPERATION_63", 69: "UNKNOWN_OPERATION_69",
		127: "UNKNOWN_OPERATION_127", 150: "UNKNOWN_OPERATION_150", 159: "UNKNOWN_OPERATION_159",
		163: "UNKNOWN_OPERATION_163", 255: "UNKNOWN_OPERATION_255",
	}
	checkByteNames(t, "Operation", "UNKNOWN_OPERATION_", names)
	if got, want := [4]codec.Operation{codec.OperationReserved, codec.OperationRegister, codec.OperationNonReplicated, codec.OperationLogout}, [4]codec.Operation{0, 1, 2, 3}; got != want {
		t.Fatalf("values: got %d, want %d", got, want)
	}
	if got, want := [6]codec.Operation{
		codec.OperationCreateTopicWithAssignments, codec.OperationTruncatePartition, codec.OperationCreateStream,
		codec.OperationLeaveConsumerGroup, codec.OperationSendMessages, codec.OperationDeleteConsumerOffset,
	}, [6]codec.Operation{64, 68, 128, 149, 160, 162}; got != want {
		t.Fatalf("range bounds: got %d, want %d", got, want)
	}
}

// TestCode: the codes of WIRE.md sections 6 and 7 are known, the lifecycle's,
// the 25 replicated client commands and the reads an SDK sends (so that Operation.Code names what
// OperationForCode knows); any other u32 prints as UNKNOWN_CODE_N.
func TestCode(t *testing.T) {
	names := map[codec.Code]string{
		1: "PING", 12: "GET_CLUSTER_METADATA", 15: "BIND_SESSION", 38: "LOGIN_USER", 39: "LOGOUT_USER",
		40: "LOGIN_REGISTER", 44: "LOGIN_WITH_PERSONAL_ACCESS_TOKEN", 45: "LOGIN_REGISTER_WITH_PAT",
		33: "CREATE_USER", 34: "DELETE_USER", 35: "UPDATE_USER", 36: "UPDATE_PERMISSIONS", 37: "CHANGE_PASSWORD",
		42: "CREATE_PERSONAL_ACCESS_TOKEN", 43: "DELETE_PERSONAL_ACCESS_TOKEN",
		101: "SEND_MESSAGES", 121: "STORE_CONSUMER_OFFSET", 122: "DELETE_CONSUMER_OFFSET",
		202: "CREATE_STREAM", 203: "DELETE_STREAM", 204: "UPDATE_STREAM", 205: "PURGE_STREAM",
		302: "CREATE_TOPIC", 303: "DELETE_TOPIC", 304: "UPDATE_TOPIC", 305: "PURGE_TOPIC",
		402: "CREATE_PARTITIONS", 403: "DELETE_PARTITIONS", 503: "DELETE_SEGMENTS",
		602: "CREATE_CONSUMER_GROUP", 603: "DELETE_CONSUMER_GROUP", 604: "JOIN_CONSUMER_GROUP", 605: "LEAVE_CONSUMER_GROUP",
		10: "GET_STATS", 11: "GET_SNAPSHOT_FILE", 13: "DESCRIBE_OPTIONS", 20: "GET_ME", 21: "GET_CLIENT", 22: "GET_CLIENTS",
		31: "GET_USER", 32: "GET_USERS", 41: "GET_PERSONAL_ACCESS_TOKENS", 100: "POLL_MESSAGES", 120: "GET_CONSUMER_OFFSET",
		200: "GET_STREAM", 201: "GET_STREAMS", 300: "GET_TOPIC", 301: "GET_TOPICS",
		600: "GET_CONSUMER_GROUP", 601: "GET_CONSUMER_GROUPS", 606: "SYNC_CONSUMER_GROUP",
	}
	for op := range 256 {
		if c, ok := codec.Operation(op).Code(); ok && (!c.IsKnown() || codec.OperationForCode(c) != codec.Operation(op)) {
			t.Fatalf("Operation(%d).Code() = %v (known %t), which rides %v", op, c, c.IsKnown(), codec.OperationForCode(c))
		}
	}
	for c := range codec.Code(700) {
		want, known := names[c]
		if got := c.IsKnown(); got != known {
			t.Fatalf("Code(%d).IsKnown() = %v, want %v", c, got, known)
		}
		if !known {
			want = fmt.Sprintf("UNKNOWN_CODE_%d", c)
		}
		if got := c.String(); got != want {
			t.Fatalf("Code(%d).String() = %q, want %q", c, got, want)
		}
	}
	if got, want := codec.Code(1<<32-1).String(), "UNKNOWN_CODE_4294967295"; got != want {
		t.Fatalf("max: Code(1<<32-1).String() = %q, want %q", got, want)
	}
	if got, want := [7]codec.Code{
		codec.CodePing, codec.CodeGetClusterMetadata, codec.CodeLoginUser, codec.CodeLogoutUser,
		codec.CodeLoginRegister, codec.CodeLoginPAT, codec.CodeLoginRegisterPAT,
	}, [7]codec.Code{1, 12, 38, 39, 40, 44, 45}; got != want {
		t.Fatalf("values: got %d, want %d", got, want)
	}
}

// TestEvictionReason: names and values of WIRE.md section 6; Known is
// 1..15.
func TestEvictionReason(t *testing.T) {
	names := []string{
		"Reserved", "NoSession", "ClientReleaseTooLow", "ClientReleaseTooHigh",
		"InvalidRequestOperation", "InvalidRequestBody", "InvalidRequestBodySize",
		"SessionTooLow", "SessionReleaseMismatch", "InvalidCredentials", "InvalidToken",
		"UserInactive", "SessionError", "StaleClient", "IncompatibleProtocol", "MalformedLogin",
	}
	for r := range 256 {
		reason := codec.EvictionReason(r)
		if got, want := reason.IsKnown(), 1 <= r && r <= 15; got != want {
			t.Fatalf("reason %d Known() = %v, want %v", r, got, want)
		}
		want := fmt.Sprintf("UNKNOWN_REASON_%d", r)
		if r < len(names) {
			want = names[r]
		}
		if got := reason.String(); got != want {
			t.Fatalf("reason %d String() = %q, want %q", r, got, want)
		}
	}
	if got, want := [4]codec.EvictionReason{
		codec.ReasonNoSession, codec.ReasonInvalidCredentials, codec.ReasonIncompatibleProtocol, codec.ReasonMalformedLogin,
	}, [4]codec.EvictionReason{1, 9, 14, 15}; got != want {
		t.Fatalf("values: got %d, want %d", got, want)
	}
}
