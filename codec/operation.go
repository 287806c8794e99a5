package codec

// Operations the classes of WIRE.md section 6 single out by name.
const (
	// OperationTruncatePartition (68) is the internal operation the server
	// replicates for a DeleteSegments request; it may answer DeleteSegments
	// under it.
	OperationTruncatePartition Operation = 68
	// OperationDeleteSegments (138) is in the metadata range but is
	// neither a metadata nor a partition operation (see IsMetadata).
	OperationDeleteSegments Operation = 138
)

// codeOperation is one row of WIRE.md section 6's table of replicated
// client commands.
type codeOperation struct {
	code Code
	op   Operation
}

// replicatedTable returns WIRE.md section 6's table: every replicated
// client command code and the operation it rides, in the order of the
// spec. The table is a value built on each call so that no package state
// exists to be changed; the compiler keeps it off the heap.
func replicatedTable() [25]codeOperation {
	return [...]codeOperation{
		{33, 141}, {34, 143}, {35, 142}, {36, 145}, {37, 144}, // users
		{42, 146}, {43, 147}, // personal access tokens
		{101, 160}, {121, 161}, {122, 162}, // partition: messages, consumer offsets
		{202, 128}, {203, 130}, {204, 129}, {205, 131}, // streams
		{302, 132}, {303, 134}, {304, 133}, {305, 135}, // topics
		{402, 136}, {403, 137}, // partitions
		{503, 138},                                     // DeleteSegments
		{602, 139}, {603, 140}, {604, 148}, {605, 149}, // consumer groups
	}
}

// OperationForCode returns the operation a request for code rides (WIRE.md
// section 6): Register for the logins 40 and 45, Logout for 39, the
// command's own operation for every replicated client command, and
// NonReplicated for every other code (ping, the reads, the legacy logins 38
// and 44, codes an SDK build does not know, and 0, which names no command).
// Only NonReplicated requests carry their code in the header.
func OperationForCode(code Code) Operation {
	switch code {
	case CodeLoginRegister, CodeLoginRegisterPAT:
		return OperationRegister
	case CodeLogoutUser:
		return OperationLogout
	}
	for _, row := range replicatedTable() {
		if row.code == code {
			return row.op
		}
	}
	return OperationNonReplicated
}

// Code returns the command code a request riding o stands for, when exactly
// one exists: 39 for Logout and the table's code for each replicated client
// command (128..149, 160..162). Register (two codes, 40 and 45),
// NonReplicated (the code travels in the header), Reserved, the internal
// operations and unknown values report false.
func (o Operation) Code() (Code, bool) {
	if o == OperationLogout {
		return CodeLogoutUser, true
	}
	for _, row := range replicatedTable() {
		if row.op == o {
			return row.code, true
		}
	}
	return 0, false
}

// IsInternal reports whether o is an internal operation, 64..68: the server
// replicates them on its own and a client never sends one.
func (o Operation) IsInternal() bool {
	return OperationInternalFirst <= o && o <= OperationInternalLast
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
	return OperationPartitionFirst <= o && o <= OperationPartitionLast
}

// inMetadataRange reports whether o is in 128..149, the range of the
// operations of the replicated metadata commands (DeleteSegments included).
func (o Operation) inMetadataRange() bool {
	return OperationMetadataFirst <= o && o <= OperationMetadataLast
}
