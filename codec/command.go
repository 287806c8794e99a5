package codec

// Command is the frame kind at byte 60 of every header. Values 0..29 are
// known; only Request, Reply and Eviction face clients.
type Command uint8

// The client-facing frame kinds and the reserved zero.
const (
	CommandReserved Command = 0
	CommandRequest  Command = 5
	CommandReply    Command = 8
	CommandEviction Command = 13
)

// commandKnownMax is the highest known command value.
const commandKnownMax = 29

// Known reports whether c is one of the known values 0..29.
func (c Command) IsKnown() bool {
	// A comparison, not a look-up in the name table: the header decoders
	// call it.
	return c <= commandKnownMax
}

// commandNames is the name table of Command: the client-facing kinds by
// name, the other known values numbered.
func commandNames() [5]enumName {
	return [...]enumName{
		{0, 0, "Reserved"}, {5, 5, "Request"}, {8, 8, "Reply"}, {13, 13, "Eviction"},
		{0, commandKnownMax, "command_"},
	}
}

// String names the client-facing kinds, prints other known values as
// "command_N" and unknown ones as "UNKNOWN_COMMAND_N".
func (c Command) String() string {
	names := commandNames()
	return enumString(names[:], "COMMAND", uint32(c))
}

// Operation is the state-machine operation a request rides (u8).
type Operation uint8

// Operations named by the connection lifecycle. The other known values are
// the internal (64..68), metadata (128..149) and partition (160..162) ranges;
// see OperationForCode for the command each of the last two stands for, and
// IsMetadata for why the classes differ from the ranges.
const (
	OperationReserved      Operation = 0
	OperationRegister      Operation = 1
	OperationNonReplicated Operation = 2
	OperationLogout        Operation = 3

	OperationInternalFirst  Operation = 64
	OperationInternalLast   Operation = 68
	OperationMetadataFirst  Operation = 128
	OperationMetadataLast   Operation = 149
	OperationPartitionFirst Operation = 160
	OperationPartitionLast  Operation = 162
)

// Known reports whether o is a known value: 0..3, 64..68, 128..149 or
// 160..162. A reply may echo 0; a request never carries it.
func (o Operation) IsKnown() bool {
	// A comparison, not a look-up in the name table: the header decoders
	// call it and it must stay inlinable. A test holds the two to the
	// same set.
	return o <= OperationLogout || o.IsInternal() || o.inMetadataRange() || o.IsPartition()
}

// operationNames is the name table of Operation: the lifecycle operations
// by name, the members of the three ranges numbered ("metadata_N" by range,
// not by IsMetadata).
func operationNames() [7]enumName {
	return [...]enumName{
		{0, 0, "Reserved"}, {1, 1, "Register"}, {2, 2, "NonReplicated"}, {3, 3, "Logout"},
		{uint32(OperationInternalFirst), uint32(OperationInternalLast), "internal_"},
		{uint32(OperationMetadataFirst), uint32(OperationMetadataLast), "metadata_"},
		{uint32(OperationPartitionFirst), uint32(OperationPartitionLast), "partition_"},
	}
}

// String names the lifecycle operations, prints range members as
// "internal_N", "metadata_N" or "partition_N", and unknown values as
// "UNKNOWN_OPERATION_N".
func (o Operation) String() string {
	names := operationNames()
	return enumString(names[:], "OPERATION", uint32(o))
}

// Code is a command code (u32). Logins (40, 45) ride OperationRegister,
// logout (39) rides OperationLogout and each replicated client command rides
// its own operation (OperationForCode); none of them travels in the header.
// Every other command travels in a NonReplicated request's header at bytes
// 196..200.
type Code uint32

// Command codes of the connection lifecycle.
const (
	CodePing               Code = 1
	CodeGetClusterMetadata Code = 12
	CodeLoginUser          Code = 38 // legacy, refused with eviction 15
	CodeLogoutUser         Code = 39
	CodeLoginRegister      Code = 40
	CodeLoginPAT           Code = 44 // legacy, refused with eviction 15
	CodeLoginRegisterPAT   Code = 45
	// CodeBindSession is protocol 0.11.1's BIND_SESSION (WIRE.md section
	// 10.3), a NonReplicated request served before and after login.
	CodeBindSession Code = 15
)

// The replicated client commands of WIRE.md section 6: each rides its own
// operation (OperationForCode) and its code never travels in the header.
const (
	CodeCreateUser           Code = 33
	CodeDeleteUser           Code = 34
	CodeUpdateUser           Code = 35
	CodeUpdatePermissions    Code = 36
	CodeChangePassword       Code = 37
	CodeCreatePAT            Code = 42
	CodeDeletePAT            Code = 43
	CodeSendMessages         Code = 101
	CodeStoreConsumerOffset  Code = 121
	CodeDeleteConsumerOffset Code = 122
	CodeCreateStream         Code = 202
	CodeDeleteStream         Code = 203
	CodeUpdateStream         Code = 204
	CodePurgeStream          Code = 205
	CodeCreateTopic          Code = 302
	CodeDeleteTopic          Code = 303
	CodeUpdateTopic          Code = 304
	CodePurgeTopic           Code = 305
	CodeCreatePartitions     Code = 402
	CodeDeletePartitions     Code = 403
	CodeDeleteSegments       Code = 503
	CodeCreateConsumerGroup  Code = 602
	CodeDeleteConsumerGroup  Code = 603
	CodeJoinConsumerGroup    Code = 604
	CodeLeaveConsumerGroup   Code = 605
)

