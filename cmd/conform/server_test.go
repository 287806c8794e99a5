package main

import (
	"context"
	"encoding/binary"
	"io"
	"net"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// testWait keeps the cases that wait for the client's silence short.
const testWait = 300 * time.Millisecond

// loadAll reads the checkout's vectors and the registry.
func loadAll(t testing.TB) (*vectorSet, *registry) {
	t.Helper()
	dir, err := findVectors()
	require.NoError(t, err)
	vs, err := loadVectors(dir)
	require.NoError(t, err)
	reg, err := loadRegistry()
	require.NoError(t, err)
	return vs, reg
}

// serveAndDrive runs server mode and drives every case with d.
func serveAndDrive(t *testing.T, d driver) *Report {
	return serveAndDriveAt(t, d, protocol0110)
}

// serveAndDriveAt is serveAndDrive with the kit at protocol.
func serveAndDriveAt(t *testing.T, d driver, protocol codec.Version) *Report {
	t.Helper()
	vs, reg := loadAll(t)
	cases, err := serverCasesAt(vs, reg, protocol)
	require.NoError(t, err)
	addr := make(chan [2]net.Addr, 1)
	var r *Report
	var wg sync.WaitGroup
	wg.Add(1)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Second)
	defer cancel()
	go func() {
		defer wg.Done()
		r, err = runServer(ctx, serverOptions{Listen: "127.0.0.1:0", Control: "127.0.0.1:0", Wait: testWait, Stall: 100 * time.Millisecond,
			Agent: "lifecycle.Client", Cases: cases, Protocol: protocol, Redact: &redactor{}, Ready: func(a, c net.Addr) { addr <- [2]net.Addr{a, c} }})
	}()
	a := <-addr
	d.Addr, d.Control, d.Timeout = a[0].String(), a[1].String(), 5*time.Second
	for _, c := range cases {
		_ = d.run(c.ID)
	}
	wg.Wait()
	require.NoError(t, err)
	return r
}

func failing(r *Report) map[string]string {
	m := map[string]string{}
	for _, c := range r.Cases {
		if c.Verdict != verdictPass {
			m[c.ID] = c.Name + ": " + c.Observed
		}
	}
	return m
}

// failsExactly asserts that the cases of r that fail are those of want,
// each with why in its observation (why "" checks the ids only).
func failsExactly(t *testing.T, r *Report, want map[string]bool, why string) {
	t.Helper()
	got := failing(r)
	for id := range want {
		assert.Contains(t, got, id)
		assert.Contains(t, got[id], why, id)
	}
	assert.Len(t, got, len(want), "%v", got)
}

func TestServerModeLifecycleClientPasses(t *testing.T) {
	t.Parallel()
	r := serveAndDrive(t, driver{})
	assert.Empty(t, failing(r))
	assert.GreaterOrEqual(t, len(r.Cases), 100)
	t.Logf("server mode: %d cases, %d pass, in %.1fs", len(r.Cases), r.Summary.Pass, r.Duration)
}

// A client that asks for cluster metadata before and after its login, as
// real SDKs do, passes too: the extra requests are denied and change no
// verdict.
func TestServerModeToleratesMetadataRequests(t *testing.T) {
	t.Parallel()
	r := serveAndDrive(t, driver{metadata: true})
	assert.Empty(t, failing(r))
}

// A client that reconnects and logs in again after a failed login gets the
// same answer each time and passes every case, but the ones where it must
// not: after a well-formed eviction 14 it retries with the same version.
func TestServerModeCatchesRetryAfterIncompatible(t *testing.T) {
	t.Parallel()
	r := serveAndDrive(t, driver{reconnect: 2})
	vs, reg := loadAll(t)
	cases, err := serverCases(vs, reg)
	require.NoError(t, err)
	want := map[string]bool{}
	for _, c := range cases {
		if c.noRetryVersion {
			want[c.ID] = true
		}
	}
	failsExactly(t, r, want, "after eviction 14")
	assert.GreaterOrEqual(t, len(want), 5)
}

// A client that ignores request numbers takes a reply for another request
// as its own: the kit reports exactly the cases that test that rule.
func TestServerModeCatchesIgnoredRequestNumbers(t *testing.T) {
	t.Parallel()
	r := serveAndDrive(t, driver{ignoreRequest: true})
	_, reg := loadAll(t)
	want := map[string]bool{}
	for _, name := range []string{"login-reply/other-request-number", "login-reply/unsolicited-frame-after",
		"login-reply/duplicate-after", "ping-reply/other-request-number"} {
		id, err := reg.id("server", name)
		require.NoError(t, err)
		want[id] = true
	}
	failsExactly(t, r, want, "") // only the request-number cases
}

