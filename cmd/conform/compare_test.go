package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
)

// bindFrame is a Reply of operation NonReplicated whose body is body.
func bindFrame(t *testing.T, body []byte) []byte {
	t.Helper()
	f, err := codec.AppendReplyFrame(nil, codec.ReplyHeader{Client: hostileClient, Request: 2, Operation: codec.OperationNonReplicated}, body)
	require.NoError(t, err)
	return f
}

func loginReplyBody(t *testing.T, user uint32, session uint64) []byte {
	t.Helper()
	b, err := codec.LoginReply{UserID: user, Session: session, ServerProtocol: codec.MustPack(0, 11, 1), ServerVersion: []byte("0.1.0")}.AppendBinary(nil)
	require.NoError(t, err)
	return b
}

// A bind reply is told from a ping's (empty body) and from a login's
// (with a result section), and its session is held to the one the server
// handed out to the login the model's session comes from.
func TestCompareBindReply(t *testing.T) {
	want := bindFrame(t, loginReplyBody(t, 1, 7))
	_, ok := bindReply(want)
	require.True(t, ok)
	_, ok = bindReply(bindFrame(t, nil))
	assert.False(t, ok, "a ping reply is no bind reply")
	_, ok = bindReply(bindFrame(t, append([]byte{0, 0, 0, 0}, loginReplyBody(t, 1, 7)...)))
	assert.False(t, ok, "a body with a result section is no bind reply")

	r := &caseRec{p: &player{userIDs: map[uint32]uint32{1: 41}}, modelHanded: map[int]uint64{0: 7}, handed: map[int]uint64{0: 100007}}
	assert.Empty(t, r.compare(want, bindFrame(t, loginReplyBody(t, 41, 100007)), nil))
	assert.Contains(t, r.compare(want, bindFrame(t, loginReplyBody(t, 41, 100008)), nil), "session: want 100007, the session the login of frame 1 got, got 100008")
	assert.Contains(t, r.compare(want, bindFrame(t, loginReplyBody(t, 42, 100007)), nil), "user_id")
	assert.Contains(t, r.compare(want, bindFrame(t, append([]byte{0, 0, 0, 0}, loginReplyBody(t, 41, 100007)...)), nil), "want a bind reply")
	assert.Contains(t, r.compare(want, bindFrame(t, nil), nil), "want a bind reply")
}
