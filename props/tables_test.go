package props

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/layout"
)

// The tables of WIRE.md sections 5 and 6, restated here rather than asked
// of the codec, and checked for every value a u8 can carry: these checks
// are exhaustive, so they need no generator.

// wireKnownOperation is WIRE.md section 6: 0..3, internal 64..68, metadata
// 128..149, partition 160..162.
func wireKnownOperation(o int) bool {
	return o <= 3 || 64 <= o && o <= 68 || 128 <= o && o <= 149 || 160 <= o && o <= 162
}

// wireOperationName is the name String must give o: the four lifecycle
// operations by name, range members by range and number.
func wireOperationName(o int) string {
	if name, ok := wireOperationNames[o]; ok {
		return name
	}
	return "UNKNOWN_OPERATION_" + strconv.Itoa(o)
}

// wireOperationNames is WIRE.md section 6's operations by the reference's
// names: the lifecycle's, the internal band 64..68, the metadata band
// 128..149 and the partition band 160..162.
var wireOperationNames = map[int]string{
	0: "Reserved", 1: "Register", 2: "NonReplicated", 3: "Logout",
	64: "CreateTopicWithAssignments", 65: "CreatePartitionsWithAssignments", 66: "RemoveConsumerGroupMember",
	67: "CompleteConsumerGroupRevocation", 68: "TruncatePartition",
	128: "CreateStream", 129: "UpdateStream", 130: "DeleteStream", 131: "PurgeStream", 132: "CreateTopic",
	133: "UpdateTopic", 134: "DeleteTopic", 135: "PurgeTopic", 136: "CreatePartitions", 137: "DeletePartitions",
	138: "DeleteSegments", 139: "CreateConsumerGroup", 140: "DeleteConsumerGroup", 141: "CreateUser",
	142: "UpdateUser", 143: "DeleteUser", 144: "ChangePassword", 145: "UpdatePermissions",
	146: "CreatePersonalAccessToken", 147: "DeletePersonalAccessToken", 148: "JoinConsumerGroup",
	149: "LeaveConsumerGroup", 160: "SendMessages", 161: "StoreConsumerOffset", 162: "DeleteConsumerOffset",
}

// wireReasons is WIRE.md section 6's eviction reasons 0..15.
var wireReasons = [...]string{
	"Reserved", "NoSession", "ClientReleaseTooLow", "ClientReleaseTooHigh",
	"InvalidRequestOperation", "InvalidRequestBody", "InvalidRequestBodySize", "SessionTooLow",
	"SessionReleaseMismatch", "InvalidCredentials", "InvalidToken", "UserInactive",
	"SessionError", "StaleClient", "IncompatibleProtocol", "MalformedLogin",
}

// TestCommandTable: commands 0..29 are known (section 5), 30..255 are not,
// and String says which.
func TestCommandTable(t *testing.T) {
	named := map[int]bool{0: true, 5: true, 8: true, 13: true}
	for c := 0; c <= 255; c++ {
		cmd := codec.Command(c)
		assert.Equal(t, c <= 29, cmd.IsKnown(), "Command(%d).IsKnown()", c)
		s := cmd.String()
		switch {
		case c > 29:
			assert.Equal(t, "UNKNOWN_COMMAND_"+strconv.Itoa(c), s)
		case !named[c]:
			assert.Equal(t, "command_"+strconv.Itoa(c), s)
		default:
			assert.False(t, strings.Contains(s, "_"), "Command(%d) has a name, got %q", c, s)
		}
	}
}

// TestOperationTable: Known, IsMetadata, IsPartition and String for every
// operation, and what a request and a reply header say of each: a request
// takes a known operation other than 0, a reply any known one.
func TestOperationTable(t *testing.T) {
	for o := 0; o <= 255; o++ {
		op := codec.Operation(o)
		known := wireKnownOperation(o)
		assert.Equal(t, known, op.IsKnown(), "Operation(%d).IsKnown()", o)
		// WIRE.md section 6: metadata is the internal band 64..68 plus
		// 128..149 except DeleteSegments (138).
		assert.Equal(t, 64 <= o && o <= 68 || 128 <= o && o <= 149 && o != 138, op.IsMetadata(), "Operation(%d).IsMetadata()", o)
		assert.Equal(t, 160 <= o && o <= 162, op.IsPartition(), "Operation(%d).IsPartition()", o)
		assert.Equal(t, wireOperationName(o), op.String(), "Operation(%d).String()", o)

		req := codec.RequestHeader{Size: codec.HeaderSize, Client: codec.Uint128From(7), Operation: op, Session: 1, Request: 1, Code: codec.CodePing}
		if op == codec.OperationRegister {
			req.Session, req.Request = 0, 0
		}
		assert.Equal(t, !known || o == 0, isFieldError(req.Validate(), "operation"), "request operation %d: %v", o, req.Validate())

		rep := codec.ReplyHeader{Size: codec.HeaderSize, Operation: op}
		assert.Equal(t, !known, isFieldError(rep.Validate(), "operation"), "reply operation %d: %v", o, rep.Validate())
	}
}

