package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
	hdrlayout "github.com/iggywire/iggywire/internal/layout"
)

func TestRegisterFrameShowsFieldsNotThePassword(t *testing.T) {
	frame := requestFrame(t, codec.OperationRegister, loginBody(t, marker))
	r, out := dumpTrusting(t, frame, kindAuto)
	require.True(t, r.OK)
	assert.NotContains(t, out, marker)
	login := section(t, r, "LoginRegister")
	assert.Equal(t, statusOK, login.Status)
	// The token shape reads the username as its token.
	assert.Equal(t, "[REDACTED n=4]", value(t, login, "username").Value)
	assert.Equal(t, `"ctx"`, value(t, login, "context").Value)
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
		for _, f := range hdrlayout.Header(codec.CommandRequest) {
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

// TestUndecodedBodyIsOnlyItsLength is the leak found in review: a token
// frame with sdk_version_len (body offset 11) changed from 05 to f8. Its
// body shows as its offset and length, nothing computed from its bytes.
func TestUndecodedBodyIsOnlyItsLength(t *testing.T) {
	frame := requestFrame(t, codec.OperationRegister, patBody(t, marker))
	require.Equal(t, byte(5), frame[256+11])
	frame[256+11] = 0xf8
	r, out := dumpText(t, frame, kindAuto)
	assert.False(t, r.OK)
	assert.NotContains(t, out, marker)
	gap := r.Sections[len(r.Sections)-1]
	assert.Equal(t, []Field{{Name: "bytes", Offset: 256, Size: len(frame) - 256, Value: notShown}}, gap.Fields)
	assert.Contains(t, section(t, r, "LoginRegisterPAT").Error, "sdk_version at offset 268")
}

// TestSecretOfOneShapeRedactsTheOther: a token frame with one more byte
// (zero) decodes as both shapes, and the password shape reads the token as
// its username: shown redacted, because the token shape calls it a secret.
func TestSecretOfOneShapeRedactsTheOther(t *testing.T) {
	body := append(patBody(t, marker)[:len(patBody(t, marker))-3-4], 0, 0, 0, 0, 0)
	frame := requestFrame(t, codec.OperationRegister, body)
	r, out := dumpTrusting(t, frame, kindAuto)
	require.True(t, r.OK)
	assert.NotContains(t, out, marker)
	assert.Equal(t, statusOK, section(t, r, "LoginRegisterPAT").Status)
	assert.Equal(t, "[REDACTED n=24]", value(t, section(t, r, "LoginRegister "), "username").Value)
}

func TestOtherBodiesAndTrailingBytesAreNotShown(t *testing.T) {
	frame := requestFrame(t, codec.OperationNonReplicated, []byte(marker))
	_, out := dumpTrusting(t, append(frame, marker...), kindFrame)
	assert.NotContains(t, out, marker)
	assert.Contains(t, out, "   256   48  bytes  not shown\n", "body and trailing bytes, one run")

	login := append(requestFrame(t, codec.OperationRegister, loginBody(t, "pw")), marker...)
	r, out := dumpTrusting(t, login, kindFrame)
	assert.NotContains(t, out, marker)
	assert.True(t, r.OK, "bytes after the frame are not an error")

	r, out = dumpTrusting(t, login, kindAuto)
	assert.Equal(t, statusUndetermined, r.Sections[0].Status, "size %d is not the length %d:\n%s", len(login)-len(marker), len(login), out)
	assert.False(t, r.OK)
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

	r, out = dumpText(t, withSize(frame, 1<<30), kindFrame)
	assert.Contains(t, out, "the size field cannot be used")
	assert.NotContains(t, out, marker)
	assert.False(t, r.OK)

	r, out = dumpText(t, frame[:len(frame)-5], kindFrame)
	assert.Contains(t, section(t, r, "frame").Error, "truncated")
	assert.NotContains(t, out, marker)

	frame[60] = 48
	r, _ = dumpText(t, frame, kindAuto)
	assert.Equal(t, []Field{{Name: "command", Offset: 60, Size: 1, Value: "48 (UNKNOWN_COMMAND_48)"}}, r.Sections[0].Fields)
}

// TestBodyIsReadOnlyAsItsKind: without -kind a body is not guessed at:
// its length alone shows. With its kind it decodes.
func TestBodyIsReadOnlyAsItsKind(t *testing.T) {
	body := loginBody(t, marker)
	r, out := dumpTrusting(t, body, kindAuto)
	assert.False(t, r.OK)
	assert.Equal(t, []Section{undetermined(body)}, r.Sections)
	assert.Equal(t, []Field{{Name: "bytes", Size: len(body), Value: notShown}}, r.Sections[0].Fields)
	assert.Contains(t, out, "== kind: could not be determined\n")
	assert.Contains(t, out, "give -kind KIND")
	assert.Contains(t, out, "result: kind not determined")

	r, out = dumpTrusting(t, body, kindLogin)
	require.True(t, r.OK)
	assert.NotContains(t, out, marker)
	assert.Equal(t, statusOK, section(t, r, "LoginRegister ").Status)
	r, _ = dumpTrusting(t, body, kindClientInfo)
	assert.Equal(t, statusOK, section(t, r, "ClientVersionInfo").Status)

	r, _ = dumpTrusting(t, []byte{1, 2}, kindLoginReply)
	assert.False(t, r.OK)
	assert.Equal(t, statusFailed, section(t, r, "LoginReply").Status)
	r, _ = dumpTrusting(t, nil, kindAuto)
	assert.Equal(t, statusUndetermined, r.Sections[0].Status)
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
	r, out := dumpTrusting(t, src, kindConn)
	assert.NotContains(t, out, marker)
	assert.Contains(t, out, "== frame at input offset 3 (flags 0x00, 310 bytes; offsets below count from it)\n")
	assert.Contains(t, out, "== frame at input offset 316 (flags 0x01, 2 bytes")
	assert.Equal(t, statusOK, section(t, r, "LoginRegister").Status)
	assert.Equal(t, "[REDACTED n=24]", value(t, section(t, r, "LoginRegister"), "password").Value)
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
			if kind == kindConn || kind == kindClient {
				continue // chunked inputs: each frame's offsets count from it
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

// TestChecksumsAreNotShown: a checksum can be a digest of a body holding a
// password (checksum_body covers the body, checksum the header that holds
// checksum_body, a request_checksum the checksum of a request): non-zero,
// it prints as NON-ZERO only, so two frames that differ in it print alike.
func TestChecksumsAreNotShown(t *testing.T) {
	frame := requestFrame(t, codec.OperationRegister, loginBody(t, marker))
	out := func(sum byte) string {
		f := bytes.Clone(frame)
		for _, off := range []int{0, 16, 144} { // checksum, checksum_body, request_checksum
			f[off+3] = sum
		}
		r, out := dumpTrusting(t, f, kindAuto)
		require.True(t, r.OK)
		for _, name := range []string{"checksum", "checksum_body", "request_checksum"} {
			assert.True(t, strings.HasPrefix(value(t, r.Sections[0], name).Value, "NON-ZERO, not shown"), name)
		}
		return out
	}
	assert.Equal(t, out(0x5a), out(0xa5))
	r, _ := dumpTrusting(t, frame, kindAuto)
	assert.Equal(t, "0x00000000000000000000000000000000", value(t, r.Sections[0], "checksum_body").Value)
}

// TestStreamOfFrames: frames whose sizes delimit the input exactly are read
// one after the other, each with its offsets and its Base; one byte more
// and the input is no stream.
func TestStreamOfFrames(t *testing.T) {
	login := requestFrame(t, codec.OperationRegister, loginBody(t, marker))
	src := append(bytes.Clone(login), eviction14(t)...)
	r, out := dumpTrusting(t, src, kindAuto)
	require.True(t, r.OK, out)
	assert.NotContains(t, out, marker)
	assert.Contains(t, r.Notes[0], "a stream of 2 frames")
	assert.Contains(t, out, "== frame 1 at input offset 0 (310 bytes; offsets below count from it)\n")
	assert.Contains(t, out, "== frame 2 at input offset 310 (256 bytes; offsets below count from it)\n")
	ev := section(t, r, "Eviction header")
	assert.Equal(t, 310, ev.Base)
	assert.Equal(t, "14 (IncompatibleProtocol)", value(t, ev, "reason").Value)

	r, _ = dumpTrusting(t, append(src, 0), kindAuto)
	assert.Equal(t, statusUndetermined, r.Sections[0].Status)
	r, out = dumpTrusting(t, append(src, 0), kindFrames)
	assert.Contains(t, out, "== frame 3 at input offset 566 (1 bytes; offsets below count from it)\n")
	last := r.Sections[len(r.Sections)-2] // then the byte, not shown
	assert.Equal(t, Section{Title: "frame", Status: statusFailed, Base: 566}, Section{Title: last.Title, Status: last.Status, Base: last.Base})
	assert.True(t, strings.HasPrefix(last.Error, "header at offset 1: "), last.Error)
	assert.Equal(t, []Field{{Name: "bytes", Size: 1, Value: notShown}}, r.Sections[len(r.Sections)-1].Fields)
	assert.False(t, r.OK)
}

// TestErrorsInsideSecretsAreWithheld: where a reading fails inside a
// password or token depends on the secret's bytes, so that offset is not
// printed: the first invalid UTF-8 byte of a token, and a reading that
// fails inside the password another reading decodes.
func TestErrorsInsideSecretsAreWithheld(t *testing.T) {
	// No reading reads a token's bytes: one that is not UTF-8 changes
	// nothing, wherever it is.
	badAt := func(i int) string {
		body := patBody(t, marker)
		if i >= 0 {
			body[bytes.Index(body, []byte(marker))+i] = 0xff
		}
		_, out := dumpTrusting(t, body, kindLoginPAT)
		return out
	}
	assert.Equal(t, badAt(-1), badAt(3))
	assert.Equal(t, badAt(-1), badAt(17))

	// The token shape reads the password's first bytes as its context_len.
	r, _ := dumpTrusting(t, requestFrame(t, codec.OperationRegister, loginBody(t, marker)), kindAuto)
	assert.Equal(t, "context: fails inside bytes that may hold a password, token or bind secret; its offset and rule are not shown",
		section(t, r, "LoginRegisterPAT").Error)
}

// TestKindNames: -kind takes the codec's names; the old names still work
// and are reported by the new ones.
func TestKindNames(t *testing.T) {
	body := patBody(t, marker)
	for old, kind := range kindAliases {
		a, err := Dump(body, old)
		require.NoError(t, err)
		b, err := Dump(body, kind)
		require.NoError(t, err)
		assert.Equal(t, b, a, old)
		assert.Equal(t, kind, a.Kind)
	}
}
