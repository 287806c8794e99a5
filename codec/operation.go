package codec

// OperationForCode returns the operation a request for code rides (WIRE.md
// section 6): Register for the logins 40 and 45, Logout for 39, the
// command's own operation for every replicated client command, and
// NonReplicated for every other code (ping, the reads, the legacy logins 38
// and 44, codes an SDK build does not know, and 0, which names no command).
// Only NonReplicated requests carry their code in the header. It is one
// switch, which the compiler makes a binary search or a jump table: no
// table is built or scanned per call.
func OperationForCode(code Code) Operation {
	switch code {
	case CodeLoginRegister, CodeLoginRegisterPAT:
		return OperationRegister
	case CodeLogoutUser:
		return OperationLogout
	case CodeCreateUser:
		return OperationCreateUser
	case CodeDeleteUser:
		return OperationDeleteUser
	case CodeUpdateUser:
		return OperationUpdateUser
	case CodeUpdatePermissions:
		return OperationUpdatePermissions
	case CodeChangePassword:
		return OperationChangePassword
	case CodeCreatePAT:
		return OperationCreatePAT
	case CodeDeletePAT:
		return OperationDeletePAT
	case CodeSendMessages:
		return OperationSendMessages
	case CodeStoreConsumerOffset:
		return OperationStoreConsumerOffset
	case CodeDeleteConsumerOffset:
		return OperationDeleteConsumerOffset
	case CodeCreateStream:
		return OperationCreateStream
	case CodeDeleteStream:
		return OperationDeleteStream
	case CodeUpdateStream:
		return OperationUpdateStream
	case CodePurgeStream:
		return OperationPurgeStream
	case CodeCreateTopic:
		return OperationCreateTopic
	case CodeDeleteTopic:
		return OperationDeleteTopic
	case CodeUpdateTopic:
		return OperationUpdateTopic
	case CodePurgeTopic:
		return OperationPurgeTopic
	case CodeCreatePartitions:
		return OperationCreatePartitions
	case CodeDeletePartitions:
		return OperationDeletePartitions
	case CodeDeleteSegments:
		return OperationDeleteSegments
	case CodeCreateConsumerGroup:
		return OperationCreateConsumerGroup
	case CodeDeleteConsumerGroup:
		return OperationDeleteConsumerGroup
	case CodeJoinConsumerGroup:
		return OperationJoinConsumerGroup
	case CodeLeaveConsumerGroup:
		return OperationLeaveConsumerGroup
	}
	return OperationNonReplicated
}

// Code returns the command code a request riding o stands for, when exactly
// one exists: 39 for Logout and the command's code for each replicated
// client command (128..149, 160..162). Register (two codes, 40 and 45),
// NonReplicated (the code travels in the header), Reserved, the internal
// operations and unknown values report false.
func (o Operation) Code() (Code, bool) {
	switch o {
	case OperationLogout:
		return CodeLogoutUser, true
	case OperationCreateUser:
		return CodeCreateUser, true
	case OperationDeleteUser:
		return CodeDeleteUser, true
	case OperationUpdateUser:
		return CodeUpdateUser, true
	case OperationUpdatePermissions:
		return CodeUpdatePermissions, true
	case OperationChangePassword:
		return CodeChangePassword, true
	case OperationCreatePAT:
		return CodeCreatePAT, true
	case OperationDeletePAT:
		return CodeDeletePAT, true
	case OperationSendMessages:
		return CodeSendMessages, true
	case OperationStoreConsumerOffset:
		return CodeStoreConsumerOffset, true
	case OperationDeleteConsumerOffset:
		return CodeDeleteConsumerOffset, true
	case OperationCreateStream:
		return CodeCreateStream, true
	case OperationDeleteStream:
		return CodeDeleteStream, true
	case OperationUpdateStream:
		return CodeUpdateStream, true
	case OperationPurgeStream:
		return CodePurgeStream, true
	case OperationCreateTopic:
		return CodeCreateTopic, true
	case OperationDeleteTopic:
		return CodeDeleteTopic, true
	case OperationUpdateTopic:
		return CodeUpdateTopic, true
	case OperationPurgeTopic:
		return CodePurgeTopic, true
	case OperationCreatePartitions:
		return CodeCreatePartitions, true
	case OperationDeletePartitions:
		return CodeDeletePartitions, true
	case OperationDeleteSegments:
		return CodeDeleteSegments, true
	case OperationCreateConsumerGroup:
		return CodeCreateConsumerGroup, true
	case OperationDeleteConsumerGroup:
		return CodeDeleteConsumerGroup, true
	case OperationJoinConsumerGroup:
		return CodeJoinConsumerGroup, true
	case OperationLeaveConsumerGroup:
		return CodeLeaveConsumerGroup, true
	}
	return 0, false
}

// IsResultFramed reports whether the body of a committed (status 0) reply
// to o starts with a result section (WIRE.md section 4), which SplitResult
// reads: every metadata operation (IsMetadata), and on the partition plane
// the two consumer-offset operations, which refuse with typed errors at
// admission. SendMessages and DeleteSegments are not framed, nor are
// NonReplicated and Logout replies. Register is framed when its body is not
// empty (a successful login: an empty section, then the login reply); a
// terminal Register failure carries no body, so a reader of a Register
// reply checks the length first.
func (o Operation) IsResultFramed() bool {
	return o.IsMetadata() || o == OperationStoreConsumerOffset || o == OperationDeleteConsumerOffset
}

// IsInternal reports whether o is an internal operation, 64..68: the server
// replicates them on its own and a client never sends one.
func (o Operation) IsInternal() bool {
	return opInternalFirst <= o && o <= opInternalLast
}

// IsMetadata reports whether o is a metadata operation as the reference
// defines it (WIRE.md section 6): the internal operations 64..68 and
// 128..149 except DeleteSegments (138), which the server resolves to an
// offset and replicates as TruncatePartition (68) instead. Note that 138
// still consumes a request number like the metadata operations do.
func (o Operation) IsMetadata() bool {
	return o.IsInternal() || o.inMetadataRange() && o != OperationDeleteSegments
}

// IsPartition reports whether o is in the partition range 160..162. A
// request for a partition operation carries the request number without
// consuming it.
func (o Operation) IsPartition() bool {
	return opPartitionFirst <= o && o <= opPartitionLast
}

// inMetadataRange reports whether o is in 128..149, the range of the
// operations of the replicated metadata commands (DeleteSegments included).
func (o Operation) inMetadataRange() bool {
	return opMetadataFirst <= o && o <= opMetadataLast
}

// IsReplicated reports whether a request on o is a replicated one in the
// sense of WIRE.md section 7 (points 5, 7 and 9): every known operation
// but Reserved, Register and NonReplicated, that is Logout, the internal
// operations 64..68, 128..149 (DeleteSegments included) and the partition
// operations 160..162. A replicated request needs a bound session and is
// fenced by it; before login it is answered with Eviction 1. It is not
// IsMetadata() || IsPartition(), which leaves out DeleteSegments (138)
// and Logout.
func (o Operation) IsReplicated() bool {
	return o == OperationLogout || o.IsInternal() || o.inMetadataRange() || o.IsPartition()
}

// Operations returns every known operation (IsKnown), Reserved included,
// in ascending order: 34 values. The slice is the caller's own, built anew
// on each call, so that a caller may sort or trim it; an SDK builds its
// tables from it once instead of scanning 0..255.
func Operations() []Operation {
	names := operationNames()
	ops := make([]Operation, len(names))
	for i, n := range names {
		ops[i] = Operation(n.first)
	}
	return ops
}
