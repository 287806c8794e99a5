package codec_test

import (
	"fmt"
	"strings"
	"testing"

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
	if len(rows) != 25 {
		t.Fatalf("the table has %d rows, want 25", len(rows))
	}
	for _, r := range rows {
		if got := codec.OperationForCode(r.code); got != r.op {
			t.Errorf("%s (%d): OperationForCode = %d, want %d", r.name, r.code, got, r.op)
		}
		code, ok := r.op.Code()
		if !ok {
			t.Errorf("%s: operation %d has a code: Code() ok = false", r.name, r.op)
		}
		if code != r.code {
			t.Errorf("%s: operation %d: Code() = %d, want %d", r.name, r.op, code, r.code)
		}
		if !r.op.IsKnown() {
			t.Errorf("%s: operation %d is known: Known() = false", r.name, r.op)
		}
	}
	for _, c := range []struct {
		code codec.Code
		want codec.Operation
	}{
		{codec.CodeLoginRegister, codec.OperationRegister},
		{codec.CodeLoginRegisterPAT, codec.OperationRegister},
		{codec.CodeLogoutUser, codec.OperationLogout},
	} {
		if got := codec.OperationForCode(c.code); got != c.want {
			t.Errorf("OperationForCode(%d) = %d, want %d", c.code, got, c.want)
		}
	}
	code, ok := codec.OperationLogout.Code()
	if !ok {
		t.Errorf("OperationLogout.Code() ok = false, want true")
	}
	if code != codec.CodeLogoutUser {
		t.Errorf("OperationLogout.Code() = %d, want %d", code, codec.CodeLogoutUser)
	}
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
		if got := codec.OperationForCode(c); got != codec.OperationNonReplicated {
			t.Errorf("code %d (WIRE.md section 6 names it): OperationForCode = %d, want %d", c, got, codec.OperationNonReplicated)
		}
	}
}

// TestOperationCodeEveryOperation walks every operation the other way: Code
// reports exactly the table's operations and Logout, and OperationForCode
// of the code it gives is the operation again.
func TestOperationCodeEveryOperation(t *testing.T) {
	want := map[codec.Operation]codec.Code{codec.OperationLogout: codec.CodeLogoutUser}
	for _, r := range wireTable() {
		if _, dup := want[r.op]; dup {
			t.Fatalf("operation %d appears twice in the table", r.op)
		}
		want[r.op] = r.code
	}
	for o := range 256 {
		op := codec.Operation(o)
		code, ok := op.Code()
		wantCode, wantOK := want[op]
		if ok != wantOK {
			t.Fatalf("Operation(%d).Code() ok = %v, want %v", o, ok, wantOK)
		}
		if code != wantCode {
			t.Fatalf("Operation(%d).Code() = %d, want %d", o, code, wantCode)
		}
		if ok {
			if got := codec.OperationForCode(code); got != op {
				t.Fatalf("round trip of operation %d: OperationForCode(%d) = %d", o, code, got)
			}
		}
	}
	if _, ok := codec.OperationRegister.Code(); ok {
		t.Errorf("Register stands for two codes, 40 and 45: OperationRegister.Code() ok = true, want false")
	}
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
		if got := op.IsInternal(); got != internal {
			t.Fatalf("%s.IsInternal() = %v, want %v", name, got, internal)
		}
		if got := op.IsMetadata(); got != metadata {
			t.Fatalf("%s.IsMetadata() = %v, want %v", name, got, metadata)
		}
		if got := op.IsPartition(); got != partition {
			t.Fatalf("%s.IsPartition() = %v, want %v", name, got, partition)
		}
	}
	if codec.OperationDeleteSegments != codec.Operation(138) {
		t.Errorf("OperationDeleteSegments = %d, want 138", codec.OperationDeleteSegments)
	}
	if codec.OperationTruncatePartition != codec.Operation(68) {
		t.Errorf("OperationTruncatePartition = %d, want 68", codec.OperationTruncatePartition)
	}
	if got := codec.OperationForCode(503); got != codec.OperationDeleteSegments {
		t.Errorf("OperationForCode(503) = %d, want OperationDeleteSegments (%d)", got, codec.OperationDeleteSegments)
	}
	if codec.OperationDeleteSegments.IsMetadata() || codec.OperationDeleteSegments.IsPartition() {
		t.Errorf("OperationDeleteSegments: IsMetadata() = %v, IsPartition() = %v, want neither",
			codec.OperationDeleteSegments.IsMetadata(), codec.OperationDeleteSegments.IsPartition())
	}
}