// codeNames is the name table of Code: the lifecycle's codes, then the
// replicated client commands in WIRE.md section 6's order.
func codeNames() [33]enumName {
	return [...]enumName{
		{1, 1, "PING"}, {12, 12, "GET_CLUSTER_METADATA"}, {15, 15, "BIND_SESSION"}, {38, 38, "LOGIN_USER"},
		{39, 39, "LOGOUT_USER"}, {40, 40, "LOGIN_REGISTER"},
		{44, 44, "LOGIN_WITH_PERSONAL_ACCESS_TOKEN"}, {45, 45, "LOGIN_REGISTER_WITH_PAT"},
		{33, 33, "CREATE_USER"}, {34, 34, "DELETE_USER"}, {35, 35, "UPDATE_USER"}, {36, 36, "UPDATE_PERMISSIONS"}, {37, 37, "CHANGE_PASSWORD"}, {42, 42, "CREATE_PERSONAL_ACCESS_TOKEN"}, {43, 43, "DELETE_PERSONAL_ACCESS_TOKEN"}, {101, 101, "SEND_MESSAGES"}, {121, 121, "STORE_CONSUMER_OFFSET"}, {122, 122, "DELETE_CONSUMER_OFFSET"}, {202, 202, "CREATE_STREAM"}, {203, 203, "DELETE_STREAM"}, {204, 204, "UPDATE_STREAM"}, {205, 205, "PURGE_STREAM"}, {302, 302, "CREATE_TOPIC"}, {303, 303, "DELETE_TOPIC"}, {304, 304, "UPDATE_TOPIC"}, {305, 305, "PURGE_TOPIC"}, {402, 402, "CREATE_PARTITIONS"}, {403, 403, "DELETE_PARTITIONS"}, {503, 503, "DELETE_SEGMENTS"}, {602, 602, "CREATE_CONSUMER_GROUP"}, {603, 603, "DELETE_CONSUMER_GROUP"}, {604, 604, "JOIN_CONSUMER_GROUP"}, {605, 605, "LEAVE_CONSUMER_GROUP"},
	}
}

// Known reports whether c is one of the codes named above: the
// lifecycle's own and every replicated client command, so that
// Operation.Code and OperationForCode name the same commands.
func (c Code) IsKnown() bool {
	names := codeNames()
	_, ok := lookupName(names[:], uint32(c))
	return ok
}

// String returns the upper-case name of a known code and "UNKNOWN_CODE_N"
// otherwise (unknown to this package: any u32 is a code some application
// may define).
func (c Code) String() string {
	names := codeNames()
	return enumString(names[:], "CODE", uint32(c))
}

// EvictionReason is byte 255 of an eviction (u8).
type EvictionReason uint8

// Eviction reasons. Reserved (0) is never valid on the wire.
const (
	ReasonReserved EvictionReason = iota
	ReasonNoSession
	ReasonClientReleaseTooLow
	ReasonClientReleaseTooHigh
	ReasonInvalidRequestOperation
	ReasonInvalidRequestBody
	ReasonInvalidRequestBodySize
	ReasonSessionTooLow
	ReasonSessionReleaseMismatch
	ReasonInvalidCredentials
	ReasonInvalidToken
	ReasonUserInactive
	ReasonSessionError
	ReasonStaleClient
	ReasonIncompatibleProtocol
	ReasonMalformedLogin
)

// reasonNames is the name table of EvictionReason: 0..15 by name.
func reasonNames() [16]enumName {
	return [...]enumName{
		{0, 0, "Reserved"}, {1, 1, "NoSession"}, {2, 2, "ClientReleaseTooLow"},
		{3, 3, "ClientReleaseTooHigh"}, {4, 4, "InvalidRequestOperation"},
		{5, 5, "InvalidRequestBody"}, {6, 6, "InvalidRequestBodySize"}, {7, 7, "SessionTooLow"},
		{8, 8, "SessionReleaseMismatch"}, {9, 9, "InvalidCredentials"}, {10, 10, "InvalidToken"},
		{11, 11, "UserInactive"}, {12, 12, "SessionError"}, {13, 13, "StaleClient"},
		{14, 14, "IncompatibleProtocol"}, {15, 15, "MalformedLogin"},
	}
}

// Known reports whether r is a reason that may travel: 1..15 (Reserved has
// a name but may not travel).
func (r EvictionReason) IsKnown() bool {
	// A comparison, not a look-up in the name table: the header decoders
	// call it.
	return r >= ReasonNoSession && r <= ReasonMalformedLogin
}

// String names reasons 0..15 and prints others as "UNKNOWN_REASON_N".
func (r EvictionReason) String() string {
	names := reasonNames()
	return enumString(names[:], "REASON", uint32(r))
}