// A client that takes any command-13 frame as an eviction, unvalidated,
// surfaces the reason's code for malformed evictions: the kit reports
// every eviction case whose code differs from WIRE.md section 8's.
func TestServerModeCatchesUnvalidatedEvictions(t *testing.T) {
	t.Parallel()
	r := serveAndDrive(t, driver{laxEvictions: true})
	vs, reg := loadAll(t)
	cases, err := serverCases(vs, reg)
	require.NoError(t, err)
	want := map[string]bool{}
	for _, c := range cases {
		f := c.answer.frame
		if c.at == "login" && len(f) >= 256 && f[60] == 13 && !surfacedRight(c.surface, laxReason(f[255])) {
			if size := int(f[48]) | int(f[49])<<8 | int(f[50])<<16 | int(f[51])<<24; size >= 256 && size <= padLimit {
				want[c.ID] = true
			}
		}
	}
	failsExactly(t, r, want, "")
	assert.Greater(t, len(want), 30)
	t.Logf("%d eviction cases caught", len(want))
}

// A client that reports a login as successful after dropping the
// connection over a mismatched reply fails the two mismatch cases.
func TestServerModeCatchesSuccessAfterMismatch(t *testing.T) {
	t.Parallel()
	r := serveAndDrive(t, driver{mismatchOK: true})
	_, reg := loadAll(t)
	got := failing(r)
	for _, name := range []string{"login-reply/other-request-number", "login-reply/other-client-id"} {
		id, err := reg.id("server", name)
		require.NoError(t, err)
		assert.Contains(t, got[id], "the SDK surfaced 0")
	}
	assert.Len(t, got, 2, "%v", got)
}

// A client that floods a case is cut off at maxEvents, and the case still
// gets its verdict.
func TestServerModeBoundsWhatItRecords(t *testing.T) {
	t.Parallel()
	vs, reg := loadAll(t)
	cases, err := serverCases(vs, reg)
	require.NoError(t, err)
	addr := make(chan net.Addr, 1)
	done := make(chan *Report, 1)
	go func() {
		r, _ := runServer(context.Background(), serverOptions{Listen: "127.0.0.1:0", Wait: testWait, Stall: testWait,
			Agent: "flood", Cases: cases[:1], Redact: &redactor{}, Ready: func(a, _ net.Addr) { addr <- a }})
		done <- r
	}()
	nc, err := net.Dial("tcp", (<-addr).String())
	require.NoError(t, err)
	defer nc.Close()
	cl, err := lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "flood", SDKVersion: "1"})
	require.NoError(t, err)
	login, err := cl.Login(nil, []byte(cases[0].ID), codec.NewSecret([]byte("pw")))
	require.NoError(t, err)
	go func() {
		_, _ = nc.Write(login)
		for range 2 * maxEvents {
			if _, err := nc.Write(ping(cl.ID(), 1, 0)); err != nil {
				return
			}
		}
	}()
	r := <-done
	require.Len(t, r.Cases, 1)
	frames := r.Cases[0].Frames
	assert.LessOrEqual(t, len(frames), maxEvents+1)
	assert.Contains(t, frames[len(frames)-1].Note, "the kit closed the connection")
	assert.Equal(t, verdictFail, r.Cases[0].Verdict, "its pings do not carry the session the login reply gave")
}

// startServer runs server mode over cases on loopback, without a control
// endpoint; the report arrives on the channel when the run ends.
func startServer(t testing.TB, cases []serverCase) (string, <-chan *Report) {
	_, addr, done := startKit(t, cases)
	return addr, done
}

// startKit is startServer, returning the kit too.
func startKit(t testing.TB, cases []serverCase) (*kitServer, string, <-chan *Report) {
	return startKitAt(t, cases, 0)
}

// startKitAt is startKit with the kit at protocol (0: its default).
func startKitAt(t testing.TB, cases []serverCase, protocol codec.Version) (*kitServer, string, <-chan *Report) {
	t.Helper()
	k, err := listenKit(serverOptions{Listen: "127.0.0.1:0", Wait: testWait, Stall: testWait, Protocol: protocol,
		Agent: "hostile", Cases: cases, Redact: &redactor{}})
	require.NoError(t, err)
	done := make(chan *Report, 1)
	go func() { done <- k.run(context.Background()) }()
	return k, k.ln.Addr().String(), done
}

// pingRoundTrip writes a ping and reads its answer: every frame written
// before it has been handled.
func pingRoundTrip(t testing.TB, nc net.Conn) {
	t.Helper()
	_, err := nc.Write(ping(codec.Uint128{Lo: 9}, 1, 0))
	require.NoError(t, err)
	_, err = codec.ReadFrame(nc, nil, codec.MaxFrameSize)
	require.NoError(t, err)
}