// TestOperationNamesEveryKnownValue: every known operation has a name of
// its own (none prints as a number), and IsResultFramed is the metadata
// operations and the two consumer-offset ones, as the SDKs read replies.
func TestOperationNamesEveryKnownValue(t *testing.T) {
	framed := 0
	for o := range 256 {
		op := codec.Operation(o)
		name := op.String()
		if op.IsKnown() == strings.HasPrefix(name, "UNKNOWN_") || strings.ContainsAny(name, "0123456789_") && op.IsKnown() {
			t.Fatalf("Operation(%d) prints as %q (known %t)", o, name, op.IsKnown())
		}
		if op.IsResultFramed() {
			framed++
			if !op.IsMetadata() && op != codec.OperationStoreConsumerOffset && op != codec.OperationDeleteConsumerOffset {
				t.Fatalf("%v is result-framed", op)
			}
		}
	}
	// 5 internal + 21 metadata (138 is not) + 2 consumer offsets.
	if framed != 28 {
		t.Fatalf("%d result-framed operations, want 28", framed)
	}
	for _, op := range []codec.Operation{codec.OperationSendMessages, codec.OperationDeleteSegments, codec.OperationNonReplicated, codec.OperationLogout, codec.OperationRegister} {
		if op.IsResultFramed() {
			t.Fatalf("%v is not result-framed", op)
		}
	}
}

// TestOperationIsReplicated holds IsReplicated to WIRE.md section 7
// (points 5 and 9): every known operation but Reserved, Register and
// NonReplicated; so Logout, the internal operations and DeleteSegments,
// which IsMetadata() || IsPartition() leaves out, are replicated. Every
// command of the section 6 table rides a replicated operation.
func TestOperationIsReplicated(t *testing.T) {
	for o := range 256 {
		op := codec.Operation(o)
		want := o == 3 || 64 <= o && o <= 68 || 128 <= o && o <= 149 || 160 <= o && o <= 162
		if got := op.IsReplicated(); got != want {
			t.Fatalf("Operation(%d).IsReplicated() = %v, want %v", o, got, want)
		}
		if op.IsReplicated() && !op.IsKnown() {
			t.Fatalf("Operation(%d) is replicated but not known", o)
		}
	}
	for _, r := range wireTable() {
		if !r.op.IsReplicated() {
			t.Errorf("%s (%d) rides %d, which IsReplicated says is not replicated", r.name, r.code, r.op)
		}
	}
	for _, op := range []codec.Operation{codec.OperationDeleteSegments, codec.OperationLogout} {
		if !op.IsReplicated() || op.IsMetadata() || op.IsPartition() {
			t.Errorf("%v: IsReplicated %v, IsMetadata %v, IsPartition %v; want replicated and neither class",
				op, op.IsReplicated(), op.IsMetadata(), op.IsPartition())
		}
	}
	for _, code := range []codec.Code{codec.CodePing, codec.CodeLoginRegister, codec.CodeLoginRegisterPAT, 12, 0} {
		if codec.OperationForCode(code).IsReplicated() {
			t.Errorf("code %d rides %v, which is not replicated", code, codec.OperationForCode(code))
		}
	}
}

// TestOperations: Operations lists exactly the known values, in ascending
// order, once each, and hands out a fresh slice each call.
func TestOperations(t *testing.T) {
	ops := codec.Operations()
	var want []codec.Operation
	for o := range 256 {
		if codec.Operation(o).IsKnown() {
			want = append(want, codec.Operation(o))
		}
	}
	if len(ops) != len(want) || len(ops) != 34 {
		t.Fatalf("Operations() has %d values, want %d known (34)", len(ops), len(want))
	}
	for i := range ops {
		if ops[i] != want[i] {
			t.Fatalf("Operations()[%d] = %d, want %d", i, ops[i], want[i])
		}
	}
	ops[0] = 99
	if again := codec.Operations(); again[0] != codec.OperationReserved {
		t.Fatalf("Operations() shares its slice: a caller's write shows as %d", again[0])
	}
}
