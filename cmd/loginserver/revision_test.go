package main

import (
	"bytes"
	"encoding/binary"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
)

// The 0.11.1 frames of these tests are written byte by byte from WIRE.md
// section 10, not by package codec, as another implementation (an SDK of
// upstream main) writes them.

// wire110Secret is the bind secret of these tests: text, so that a leak
// into a log or a metric is easy to find.
const wire110Secret = "bind-secret-0123456789abcdefghij" // 32 bytes

func text8(s string) []byte { return append([]byte{byte(len(s))}, s...) }

// info0111 is [0.11.1 u32]["go-sdk"]["0.4.0"].
func info0111(proto uint32) []byte {
	b := binary.LittleEndian.AppendUint32(nil, proto)
	return append(append(b, text8("go-sdk")...), text8("0.4.0")...)
}

// requestFrame is a 256-byte request header (command 5) with client,
// request, operation and code, then body.
func requestFrame(client, request uint64, op byte, code uint32, body []byte) []byte {
	h := make([]byte, 256)
	binary.LittleEndian.PutUint32(h[48:], uint32(256+len(body)))
	h[60] = 5
	binary.LittleEndian.PutUint64(h[128:], client)
	binary.LittleEndian.PutUint64(h[168:], request)
	h[176] = op
	binary.LittleEndian.PutUint32(h[196:], code)
	return append(h, body...)
}

// login0111Frame is LOGIN_REGISTER of protocol 0.11.1: [CVI][secret 32]
// [username][password][context_len 0].
func login0111Frame(client uint64, proto uint32, user, pass string) []byte {
	body := append(info0111(proto), wire110Secret...)
	body = append(append(append(body, text8(user)...), text8(pass)...), 0, 0, 0, 0)
	return requestFrame(client, 0, 1, 0, body)
}

// bindFrame is BIND_SESSION (NonReplicated, code 15):
// [CVI][client_id u128][session u64][metadata_watermark u64][secret 32].
func bindFrame(client, session uint64, secret string) []byte {
	body := info0111(0x2C01)
	body = binary.LittleEndian.AppendUint64(body, client)
	body = binary.LittleEndian.AppendUint64(body, 0)
	body = binary.LittleEndian.AppendUint64(body, session)
	body = binary.LittleEndian.AppendUint64(body, session)
	return requestFrame(client, 1, 2, 15, append(body, secret...))
}

// exchange writes frame on a new or given connection and reads the answer.
func exchange(t *testing.T, nc net.Conn, frame []byte) []byte {
	t.Helper()
	require.NoError(t, nc.SetDeadline(time.Now().Add(10*time.Second)))
	_, err := nc.Write(frame)
	require.NoError(t, err)
	answer, err := codec.ReadFrame(nc, nil, codec.MaxFrameSize)
	require.NoError(t, err)
	return answer
}

func dial(t *testing.T, addr net.Addr) net.Conn {
	t.Helper()
	nc, err := net.DialTimeout("tcp", addr.String(), 10*time.Second)
	require.NoError(t, err)
	t.Cleanup(func() { nc.Close() })
	return nc
}

// loginSession reads a login reply frame: command 8, status 0, result
// section 0, then user_id and the session.
func loginSession(t *testing.T, answer []byte) uint64 {
	t.Helper()
	require.Equal(t, byte(8), answer[60], "a Reply, not an eviction (reason %d)", answer[255])
	require.Zero(t, binary.LittleEndian.Uint32(answer[216:]), "status")
	require.Zero(t, binary.LittleEndian.Uint32(answer[256:]), "empty result section")
	return binary.LittleEndian.Uint64(answer[264:])
}

