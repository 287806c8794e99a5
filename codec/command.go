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

// Operations, every known value by name (WIRE.md section 6). A client sends
// Register, NonReplicated, Logout and the metadata (128..149) and partition
// (160..162) operations; the internal ones (64..68) the server replicates
// on its own. OperationForCode says which command each stands for, and
// IsMetadata why the classes differ from the ranges.
const (
	OperationReserved      Operation = 0
	OperationRegister      Operation = 1
	OperationNonReplicated Operation = 2
	OperationLogout        Operation = 3

	OperationCreateTopicWithAssignments      Operation = 64
	OperationCreatePartitionsWithAssignments Operation = 65
	OperationRemoveConsumerGroupMember       Operation = 66
	OperationCompleteConsumerGroupRevocation Operation = 67
	// OperationTruncatePartition (68) is the internal operation the server
	// replicates for a DeleteSegments request; it may answer DeleteSegments
	// under it.
	OperationTruncatePartition Operation = 68

	OperationCreateStream     Operation = 128
	OperationUpdateStream     Operation = 129
	OperationDeleteStream     Operation = 130
	OperationPurgeStream      Operation = 131
	OperationCreateTopic      Operation = 132
	OperationUpdateTopic      Operation = 133
	OperationDeleteTopic      Operation = 134
	OperationPurgeTopic       Operation = 135
	OperationCreatePartitions Operation = 136
	OperationDeletePartitions Operation = 137
	// OperationDeleteSegments (138) is in the metadata range but is
	// neither a metadata nor a partition operation (see IsMetadata).
	OperationDeleteSegments      Operation = 138
	OperationCreateConsumerGroup Operation = 139
	OperationDeleteConsumerGroup Operation = 140
	OperationCreateUser          Operation = 141
	OperationUpdateUser          Operation = 142
	OperationDeleteUser          Operation = 143
	OperationChangePassword      Operation = 144
	OperationUpdatePermissions   Operation = 145
	OperationCreatePAT           Operation = 146
	OperationDeletePAT           Operation = 147
	OperationJoinConsumerGroup   Operation = 148
	OperationLeaveConsumerGroup  Operation = 149

	OperationSendMessages         Operation = 160
	OperationStoreConsumerOffset  Operation = 161
	OperationDeleteConsumerOffset Operation = 162
)

// The bounds of the three ranges of known operations.
const (
	opInternalFirst  = OperationCreateTopicWithAssignments
	opInternalLast   = OperationTruncatePartition
	opMetadataFirst  = OperationCreateStream
	opMetadataLast   = OperationLeaveConsumerGroup
	opPartitionFirst = OperationSendMessages
	opPartitionLast  = OperationDeleteConsumerOffset
)

// IsKnown reports whether o is a known value: 0..3, 64..68, 128..149 or
// 160..162, every one named above. A reply may echo 0; a request never
// carries it.
func (o Operation) IsKnown() bool {
	// A comparison, not a look-up in the name table: the header decoders
	// call it and it must stay inlinable. A test holds the two to the
	// same set.
	return o <= OperationLogout || o.IsInternal() || o.inMetadataRange() || o.IsPartition()
}

// operationNames is the name table of Operation, in the reference's names.
func operationNames() [34]enumName {
	return [...]enumName{
		{0, 0, "Reserved"}, {1, 1, "Register"}, {2, 2, "NonReplicated"}, {3, 3, "Logout"},
		{64, 64, "CreateTopicWithAssignments"}, {65, 65, "CreatePartitionsWithAssignments"},
		{66, 66, "RemoveConsumerGroupMember"}, {67, 67, "CompleteConsumerGroupRevocation"},
		{68, 68, "TruncatePartition"},
		{128, 128, "CreateStream"}, {129, 129, "UpdateStream"}, {130, 130, "DeleteStream"}, {131, 131, "PurgeStream"},
		{132, 132, "CreateTopic"}, {133, 133, "UpdateTopic"}, {134, 134, "DeleteTopic"}, {135, 135, "PurgeTopic"},
		{136, 136, "CreatePartitions"}, {137, 137, "DeletePartitions"}, {138, 138, "DeleteSegments"},
		{139, 139, "CreateConsumerGroup"}, {140, 140, "DeleteConsumerGroup"}, {141, 141, "CreateUser"},
		{142, 142, "UpdateUser"}, {143, 143, "DeleteUser"}, {144, 144, "ChangePassword"},
		{145, 145, "UpdatePermissions"}, {146, 146, "CreatePersonalAccessToken"},
		{147, 147, "DeletePersonalAccessToken"}, {148, 148, "JoinConsumerGroup"}, {149, 149, "LeaveConsumerGroup"},
		{160, 160, "SendMessages"}, {161, 161, "StoreConsumerOffset"}, {162, 162, "DeleteConsumerOffset"},
	}
}