// largeFrameSetup starts server mode with the first case, dials it, and
// returns a zeroed frame of padLimit bytes whose size field says so.
func largeFrameSetup(t testing.TB) (*kitServer, []serverCase, string, <-chan *Report, net.Conn, []byte) {
	t.Helper()
	vs, reg := loadAll(t)
	cases, err := serverCases(vs, reg)
	require.NoError(t, err)
	k, addr, done := startKit(t, cases[:1])
	nc, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	big := make([]byte, padLimit)
	binary.LittleEndian.PutUint32(big[48:], padLimit)
	return k, cases, addr, done, nc, big
}

// unknownCommand makes big a frame the kit drops (an unknown command),
// keeping the connection open.
func unknownCommand(big []byte) {
	copy(big, ping(codec.Uint128{Lo: 9}, 1, 0))
	binary.LittleEndian.PutUint32(big[48:], padLimit)
	big[60] = 99
}

// kept is the bytes of frames the kit holds over the run.
func (k *kitServer) kept() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.keptBytes
}

// A client flooding the kit with large frames leaves it holding what its
// report shows of each, not the frames: keepLimit bytes (4,096 shown and
// room for a secret that begins in them, 4,351) of each 1 MiB frame,
// counted exactly rather than read off the process's heap, which other
// tests running at once move.
func TestServerModeKeepsLittleOfLargeFrames(t *testing.T) {
	k, cases, addr, done, nc, big := largeFrameSetup(t)
	unknownCommand(big)
	require.Equal(t, 4351, keepLimit)
	const frames = 32
	for range frames {
		_, err := nc.Write(big)
		require.NoError(t, err)
	}
	pingRoundTrip(t, nc) // every frame before it has been handled
	// Each flood frame keeps keepLimit bytes; the ping and its reply, of
	// a header each, all of theirs.
	assert.Equal(t, frames*keepLimit+2*codec.HeaderSize, k.kept())
	require.NoError(t, nc.Close())
	runCase(t, addr, cases[0].ID)
	r := <-done
	require.Len(t, r.Cases, 1)
}

// Past the run's byte budget a frame keeps its header only.
func TestKeepPastTheBudgetKeepsTheHeader(t *testing.T) {
	k := &kitServer{}
	big := make([]byte, padLimit)
	var e event
	k.keep(&e, big)
	assert.Len(t, e.frame, keepLimit)
	assert.Equal(t, padLimit, e.size)
	k.keptBytes = maxRunBytes
	k.keep(&e, big)
	assert.Len(t, e.frame, codec.HeaderSize)
	assert.Equal(t, padLimit, e.size)
}

// The heap a flood of large frames leaves behind, per frame: a figure to
// watch (heap-B/frame), not a test, since the process's heap moves with
// whatever else runs.
func BenchmarkServerModeLargeFrameHeap(b *testing.B) {
	_, _, _, _, nc, big := largeFrameSetup(b)
	defer nc.Close()
	unknownCommand(big)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	n := 0
	for b.Loop() {
		if _, err := nc.Write(big); err != nil {
			b.Fatal(err)
		}
		n++
	}
	pingRoundTrip(b, nc)
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/float64(n), "heap-B/frame")
}

// What the kit keeps of a large frame is what the report shows, and the
// report still tells its whole length.
func TestServerModeReportsLengthOfLargeFrames(t *testing.T) {
	_, cases, _, done, nc, big := largeFrameSetup(t)
	_, err := nc.Write(big)
	require.NoError(t, err)
	cl, err := lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "big", SDKVersion: "1"})
	require.NoError(t, err)
	login, err := cl.Login(nil, []byte(cases[0].ID), codec.NewSecret([]byte("pw")))
	require.NoError(t, err)
	_, err = nc.Write(login)
	require.NoError(t, err)
	_, err = codec.ReadFrame(nc, nil, codec.MaxFrameSize)
	require.NoError(t, err)
	require.NoError(t, nc.Close())
	r := <-done
	require.NotEmpty(t, r.Cases[0].Frames)
	first := r.Cases[0].Frames[0]
	want := "...(" + strconv.Itoa(padLimit-hexLimit) + " more bytes)"
	assert.Len(t, first.Hex, 2*hexLimit+len(want))
	assert.True(t, strings.HasSuffix(first.Hex, want), "the report's hex ends with %q", want)
}