func isFieldError(err error, field string) bool {
	var ce *codec.Error
	return errors.As(err, &ce) && string(ce.Field) == field
}

// TestEvictionReasonTable: reasons 1..15 travel, 0 and 16..255 do not,
// and String names 0..15 only.
func TestEvictionReasonTable(t *testing.T) {
	for r := 0; r <= 255; r++ {
		reason := codec.EvictionReason(r)
		assert.Equal(t, 1 <= r && r <= 15, reason.IsKnown(), "EvictionReason(%d).IsKnown()", r)
		want := "UNKNOWN_REASON_" + strconv.Itoa(r)
		if r < len(wireReasons) {
			want = wireReasons[r]
		}
		assert.Equal(t, want, reason.String(), "EvictionReason(%d).String()", r)
	}
}

// TestFieldKindTable: the layout's field kinds print their names, and
// every other value of the u8 prints as unknown instead of indexing past
// the table.
func TestFieldKindTable(t *testing.T) {
	names := []string{"", "uint", "command", "operation", "status", "code", "version", "reason", "bytes"}
	for k := 0; k <= 255; k++ {
		want := "UNKNOWN_FIELD_KIND_" + strconv.Itoa(k)
		if 1 <= k && k < len(names) {
			want = names[k]
		}
		assert.Equal(t, want, layout.Kind(k).String(), "FieldKind(%d)", k)
	}
}

// TestCodeTable: the command codes WIRE.md section 6 names (and 12,
// GET_CLUSTER_METADATA, which the lifecycle answers, and 15, BIND_SESSION,
// of protocol 0.11.1) are known, the
// replicated client commands of its table too (every code that rides an
// operation of its own), the codes next to them are not.
func TestCodeTable(t *testing.T) {
	known := map[codec.Code]bool{1: true, 12: true, 15: true, 38: true, 39: true, 40: true, 44: true, 45: true}
	// and the reads an SDK sends, NonReplicated with their code in the header
	for _, c := range []codec.Code{10, 11, 13, 20, 21, 22, 31, 32, 41, 100, 120, 200, 201, 300, 301, 600, 601, 606} {
		known[c] = true
	}
	for c := codec.Code(0); c <= 700; c++ {
		own := codec.OperationForCode(c) != codec.OperationNonReplicated
		assert.Equal(t, known[c] || own, c.IsKnown(), "Code(%d).IsKnown()", c)
		if !known[c] && !own {
			assert.Equal(t, "UNKNOWN_CODE_"+strconv.Itoa(int(c)), c.String())
		}
	}
}

// TestInvalidVersionText: a version with reserved bits prints all eight
// hex digits of its u32.
func TestInvalidVersionText(t *testing.T) {
	for _, v := range []uint32{0xC000_0000, 0xC000_000F, 0xFFFF_FFFF, 0x4000_1234, 0x8ABC_DEF1} {
		ver := codec.Version(v)
		require.False(t, ver.IsValid(), "%#x has reserved bits", v)
		assert.Equal(t, fmt.Sprintf("invalid(0x%08x)", v), ver.String())
	}
}

// TestSecretVerbs: %#v prints the Go syntax redaction, every other verb
// and flag the bare one; no verb shows a byte of the secret.
func TestSecretVerbs(t *testing.T) {
	s := codec.NewSecret([]byte("hunter2"))
	assert.Equal(t, s.GoString(), fmt.Sprintf("%#v", s))
	assert.Equal(t, "codec.Secret([REDACTED])", fmt.Sprintf("%#v", s))
	for _, verb := range []string{"%v", "%+v", "%s", "%q", "%x", "%X", "%#x", "%#q", "%#s", "%d"} {
		got := fmt.Sprintf(verb, s)
		assert.Equal(t, "[REDACTED]", got, verb)
	}
}