// TestRun0111 plays protocol 0.11.1 against the command: a 0.11.1 login
// logs in at -protocol 0.11.1, at both revisions and at the default
// 0.11.0 server; BIND_SESSION resumes the session on a new connection
// with the right secret, and is refused with 40 with a wrong one and
// after logout; a 0.11.0 login at -protocol 0.11.1 is eviction 14 with
// the window. The log and the metrics count the binds and show no
// secret.
func TestRun0111(t *testing.T) {
	for _, args := range [][]string{{"-protocol", "0.11.1"}, {"-protocol", "0.11.0,0.11.1"}, nil} {
		t.Run(strings.Join(append([]string{"protocol"}, args...), " "), func(t *testing.T) {
			s := startRun(t, append([]string{"-user", "iggy:pw-s3cret", "-metrics", "127.0.0.1:0"}, args...)...)
			first := dial(t, s.addr)
			session := loginSession(t, exchange(t, first, login0111Frame(0xA1, 0x2C01, "iggy", "pw-s3cret")))

			// Resume on a new connection: status 0, the bare login reply.
			second := dial(t, s.addr)
			bound := exchange(t, second, bindFrame(0xA1, session, wire110Secret))
			require.Equal(t, byte(8), bound[60])
			require.Zero(t, binary.LittleEndian.Uint32(bound[216:]), "bind status")
			assert.Equal(t, uint64(session), binary.LittleEndian.Uint64(bound[260:]), "the session bound")
			// The bound connection is logged in: a replicated request of
			// that session passes the fence (and is denied with 3).
			req := requestFrame(0xA1, 1, 128, 0, nil)
			binary.LittleEndian.PutUint64(req[184:], session)
			assert.Equal(t, uint32(3), binary.LittleEndian.Uint32(exchange(t, second, req)[216:]))

			wrong := exchange(t, dial(t, s.addr), bindFrame(0xA1, session, strings.Repeat("x", 32)))
			assert.Equal(t, uint32(40), binary.LittleEndian.Uint32(wrong[216:]), "wrong secret")

			logout := requestFrame(0xA1, 1, 3, 0, nil)
			binary.LittleEndian.PutUint64(logout[184:], session)
			assert.Zero(t, binary.LittleEndian.Uint32(exchange(t, first, logout)[216:]), "logout")
			after := exchange(t, dial(t, s.addr), bindFrame(0xA1, session, wire110Secret))
			assert.Equal(t, uint32(40), binary.LittleEndian.Uint32(after[216:]), "bind after logout")

			m := regexp.MustCompile(`msg=metrics addr=(\S+)`).FindStringSubmatch(s.logs.String())
			require.NotNil(t, m)
			resp, err := http.Get("http://" + m[1] + "/metrics")
			require.NoError(t, err)
			metrics, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			require.NoError(t, err)
			assert.Contains(t, string(metrics), `loginserver_binds_total{outcome="OK"} 1`)
			assert.Contains(t, string(metrics), `loginserver_binds_total{outcome="Unauthenticated"} 2`)
			s.stop(t)
			for _, out := range []string{s.logs.String(), string(metrics)} {
				assert.NotContains(t, out, wire110Secret)
				assert.NotContains(t, out, "bind-secret")
				assert.NotContains(t, out, "pw-s3cret")
			}
			assert.Contains(t, s.logs.String(), "request=bind_session outcome=OK")
		})
	}
}

// TestRun0110At0111: a 0.11.0 login at -protocol 0.11.1 is evicted with
// 14 and the window [0.11.1, 0.11.1], never refused as a credential.
func TestRun0110At0111(t *testing.T) {
	s := startRun(t, "-user", "iggy:pw", "-protocol", "0.11.1")
	body := append(info0111(0x2C00), text8("iggy")...)
	body = append(append(body, text8("pw")...), 0, 0, 0, 0)
	answer := exchange(t, dial(t, s.addr), requestFrame(0xC1, 0, 1, 0, body))
	require.Equal(t, byte(13), answer[60])
	assert.Equal(t, byte(14), answer[255])
	assert.Equal(t, uint32(0x2C01), binary.LittleEndian.Uint32(answer[144:]), "max")
	assert.Equal(t, uint32(0x2C01), binary.LittleEndian.Uint32(answer[148:]), "min")
	assert.True(t, bytes.Contains(answer[128:144], []byte{0xC1}))
}

// TestListeningLineSaysWhetherPatchCounts: two servers whose windows print
// alike ([0.11.0, 0.11.0]) let different clients in; the start-up line
// says which counts the patch.
func TestListeningLineSaysWhetherPatchCounts(t *testing.T) {
	for _, c := range []struct{ protocol, want string }{
		{"0.11.0", `window="[0.11.0, 0.11.0]" window_counts_patch=false`},
		{"0.11.0,0.11.0", `window="[0.11.0, 0.11.0]" window_counts_patch=true`},
		{"0.11.1", `window="[0.11.1, 0.11.1]" window_counts_patch=true`},
	} {
		s := startRun(t, "-protocol", c.protocol)
		s.stop(t)
		assert.Contains(t, s.logs.String(), c.want, c.protocol)
	}
}

// TestListeningLineSaysGCPercent: the start-up line gives the collector's
// target in force, the flag's when it is set.
func TestListeningLineSaysGCPercent(t *testing.T) {
	s := startRun(t, "-gc-percent", "300")
	s.stop(t)
	assert.Contains(t, s.logs.String(), "gc_percent=300")
}
