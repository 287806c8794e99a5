package codec_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
)

// wireRow is one row of WIRE.md section 6's table of replicated client
// commands.
type wireRow struct {
	code codec.Code
	name string
	op   codec.Operation
}

// wireTable is WIRE.md section 6's table written out independently of the
// codec, row for row as the spec prints it (left column, then right).
func wireTable() []wireRow {
	return []wireRow{
		{33, "CreateUser", 141}, {34, "DeleteUser", 143}, {35, "UpdateUser", 142},
		{36, "UpdatePermissions", 145}, {37, "ChangePassword", 144},
		{42, "CreatePersonalAccessToken", 146}, {43, "DeletePersonalAccessToken", 147},
		{101, "SendMessages", 160}, {121, "StoreConsumerOffset", 161}, {122, "DeleteConsumerOffset", 162},
		{202, "CreateStream", 128}, {203, "DeleteStream", 130}, {204, "UpdateStream", 129}, {205, "PurgeStream", 131},
		{302, "CreateTopic", 132}, {303, "DeleteTopic", 134}, {304, "UpdateTopic", 133}, {305, "PurgeTopic", 135},
		{402, "CreatePartitions", 136}, {403, "DeletePartitions", 137}, {503, "DeleteSegments", 138},
		{602, "CreateConsumerGroup", 139}, {603, "DeleteConsumerGroup", 140},
		{604, "JoinConsumerGroup", 148}, {605, "LeaveConsumerGroup", 149},
	}
}

// TestOperationForCodeTable walks the table one way: each code rides its
// operation, and the operation gives back its code.
func TestOperationForCodeTable(t *testing.T) {
	rows := wireTable()
	require.Len(t, rows, 25)
	for _, r := range rows {
		assert.Equal(t, r.op, codec.OperationForCode(r.code), "%s (%d)", r.name, r.code)
		code, ok := r.op.Code()
		assert.True(t, ok, "%s: operation %d has a code", r.name, r.op)
		assert.Equal(t, r.code, code, "%s: operation %d", r.name, r.op)
		assert.True(t, r.op.Known(), "%s: operation %d is known", r.name, r.op)
	}
	assert.Equal(t, codec.OperationRegister, codec.OperationForCode(codec.CodeLoginRegister))
	assert.Equal(t, codec.OperationRegister, codec.OperationForCode(codec.CodeLoginRegisterWithPAT))
	assert.Equal(t, codec.OperationLogout, codec.OperationForCode(codec.CodeLogoutUser))
	code, ok := codec.OperationLogout.Code()
	assert.True(t, ok)
	assert.Equal(t, codec.CodeLogoutUser, code)
}

// TestOperationForCodeEveryCode walks every code up to 70000 and the u32
// edges: the table's codes, 39, 40 and 45 ride their operations, every
// other one (0, ping, reads, the legacy logins, unknown codes) rides
// NonReplicated.
func TestOperationForCodeEveryCode(t *testing.T) {
	want := map[codec.Code]codec.Operation{39: codec.OperationLogout, 40: codec.OperationRegister, 45: codec.OperationRegister}
	for _, r := range wireTable() {
		want[r.code] = r.op
	}
	codes := []codec.Code{1<<32 - 1, 1<<32 - 2, 1<<16 + 202, 1<<24 + 503, 1<<32 - 1<<16 + 33}
	for c := range codec.Code(70000) {
		codes = append(codes, c)
	}
	for _, c := range codes {
		op, replicated := want[c]
		if !replicated {
			op = codec.OperationNonReplicated
		}
		if got := codec.OperationForCode(c); got != op {
			t.Fatalf("OperationForCode(%d) = %v, want %v", c, got, op)
		}
	}
	for _, c := range []codec.Code{0, 1, 10, 12, 20, 31, 38, 44, 100, 120, 200, 201, 300, 600} {
		assert.Equal(t, codec.OperationNonReplicated, codec.OperationForCode(c), "code %d (WIRE.md section 6 names it)", c)
	}
}

// TestOperationCodeEveryOperation walks every operation the other way: Code
// reports exactly the table's operations and Logout, and OperationForCode
// of the code it gives is the operation again.
func TestOperationCodeEveryOperation(t *testing.T) {
	want := map[codec.Operation]codec.Code{codec.OperationLogout: codec.CodeLogoutUser}
	for _, r := range wireTable() {
		_, dup := want[r.op]
		require.False(t, dup, "operation %d appears twice in the table", r.op)
		want[r.op] = r.code
	}
	for o := range 256 {
		op := codec.Operation(o)
		code, ok := op.Code()
		wantCode, wantOK := want[op]
		require.Equal(t, wantOK, ok, "Operation(%d).Code ok", o)
		require.Equal(t, wantCode, code, "Operation(%d).Code", o)
		if ok {
			require.Equal(t, op, codec.OperationForCode(code), "round trip of operation %d", o)
		}
	}
	_, ok := codec.OperationRegister.Code()
	assert.False(t, ok, "Register stands for two codes, 40 and 45")
}

// TestOperationClasses checks IsInternal, IsMetadata and IsPartition on
// every value against WIRE.md section 6: internal 64..68; metadata =
// internal plus 128..149 except 138; partition 160..162; DeleteSegments
// (138) is neither.
func TestOperationClasses(t *testing.T) {
	for o := range 256 {
		op := codec.Operation(o)
		internal := 64 <= o && o <= 68
		metadata := internal || 128 <= o && o <= 149 && o != 138
		partition := 160 <= o && o <= 162
		name := fmt.Sprintf("Operation(%d)", o)
		require.Equal(t, internal, op.IsInternal(), name+".IsInternal")
		require.Equal(t, metadata, op.IsMetadata(), name+".IsMetadata")
		require.Equal(t, partition, op.IsPartition(), name+".IsPartition")
	}
	assert.Equal(t, codec.Operation(138), codec.OperationDeleteSegments)
	assert.Equal(t, codec.Operation(68), codec.OperationTruncatePartition)
	assert.Equal(t, codec.OperationDeleteSegments, codec.OperationForCode(503))
	assert.False(t, codec.OperationDeleteSegments.IsMetadata() || codec.OperationDeleteSegments.IsPartition())
}