// Connections that never name a case are bounded: past maxUnassigned open
// at once, the kit closes a new one at once.
func TestServerModeBoundsUnassignedConnections(t *testing.T) {
	vs, reg := loadAll(t)
	cases, err := serverCases(vs, reg)
	require.NoError(t, err)
	addr, done := startServer(t, cases[:1])
	var conns []net.Conn
	for range maxUnassigned {
		nc, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		pingRoundTrip(t, nc) // it is served, and counted
		conns = append(conns, nc)
	}
	extra, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	_ = extra.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, err = codec.ReadFrame(extra, nil, codec.MaxFrameSize)
	assert.ErrorIs(t, err, io.EOF, "the connection past the bound is closed")
	_ = extra.Close()
	// Closing one makes room again.
	require.NoError(t, conns[0].Close())
	assert.Eventually(t, func() bool {
		nc, err := net.Dial("tcp", addr)
		if err != nil {
			return false
		}
		defer nc.Close()
		_ = nc.SetDeadline(time.Now().Add(time.Second))
		if _, err := nc.Write(ping(codec.Uint128{Lo: 9}, 1, 0)); err != nil {
			return false
		}
		_, err = codec.ReadFrame(nc, nil, codec.MaxFrameSize)
		return err == nil
	}, 5*time.Second, 20*time.Millisecond)
	for _, nc := range conns[1:] {
		_ = nc.Close()
	}
	// The case runs once the kit has seen those connections close.
	assert.Eventually(t, func() bool { return runCase(t, addr, cases[0].ID) }, 5*time.Second, 20*time.Millisecond)
	<-done
}

// runCase logs in once as case id, which ends a run of that case alone;
// false when the kit closed the connection without an answer.
func runCase(t *testing.T, addr, id string) bool {
	t.Helper()
	cl, err := lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "x", SDKVersion: "1"})
	require.NoError(t, err)
	login, err := cl.Login(nil, []byte(id), codec.NewSecret([]byte("pw")))
	require.NoError(t, err)
	nc, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer nc.Close()
	_ = nc.SetDeadline(time.Now().Add(5 * time.Second))
	_, _ = nc.Write(login)
	_, err = codec.ReadFrame(nc, nil, codec.MaxFrameSize)
	return err == nil
}

// The kit refuses to listen beyond loopback unless told to.
func TestServerModeListensOnLoopbackOnly(t *testing.T) {
	for _, a := range []string{"127.0.0.1:0", "[::1]:0", "localhost:0", ""} {
		assert.NoError(t, loopbackOnly("-listen", a), a)
	}
	for _, a := range []string{"0.0.0.0:0", ":8091", "[::]:0", "192.0.2.1:8091", "example.com:8091"} {
		err := loopbackOnly("-listen", a)
		require.Error(t, err, a)
		assert.Contains(t, err.Error(), "-allow-remote", a)
	}
	_, err := runServer(context.Background(), serverOptions{Listen: "0.0.0.0:0", Redact: &redactor{}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "-listen 0.0.0.0:0 is not a loopback address")
	_, err = runServer(context.Background(), serverOptions{Listen: "127.0.0.1:0", Control: "0.0.0.0:0", Redact: &redactor{}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "-control 0.0.0.0:0")
}

// With -protocol 0.11.1 the kit's own login replies announce 0.11.1; the
// flag takes the two revisions only.
func TestServerModeProtocol(t *testing.T) {
	t.Parallel()
	vs, reg := loadAll(t)
	cases, err := serverCasesAt(vs, reg, protocol0111)
	require.NoError(t, err)
	id, err := reg.id("server", "ping-reply/delayed") // scripted at the ping: the login gets the kit's own reply
	require.NoError(t, err)
	var pick []serverCase
	for _, c := range cases {
		if c.ID == id {
			pick = append(pick, c)
		}
	}
	require.Len(t, pick, 1)
	addr := make(chan net.Addr, 1)
	done := make(chan *Report, 1)
	go func() {
		r, _ := runServer(context.Background(), serverOptions{Listen: "127.0.0.1:0", Wait: testWait, Stall: testWait,
			Agent: "protocol", Protocol: protocol0111, Cases: pick, Redact: &redactor{}, Ready: func(a, _ net.Addr) { addr <- a }})
		done <- r
	}()
	nc, err := net.Dial("tcp", (<-addr).String())
	require.NoError(t, err)
	cl, err := lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "protocol", SDKVersion: "1"})
	require.NoError(t, err)
	login, err := cl.Login(nil, []byte(id), codec.NewSecret([]byte("pw")))
	require.NoError(t, err)
	_, err = nc.Write(login)
	require.NoError(t, err)
	_ = nc.SetReadDeadline(time.Now().Add(5 * time.Second))
	f, err := codec.ReadFrame(nc, nil, codec.MaxFrameSize)
	require.NoError(t, err)
	l, ok := loginReply(f)
	require.True(t, ok, "%x", f)
	assert.Equal(t, protocol0111, l.ServerProtocol)
	nc.Close()
	r := <-done
	assert.Equal(t, "0.11.1", r.Protocol)

	for _, bad := range []string{"0.11.2", "0.10.0", "x"} {
		_, err := serveProtocol(bad)
		assert.Error(t, err, bad)
	}
	v, err := serveProtocol("0.11.0")
	require.NoError(t, err)
	assert.Equal(t, protocol0110, v)
}
