package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
)

func TestRegisterFrameShowsFieldsNotThePassword(t *testing.T) {
	frame := requestFrame(t, codec.OperationRegister, loginBody(t, marker))
	r, out := dumpText(t, frame, kindAuto)
	require.True(t, r.OK)
	assert.NotContains(t, out, marker)
	login := section(t, r, "LoginRegister")
	assert.Equal(t, statusOK, login.Status)
	assert.Equal(t, `"iggy"`, value(t, login, "username").Value)
	pw := value(t, login, "password")
	assert.Equal(t, Field{Name: "password", Offset: bytes.Index(frame, []byte(marker)), Size: len(marker),
		Value: "[REDACTED n=24]", secret: true}, pw)
	assert.Equal(t, statusNoMatch, section(t, r, "LoginRegisterPAT").Status)
}

// TestHeaderIsTheCodecTable: the header shows the codec's fields in order,
// and a NonReplicated request's code where its reserved area starts.
func TestHeaderIsTheCodecTable(t *testing.T) {
	for _, op := range []codec.Operation{codec.OperationRegister, codec.OperationNonReplicated} {
		r, _ := dumpText(t, requestFrame(t, op, nil), kindRequest)
		var want, got []string
		for _, f := range codec.HeaderLayout(codec.CommandRequest) {
			if op == codec.OperationNonReplicated && f.Name == "reserved" {
				want = append(want, "code")
			}
			want = append(want, f.Name)
		}
		for _, f := range r.Sections[0].Fields {
			got = append(got, f.Name)
		}
		assert.Equal(t, want, got, "operation %s", op)
	}
	r, _ := dumpText(t, requestFrame(t, codec.OperationNonReplicated, nil), kindRequest)
	assert.Equal(t, Field{Name: "code", Offset: 196, Size: 4, Value: "1 (PING)"}, value(t, r.Sections[0], "code"))
	assert.Equal(t, Field{Name: "reserved", Offset: 200, Size: 56, Value: "zero"}, value(t, r.Sections[0], "reserved"))
}

// TestUndecodedBodyIsOnlyHashed is the leak found in review: a token frame
// with sdk_version_len (body offset 11) changed from 05 to f8.
func TestUndecodedBodyIsOnlyHashed(t *testing.T) {
	frame := requestFrame(t, codec.OperationRegister, patBody(t, marker))
	require.Equal(t, byte(5), frame[256+11])
	frame[256+11] = 0xf8
	r, out := dumpText(t, frame, kindAuto)
	assert.False(t, r.OK)
	assert.NotContains(t, out, marker)
	sum := sha256.Sum256(frame[256:])
	gap := r.Sections[len(r.Sections)-1]
	assert.Equal(t, []Field{{Name: "bytes", Offset: 256, Size: len(frame) - 256,
		Value: "sha256:" + hex.EncodeToString(sum[:8])}}, gap.Fields)
	assert.Contains(t, section(t, r, "LoginRegisterPAT").Error, "sdk_version at offset 268")
}

// TestSecretOfOneShapeRedactsTheOther: a token frame with one more byte
// (zero) decodes as both shapes, and the password shape reads the token as
// its username: shown redacted, because the token shape calls it a secret.
func TestSecretOfOneShapeRedactsTheOther(t *testing.T) {
	body := append(patBody(t, marker)[:len(patBody(t, marker))-3-4], 0, 0, 0, 0, 0)
	frame := requestFrame(t, codec.OperationRegister, body)
	r, out := dumpText(t, frame, kindAuto)
	require.True(t, r.OK)
	assert.NotContains(t, out, marker)
	assert.Equal(t, statusOK, section(t, r, "LoginRegisterPAT").Status)
	assert.Equal(t, "[REDACTED n=24]", value(t, section(t, r, "LoginRegister "), "username").Value)
}

func TestOtherBodiesAndTrailingBytesAreHashed(t *testing.T) {
	frame := requestFrame(t, codec.OperationNonReplicated, []byte(marker))
	_, out := dumpText(t, append(frame, marker...), kindAuto)
	assert.NotContains(t, out, marker)
	assert.Contains(t, out, "   256   48  bytes  sha256:", "body and trailing bytes, one run")

	r, out := dumpText(t, append(requestFrame(t, codec.OperationRegister, loginBody(t, "pw")), marker...), kindAuto)
	assert.NotContains(t, out, marker)
	assert.True(t, r.OK, "bytes after the frame are not an error")
}

