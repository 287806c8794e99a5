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
func (c Command) Known() bool { return c <= commandKnownMax }

// String names the client-facing kinds, prints other known values as
// "command_N" and unknown ones as "UNKNOWN_COMMAND_N".
func (c Command) String() string {
	switch c {
	case CommandReserved:
		return "Reserved"
	case CommandRequest:
		return "Request"
	case CommandReply:
		return "Reply"
	case CommandEviction:
		return "Eviction"
	}
	if c.Known() {
		return "command_" + itoa(uint64(c))
	}
	return "UNKNOWN_COMMAND_" + itoa(uint64(c))
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
func (o Operation) Known() bool {
	return o <= OperationLogout || o.IsInternal() || o.inMetadataRange() || o.IsPartition()
}

// String names the lifecycle operations, prints range members as
// "internal_N", "metadata_N" (128..149, by range, not by IsMetadata) or
// "partition_N", and unknown values as "UNKNOWN_OPERATION_N".
func (o Operation) String() string {
	switch {
	case o == OperationReserved:
		return "Reserved"
	case o == OperationRegister:
		return "Register"
	case o == OperationNonReplicated:
		return "NonReplicated"
	case o == OperationLogout:
		return "Logout"
	case o.IsInternal():
		return "internal_" + itoa(uint64(o))
	case o.inMetadataRange():
		return "metadata_" + itoa(uint64(o))
	case o.IsPartition():
		return "partition_" + itoa(uint64(o))
	}
	return "UNKNOWN_OPERATION_" + itoa(uint64(o))
}

// Code is a command code (u32). Logins (40, 45) ride OperationRegister,
// logout (39) rides OperationLogout and each replicated client command rides
// its own operation (OperationForCode); none of them travels in the header.
// Every other command travels in a NonReplicated request's header at bytes
// 196..200.
type Code uint32

// Command codes of the connection lifecycle.
const (
	CodePing                 Code = 1
	CodeGetClusterMetadata   Code = 12
	CodeLoginUser            Code = 38 // legacy, refused with eviction 15
	CodeLogoutUser           Code = 39
	CodeLoginRegister        Code = 40
	CodeLoginWithPAT         Code = 44 // legacy, refused with eviction 15
	CodeLoginRegisterWithPAT Code = 45
)

// Known reports whether c is one of the codes named above.
func (c Code) Known() bool {
	switch c {
	case CodePing, CodeGetClusterMetadata, CodeLoginUser, CodeLogoutUser,
		CodeLoginRegister, CodeLoginWithPAT, CodeLoginRegisterWithPAT:
		return true
	}
	return false
}

// String returns the upper-case name of a known code and "CODE_N" otherwise
// (any u32 is a code some application may define).
func (c Code) String() string {
	switch c {
	case CodePing:
		return "PING"
	case CodeGetClusterMetadata:
		return "GET_CLUSTER_METADATA"
	case CodeLoginUser:
		return "LOGIN_USER"
	case CodeLogoutUser:
		return "LOGOUT_USER"
	case CodeLoginRegister:
		return "LOGIN_REGISTER"
	case CodeLoginWithPAT:
		return "LOGIN_WITH_PERSONAL_ACCESS_TOKEN"
	case CodeLoginRegisterWithPAT:
		return "LOGIN_REGISTER_WITH_PAT"
	}
	return "CODE_" + itoa(uint64(c))
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

// reasonName returns the name of a reason 0..15 and "" for any other. The
// table is local so that no package state exists to be changed.
func reasonName(r EvictionReason) string {
	names := [...]string{
		"Reserved", "NoSession", "ClientReleaseTooLow", "ClientReleaseTooHigh",
		"InvalidRequestOperation", "InvalidRequestBody", "InvalidRequestBodySize", "SessionTooLow",
		"SessionReleaseMismatch", "InvalidCredentials", "InvalidToken", "UserInactive",
		"SessionError", "StaleClient", "IncompatibleProtocol", "MalformedLogin",
	}
	if int(r) >= len(names) {
		return ""
	}
	return names[r]
}

// Known reports whether r is a reason that may travel: 1..15.
func (r EvictionReason) Known() bool { return r >= ReasonNoSession && r <= ReasonMalformedLogin }

// String names reasons 0..15 and prints others as "UNKNOWN_REASON_N".
func (r EvictionReason) String() string {
	if name := reasonName(r); name != "" {
		return name
	}
	return "UNKNOWN_REASON_" + itoa(uint64(r))
}
