package main

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
)

// vectorCaseByID finds a client-mode case by its vector id.
func vectorCaseByID(t *testing.T, id int) clientCase {
	t.Helper()
	vs, reg := loadAll(t)
	cases, err := clientCases(vs, reg)
	require.NoError(t, err)
	for _, c := range cases {
		if c.Vector == id {
			return c
		}
	}
	t.Fatalf("no client case of vector %d", id)
	return clientCase{}
}

// A vector step's conn is the connection the kit writes it on.
func TestVectorStepsKeepTheirConnection(t *testing.T) {
	c := vectorCaseByID(t, 555) // login, then a bind and a request on a second connection
	var conns []int
	for _, s := range c.steps {
		conns = append(conns, s.conn)
	}
	assert.Equal(t, []int{0, 1, 1}, conns)
	// Pipelining never merges frames of two connections.
	steps := vectorSteps([]vectorStep{{In: "00"}, {In: "01", Conn: 1}, {In: "02", Conn: 1}}, true)
	require.Len(t, steps, 2)
	assert.Len(t, steps[1].frames, 2)
	assert.Equal(t, 1, steps[1].conn)
}

// isolate salts every client id of a case the same way: the header's and
// the BIND_SESSION body's, which stay equal; every other byte is kept, and
// two cases (or runs) get different ids.
func TestIsolateSaltsEveryClientID(t *testing.T) {
	c := vectorCaseByID(t, 555)
	salt := runSalt()
	a, b := isolate(c, salt, 1), isolate(c, salt, 2)
	var ids []codec.Uint128
	for i, s := range a.steps {
		for k, f := range s.frames {
			orig := c.steps[i].frames[k]
			require.Len(t, f, len(orig))
			id := clientAt(f, offClient)
			assert.NotEqual(t, clientAt(orig, offClient), id)
			assert.Equal(t, clientAt(orig, offClient).Lo, id.Lo, "the lower half is kept")
			assert.NotEqual(t, id, clientAt(b.steps[i].frames[k], offClient), "another case gets another id")
			ids = append(ids, id)
			if binary.LittleEndian.Uint32(f[offCode:]) == uint32(codec.CodeBindSession) {
				bs, err := codec.ParseBindSession(f[codec.HeaderSize:])
				require.NoError(t, err)
				assert.Equal(t, id, bs.ClientID, "the body names the header's client")
			}
			diff := 0
			for j := range f {
				if f[j] != orig[j] {
					diff++
				}
			}
			assert.LessOrEqual(t, diff, 16, "only the ids' upper halves change")
		}
	}
	for _, id := range ids {
		assert.Equal(t, ids[0], id, "one id in the case stays one id")
	}
	assert.Equal(t, c.steps[0].frames[0][:offClient], a.steps[0].frames[0][:offClient], "the catalogue's frames are not changed")
}

// A zero client id stays zero (the lifecycle refuses it, and the case
// tests that), and a frame that is not a Request is left alone.
func TestIsolateKeepsZeroAndNonRequests(t *testing.T) {
	zero := ping(codec.Uint128{}, 1, 0)
	assert.Equal(t, zero, saltClients(zero, runSalt()))
	reply := pingReply(0)
	assert.Equal(t, reply, saltClients(reply, runSalt()))
	short := []byte{1, 2, 3}
	assert.True(t, bytes.Equal(short, saltClients(short, runSalt())))
}

func clientAt(f []byte, off int) codec.Uint128 {
	return codec.Uint128{Lo: binary.LittleEndian.Uint64(f[off:]), Hi: binary.LittleEndian.Uint64(f[off+8:])}
}

// -protocol reads as cmd/loginserver reads it: one version is the window
// it serves (0.11.1's counts patch), a list every version between its
// lowest and highest, counting patch; -window keeps the 0.11.0 rule.
func TestParseWindow(t *testing.T) {
	v0, v1 := codec.Protocol0110, codec.Protocol0111
	for _, tc := range []struct {
		protocol, window string
		want             codec.Window
	}{
		{"0.11.0", "", codec.DefaultWindow(v0)},
		{"0.11.1", "", codec.InclusiveWindow(v1, v1)},
		{"0.11.1,0.11.0", "", codec.InclusiveWindow(v0, v1)},
		{"0.11.0", "0.10.0..0.11.0", codec.Window{Min: codec.MustPack(0, 10, 0), Max: v0}},
	} {
		got, err := parseWindow(tc.protocol, tc.window)
		require.NoError(t, err, tc.protocol)
		assert.Equal(t, tc.want, got, tc.protocol)
	}
	for _, bad := range []string{"", "0.11", "0.11.0,x"} {
		_, err := parseWindow(bad, "")
		assert.ErrorContains(t, err, "-protocol", bad)
	}
}

// conform drive checks that lifecycle.Client builds each protocol's login
// in that protocol's layout before it drives a case (it refuses one it
// does not, naming the protocol): both revisions pass.
func TestDriveChecksTheClientSpeaksTheProtocol(t *testing.T) {
	require.NoError(t, speaks(codec.Protocol0110))
	require.NoError(t, speaks(codec.Protocol0111))
}
