package codec_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
)

// TestCommand: known values are 0..29 (WIRE.md section 5); String names
// the client-facing kinds and admits the unknown.
func TestCommand(t *testing.T) {
	for c := range 256 {
		require.Equal(t, c <= 29, codec.Command(c).Known(), fmt.Sprintf("Command(%d).Known", c))
	}
	names := map[codec.Command]string{
		0: "Reserved", 5: "Request", 8: "Reply", 13: "Eviction",
		1: "command_1", 29: "command_29", 30: "UNKNOWN_COMMAND_30", 255: "UNKNOWN_COMMAND_255",
	}
	for c, want := range names {
		require.Equal(t, want, c.String(), fmt.Sprintf("Command(%d).String", c))
	}
	for c := range 256 {
		cmd := codec.Command(c)
		require.Equal(t, !cmd.Known(), strings.HasPrefix(cmd.String(), "UNKNOWN_COMMAND_"), "Command(%d): Known and the name table agree", c)
	}
	require.Equal(t, [3]codec.Command{5, 8, 13}, [3]codec.Command{codec.CommandRequest, codec.CommandReply, codec.CommandEviction}, "values")
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
		require.Equal(t, operationKnown(o), op.Known(), fmt.Sprintf("Operation(%d).Known", o))
	}
	names := map[codec.Operation]string{
		0: "Reserved", 1: "Register", 2: "NonReplicated", 3: "Logout",
		64: "internal_64", 68: "internal_68", 128: "metadata_128", 138: "metadata_138", 149: "metadata_149",
		160: "partition_160", 162: "partition_162",
		4: "UNKNOWN_OPERATION_4", 63: "UNKNOWN_OPERATION_63", 69: "UNKNOWN_OPERATION_69",
		127: "UNKNOWN_OPERATION_127", 150: "UNKNOWN_OPERATION_150", 159: "UNKNOWN_OPERATION_159",
		163: "UNKNOWN_OPERATION_163", 255: "UNKNOWN_OPERATION_255",
	}
	for o, want := range names {
		require.Equal(t, want, o.String(), fmt.Sprintf("Operation(%d).String", o))
	}
	for o := range 256 {
		op := codec.Operation(o)
		require.Equal(t, !op.Known(), strings.HasPrefix(op.String(), "UNKNOWN_OPERATION_"), "Operation(%d): Known and the name table agree", o)
	}
	require.Equal(t, [4]codec.Operation{0, 1, 2, 3}, [4]codec.Operation{codec.OperationReserved, codec.OperationRegister, codec.OperationNonReplicated, codec.OperationLogout}, "values")
	require.Equal(t, [6]codec.Operation{64, 68, 128, 149, 160, 162}, [6]codec.Operation{
		codec.OperationInternalFirst, codec.OperationInternalLast, codec.OperationMetadataFirst,
		codec.OperationMetadataLast, codec.OperationPartitionFirst, codec.OperationPartitionLast,
	}, "range bounds")
}

// TestCode: the codes of WIRE.md sections 6 and 7 are known; any other u32
// prints as UNKNOWN_CODE_N.
func TestCode(t *testing.T) {
	names := map[codec.Code]string{
		1: "PING", 12: "GET_CLUSTER_METADATA", 38: "LOGIN_USER", 39: "LOGOUT_USER",
		40: "LOGIN_REGISTER", 44: "LOGIN_WITH_PERSONAL_ACCESS_TOKEN", 45: "LOGIN_REGISTER_WITH_PAT",
	}
	for c := range codec.Code(300) {
		want, known := names[c]
		require.Equal(t, known, c.Known(), fmt.Sprintf("Code(%d).Known", c))
		if !known {
			want = fmt.Sprintf("UNKNOWN_CODE_%d", c)
		}
		require.Equal(t, want, c.String(), fmt.Sprintf("Code(%d).String", c))
	}
	require.Equal(t, "UNKNOWN_CODE_4294967295", codec.Code(1<<32-1).String(), "max")
	require.Equal(t, [7]codec.Code{1, 12, 38, 39, 40, 44, 45}, [7]codec.Code{
		codec.CodePing, codec.CodeGetClusterMetadata, codec.CodeLoginUser, codec.CodeLogoutUser,
		codec.CodeLoginRegister, codec.CodeLoginWithPAT, codec.CodeLoginRegisterWithPAT,
	}, "values")
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
		require.Equal(t, 1 <= r && r <= 15, reason.Known(), fmt.Sprintf("reason %d Known", r))
		want := fmt.Sprintf("UNKNOWN_REASON_%d", r)
		if r < len(names) {
			want = names[r]
		}
		require.Equal(t, want, reason.String(), fmt.Sprintf("reason %d String", r))
	}
	require.Equal(t, [4]codec.EvictionReason{1, 9, 14, 15}, [4]codec.EvictionReason{
		codec.ReasonNoSession, codec.ReasonInvalidCredentials, codec.ReasonIncompatibleProtocol, codec.ReasonMalformedLogin,
	}, "values")
}