// TestTextLengthBoundary: every u8-prefixed text field of every message
// is encoded and read back at exactly 255 bytes (the fast and the exact
// paths alike), and 256 bytes is ErrLength on that field's length prefix.
func TestTextLengthBoundary(t *testing.T) {
	info := codec.ClientVersionInfo{Protocol: codec.MustPack(0, 11, 0), SDKName: []byte("go"), SDKVersion: []byte("1")}
	login := codec.LoginRegister{Info: info, Username: []byte("u"), Password: codec.NewSecret([]byte("p"))}
	pat := codec.LoginRegisterPAT{Info: info, Token: codec.NewSecret([]byte("t"))}
	reply := codec.LoginReply{UserID: 1, Session: 1, ServerProtocol: 1, ServerVersion: []byte("v")}
	for _, text := range []string{"u", "日"} { // ASCII (fast path) and multi-byte (the exact path)
		fill := func(n int) []byte { return bytes.Repeat([]byte(text), n/len(text)+1)[:n] }
		for _, c := range []struct {
			field string
			with  func(b []byte) (message, func([]byte) (any, error))
		}{
			{"sdk_name_len", func(b []byte) (message, func([]byte) (any, error)) {
				v := info
				v.SDKName = b
				return v, func(e []byte) (any, error) { r, err := codec.ParseClientVersionInfo(e); return r.SDKName, err }
			}},
			{"sdk_version_len", func(b []byte) (message, func([]byte) (any, error)) {
				v := info
				v.SDKVersion = b
				return v, func(e []byte) (any, error) { r, err := codec.ParseClientVersionInfo(e); return r.SDKVersion, err }
			}},
			{"username_len", func(b []byte) (message, func([]byte) (any, error)) {
				v := login
				v.Username = b
				return v, func(e []byte) (any, error) { r, err := codec.ParseLoginRegister(e); return r.Username, err }
			}},
			{"password_len", func(b []byte) (message, func([]byte) (any, error)) {
				v := login
				v.Password = codec.NewSecret(b)
				return v, func(e []byte) (any, error) { r, err := codec.ParseLoginRegister(e); return r.Password.Bytes(), err }
			}},
			{"token_len", func(b []byte) (message, func([]byte) (any, error)) {
				v := pat
				v.Token = codec.NewSecret(b)
				return v, func(e []byte) (any, error) { r, err := codec.ParseLoginRegisterPAT(e); return r.Token.Bytes(), err }
			}},
			{"server_version_len", func(b []byte) (message, func([]byte) (any, error)) {
				v := reply
				v.ServerVersion = b
				return v, func(e []byte) (any, error) { r, err := codec.ParseLoginReply(e); return r.ServerVersion, err }
			}},
		} {
			full := fill(255)
			require.True(t, utf8.Valid(full), "the 255-byte text is whole runes")
			v, parse := c.with(full)
			enc, err := v.AppendBinary(nil)
			require.NoError(t, err, "%s at 255 bytes (%q)", c.field, text)
			require.Len(t, enc, v.EncodedLen(), c.field)
			got, err := parse(enc)
			require.NoError(t, err, c.field)
			assert.Equal(t, full, got, "%s at 255 bytes reads back", c.field)

			over, _ := c.with(append(full, 'x'))
			_, err = over.AppendBinary(nil)
			require.ErrorIs(t, err, codec.ErrLength, c.field)
			assert.True(t, isFieldError(err, c.field), "%s at 256 bytes: %v", c.field, err)
		}
	}
}

// TestFrameSizeBoundary: a body that makes a frame of exactly 64 MiB is
// framed with that size; one byte more is refused, never wrapped or
// clamped into range.
func TestFrameSizeBoundary(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 64 MiB")
	}
	h := codec.RequestHeader{Client: codec.Uint128From(7), Operation: codec.OperationNonReplicated, Code: codec.CodePing}
	body := make([]byte, codec.MaxFrameSize-codec.HeaderSize+1)
	_, err := codec.AppendRequestFrame(nil, h, body)
	require.ErrorIs(t, err, codec.ErrSize)

	frame, err := codec.AppendRequestFrame(nil, h, body[:len(body)-1])
	require.NoError(t, err)
	n, err := codec.FrameSize(frame)
	require.NoError(t, err)
	assert.Equal(t, codec.MaxFrameSize, n)
}

// TestTextInvalidUTF8Offset: AppendBinary refuses a text with an invalid byte
// wherever it sits, the first byte included, and names that byte's offset
// (username starts at 10 after protocol, "go" and "1" with their lengths).
func TestTextInvalidUTF8Offset(t *testing.T) {
	info := codec.ClientVersionInfo{Protocol: codec.MustPack(0, 11, 0), SDKName: []byte("go"), SDKVersion: []byte("1")}
	for i := 0; i < 3; i++ {
		name := []byte("abc")
		name[i] = 0xff
		_, err := codec.LoginRegister{Info: info, Username: name, Password: codec.NewSecret([]byte("p"))}.AppendBinary(nil)
		require.ErrorIs(t, err, codec.ErrUTF8, "0xff at %d", i)
		var ce *codec.Error
		require.ErrorAs(t, err, &ce)
		assert.Equal(t, codec.FieldUsername, ce.Field)
		assert.Equal(t, 10+i, ce.Offset, "0xff at %d", i)
	}
}