func TestReplyAndEviction(t *testing.T) {
	r, _ := dumpText(t, replyFrame(t), kindAuto)
	require.True(t, r.OK)
	assert.Equal(t, "0", value(t, section(t, r, "result section"), "result_count").Value)
	assert.Equal(t, `"0.6.0"`, value(t, section(t, r, "LoginReply"), "server_version").Value)

	r, _ = dumpText(t, eviction14(t), kindAuto)
	require.True(t, r.OK)
	assert.Equal(t, "14 (IncompatibleProtocol)", value(t, r.Sections[0], "reason").Value)
	assert.Equal(t, "0.10.0 (0x00002800)", value(t, r.Sections[0], "server_protocol_version_min").Value)
}

func TestWrongCommandAndSize(t *testing.T) {
	frame := requestFrame(t, codec.OperationRegister, loginBody(t, marker))
	r, out := dumpText(t, frame, kindReply)
	assert.False(t, r.OK)
	assert.Contains(t, out, "command is 5 (Request), not Reply: body not decoded")
	assert.NotContains(t, out, marker)

	r, out = dumpText(t, withSize(frame, 1<<30), kindAuto)
	assert.Contains(t, out, "the size field cannot be used")
	assert.NotContains(t, out, marker)
	assert.False(t, r.OK)

	r, out = dumpText(t, frame[:len(frame)-5], kindAuto)
	assert.Contains(t, section(t, r, "frame").Error, "truncated")
	assert.NotContains(t, out, marker)

	frame[60] = 48
	r, _ = dumpText(t, frame, kindAuto)
	assert.Equal(t, []Field{{Name: "command", Offset: 60, Size: 1, Value: "48 (UNKNOWN_COMMAND_48)"}}, r.Sections[0].Fields)
}

func TestShortInputTriesEveryBodyKind(t *testing.T) {
	r, out := dumpText(t, loginBody(t, marker), kindAuto)
	require.True(t, r.OK)
	assert.NotContains(t, out, marker)
	assert.Equal(t, statusOK, section(t, r, "ClientVersionInfo").Status)
	assert.Equal(t, statusOK, section(t, r, "LoginRegister ").Status)
	assert.Equal(t, statusNoMatch, section(t, r, "version text").Status)

	r, _ = dumpText(t, []byte{1, 2}, kindAuto)
	assert.False(t, r.OK)
	assert.Equal(t, statusFailed, section(t, r, "LoginReply").Status)
}

func TestVersionShowsOnlyTheVersion(t *testing.T) {
	r, out := dumpText(t, []byte("0.11.0-"+marker), kindVersion)
	require.True(t, r.OK)
	assert.NotContains(t, out, marker)
	assert.Equal(t, Field{Name: "version", Size: 6, Value: "0.11.0 (0x00002c00)"}, r.Sections[0].Fields[0])
	assert.Equal(t, 6, r.Sections[1].Fields[0].Offset)
}

func TestConnCutsFrames(t *testing.T) {
	frame := requestFrame(t, codec.OperationRegister, loginBody(t, marker))
	src := append([]byte{0, byte(len(frame)), byte(len(frame) >> 8)}, frame...)
	src = append(src, 1, 2, 0, 9, 9)
	r, out := dumpText(t, src, kindConn)
	assert.NotContains(t, out, marker)
	assert.Contains(t, out, "== frame at input offset 3 (flags 0x00, 310 bytes; offsets below count from it)\n")
	assert.Contains(t, out, "== frame at input offset 316 (flags 0x01, 2 bytes")
	assert.Equal(t, statusOK, section(t, r, "LoginRegister").Status)
	assert.False(t, r.OK, "the 2-byte frame is truncated")
}

func TestUnknownKind(t *testing.T) {
	_, err := Dump(nil, "nope")
	assert.ErrorIs(t, err, errUnknownKind)
}

// TestEveryByteIsAccounted: for any prefix of a frame and any kind, every
// input byte is in a field: shown, redacted or hashed.
func TestEveryByteIsAccounted(t *testing.T) {
	frame := requestFrame(t, codec.OperationRegister, loginBody(t, marker))
	for n := 0; n <= len(frame); n += 7 {
		for _, kind := range kinds() {
			if kind == kindConn {
				continue
			}
			r, out := dumpText(t, frame[:n], kind)
			covered := make([]bool, n)
			for _, s := range r.Sections {
				for _, f := range s.Fields {
					for i := f.Offset; i < f.Offset+f.Size; i++ {
						covered[i] = true
					}
				}
			}
			require.NotContains(t, covered, false, "%s of %d bytes:\n%s", kind, n, out)
			require.False(t, strings.Contains(out, marker[:8]), "%s of %d bytes", kind, n)
		}
	}
}