// String returns the reference's name of a known operation and
// "UNKNOWN_OPERATION_N" otherwise.
func (o Operation) String() string {
	if !o.IsKnown() {
		return "UNKNOWN_OPERATION_" + itoa(uint64(o))
	}
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

// The commands an SDK sends as NonReplicated requests besides the
// lifecycle's own (the reads): their code travels in the header.
const (
	CodeGetStats          Code = 10
	CodeGetSnapshotFile   Code = 11
	CodeDescribeOptions   Code = 13
	CodeGetMe             Code = 20
	CodeGetClient         Code = 21
	CodeGetClients        Code = 22
	CodeGetUser           Code = 31
	CodeGetUsers          Code = 32
	CodeGetPATs           Code = 41
	CodePollMessages      Code = 100
	CodeGetConsumerOffset Code = 120
	CodeGetStream         Code = 200
	CodeGetStreams        Code = 201
	CodeGetTopic          Code = 300
	CodeGetTopics         Code = 301
	CodeGetConsumerGroup  Code = 600
	CodeGetConsumerGroups Code = 601
	CodeSyncConsumerGroup Code = 606
)

// codeNames is the name table of Code: the lifecycle's codes, the
// replicated client commands in WIRE.md section 6's order, then the reads.
func codeNames() [51]enumName {
	return [...]enumName{
		{1, 1, "PING"}, {12, 12, "GET_CLUSTER_METADATA"}, {15, 15, "BIND_SESSION"}, {38, 38, "LOGIN_USER"},
		{39, 39, "LOGOUT_USER"}, {40, 40, "LOGIN_REGISTER"},
		{44, 44, "LOGIN_WITH_PERSONAL_ACCESS_TOKEN"}, {45, 45, "LOGIN_REGISTER_WITH_PAT"},
		{33, 33, "CREATE_USER"}, {34, 34, "DELETE_USER"}, {35, 35, "UPDATE_USER"}, {36, 36, "UPDATE_PERMISSIONS"}, {37, 37, "CHANGE_PASSWORD"}, {42, 42, "CREATE_PERSONAL_ACCESS_TOKEN"}, {43, 43, "DELETE_PERSONAL_ACCESS_TOKEN"}, {101, 101, "SEND_MESSAGES"}, {121, 121, "STORE_CONSUMER_OFFSET"}, {122, 122, "DELETE_CONSUMER_OFFSET"}, {202, 202, "CREATE_STREAM"}, {203, 203, "DELETE_STREAM"}, {204, 204, "UPDATE_STREAM"}, {205, 205, "PURGE_STREAM"}, {302, 302, "CREATE_TOPIC"}, {303, 303, "DELETE_TOPIC"}, {304, 304, "UPDATE_TOPIC"}, {305, 305, "PURGE_TOPIC"}, {402, 402, "CREATE_PARTITIONS"}, {403, 403, "DELETE_PARTITIONS"}, {503, 503, "DELETE_SEGMENTS"}, {602, 602, "CREATE_CONSUMER_GROUP"}, {603, 603, "DELETE_CONSUMER_GROUP"}, {604, 604, "JOIN_CONSUMER_GROUP"}, {605, 605, "LEAVE_CONSUMER_GROUP"},
		{10, 10, "GET_STATS"}, {11, 11, "GET_SNAPSHOT_FILE"}, {13, 13, "DESCRIBE_OPTIONS"}, {20, 20, "GET_ME"},
		{21, 21, "GET_CLIENT"}, {22, 22, "GET_CLIENTS"}, {31, 31, "GET_USER"}, {32, 32, "GET_USERS"},
		{41, 41, "GET_PERSONAL_ACCESS_TOKENS"}, {100, 100, "POLL_MESSAGES"}, {120, 120, "GET_CONSUMER_OFFSET"},
		{200, 200, "GET_STREAM"}, {201, 201, "GET_STREAMS"}, {300, 300, "GET_TOPIC"}, {301, 301, "GET_TOPICS"},
		{600, 600, "GET_CONSUMER_GROUP"}, {601, 601, "GET_CONSUMER_GROUPS"}, {606, 606, "SYNC_CONSUMER_GROUP"},
	}
}

// IsKnown reports whether c is one of the codes named above: the
// lifecycle's own, every replicated client command (so that Operation.Code
// and OperationForCode name the same commands) and the reads an SDK sends.
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
