//go:build go1.25

// The go:debug line that synctest needs is synctest_test.go's.

package tcp_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/attack"
	"github.com/iggywire/iggywire/internal/lifecycletest"
	"github.com/iggywire/iggywire/lifecycle"
	"github.com/iggywire/iggywire/lifecycle/tcp"
)

// The per-connection service on a fake clock: peers that do not read,
// flooding peers, guessing from many addresses, stalled unauthenticated
// frames, replayed transient logins and the pre-VSR framing.

// loggedIn returns n peers of a, each logged in (one at a time, so that
// none pushes another out of the pre-login budget).
func loggedIn(t *testing.T, a *arena, n int) []*wire {
	t.Helper()
	ws := make([]*wire, n)
	for i := range ws {
		ws[i] = a.wire(nil)
		if _, err := ws[i].login(); err != nil {
			t.Fatalf("peer %d: login: %v", i, err)
		}
	}
	return ws
}

// TestHostileNotReading is the short form of the soak's "nonreaders":
// logged-in peers that pipeline pings and never read their answers are
// closed as CauseNotReading once WriteStall passes without progress, long
// before WriteTimeout, and the probe gets in.
func TestHostileNotReading(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const peers, stall = 8, 200 * time.Millisecond
		a := startPipeArena(t, nil, tcp.ServeOptions{WriteStall: stall})
		start := time.Now()
		var written atomic.Int64
		end := during(t, func(stop <-chan struct{}) {
			attack.Peers(a.dial, nil, peers, -1, stop, attack.Pipeline("iggy", "iggy", &written, nil))
		})
		a.probe(nil)
		awaitAtLeast(t, func() int { return a.rec.closedBy(tcp.CauseNotReading) }, peers,
			"peers that do not read are closed: %d closed as not-reading, want %d")
		if d := time.Since(start); d < stall || d > stall+50*time.Millisecond {
			t.Fatalf("closed %v after they stopped reading, want WriteStall %v", d, stall)
		}
		if n := a.rec.closedBy(tcp.CauseWriteTimeout); n != 0 {
			t.Fatalf("%d closed by WriteTimeout, want 0", n)
		}
		end()
		a.checkBaseline()
	})
}

// TestListenerWriteStallProgress: a reader that takes a byte within each
// WriteStall keeps its connection, however slow; one that lets a whole
// WriteStall pass without taking any is closed at it.
func TestListenerWriteStallProgress(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const stall = 100 * time.Millisecond
		closed, a := startWatched(t, tcp.ServeOptions{WriteStall: stall, WriteTimeout: time.Hour, LoginTimeout: time.Hour}, 2)
		readSlowly := func(w *wire, every time.Duration) ([]byte, error) {
			frame, err := w.c.Ping(nil)
			if err != nil {
				t.Fatalf("Ping: %v", err)
			}
			if _, err := w.nc.Write(frame); err != nil {
				t.Fatalf("Write: %v", err)
			}
			answer := make([]byte, codec.HeaderSize)
			for i := range answer {
				time.Sleep(every)
				if _, err := w.nc.Read(answer[i : i+1]); err != nil {
					return answer[:i], err
				}
			}
			return answer, nil
		}

		slow := a.wire(nil)
		_ = slow.nc.SetDeadline(time.Time{}) // the fake clock runs past testTimeout
		start := time.Now()
		answer, err := readSlowly(slow, stall/2)
		if err != nil {
			t.Fatalf("a byte every WriteStall/2: read %d bytes, then %v", len(answer), err)
		}
		if _, err := slow.c.Receive(answer); err != nil {
			t.Fatalf("the answer read a byte at a time: %v", err)
		}
		if d, want := time.Since(start), codec.HeaderSize*stall/2; d != want {
			t.Fatalf("answer read in %v, want %v", d, want)
		}
		if _, err := slow.do(slow.c.Ping(nil)); err != nil {
			t.Fatalf("and the connection stays: %v", err)
		}

		stalled := a.wire(nil)
		start = time.Now()
		if _, err := readSlowly(stalled, 3*stall/2); err == nil {
			t.Fatalf("a byte every 1.5 WriteStall: the answer was read, want the connection closed")
		}
		how := closed.next(t)
		if how.Cause != tcp.CauseNotReading {
			t.Fatalf("closed by %v, want %v", how.Cause, tcp.CauseNotReading)
		}
		if d := time.Since(start); d != 3*stall/2 {
			t.Fatalf("the first read found the connection closed after %v, want %v", d, 3*stall/2)
		}
	})
}

// TestHostileFlooders: logged-in peers each pipelining thousands of pings
// at once are all answered, in order, and the probe logs in among them.
// Nothing paces a connection by a clock: the whole flood is served
// without the fake clock moving (a rate, or a wait for a share of one,
// would move it). How the machine is shared when it is short is the
// soak's to measure (the pipeline and throughput scenarios).
func TestHostileFlooders(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const peers, pings = 10, 2000
		a := startPipeArena(t, nil, tcp.ServeOptions{})
		start := time.Now()
		var wg sync.WaitGroup
		errs := make(chan error, peers)
		for _, w := range loggedIn(t, a, peers) {
			batch := pingBatch(t, w, pings)
			_ = w.nc.SetDeadline(time.Time{})
			wg.Add(2)
			go func() {
				defer wg.Done()
				if _, err := w.nc.Write(batch); err != nil {
					errs <- err
				}
			}()
			go func() {
				defer wg.Done()
				errs <- readPings(w.nc, pings)
			}()
		}
		a.probe(nil)
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatalf("a flooder: %v", err)
			}
		}
		if d := time.Since(start); d != 0 {
			t.Fatalf("%d flooders x %d pings took %v of the fake clock, want 0: nothing waits for a rate", peers, pings, d)
		}
		a.checkBaseline()
	})
}

// readPings reads n ping answers from nc and checks they answer pings
// 1..n (pingBatch's stamps), in order.
func readPings(nc net.Conn, n int) error {
	buf := make([]byte, 0, codec.HeaderSize)
	for i := range n {
		answer, err := codec.ReadFrame(nc, buf[:0], codec.HeaderSize)
		if err != nil {
			return fmt.Errorf("answer %d: %w", i, err)
		}
		h, err := codec.DecodeReplyHeader(answer)
		if err != nil || h.Status != 0 || h.RequestChecksum.Lo != uint64(i+1) {
			return fmt.Errorf("answer %d: ping %d, status %v, error %v; want ping %d, status 0", i, h.RequestChecksum.Lo, h.Status, err, i+1)
		}
	}
	return nil
}

// TestHostileGuessingAccounts: wrong passwords for one account from many
// addresses reach the Authenticator at the account's budget, a fresh
// address's first guess included (rotating addresses buys none); the
// owner's right password from an address where it logged in before still
// logs in, and from any other it waits for the account's refill like a
// guess.
func TestHostileGuessingAccounts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const addrs, rounds, burst, rate = 20, 5, 4, 2.0
		auth := &countingAuth{Authenticator: lifecycletest.Auth}
		srv, err := lifecycle.NewServer(lifecycle.Config{Window: lifecycletest.Window, Version: lifecycletest.ServerVersion, Auth: auth})
		if err != nil {
			t.Fatalf("NewServer: %v", err)
		}
		// The per-address budget does not bind here: only the account's does.
		a := startPipeArena(t, srv, tcp.ServeOptions{LoginBurst: 1000, LoginRate: 1000,
			AccountLoginBurst: burst, AccountLoginRate: rate})
		login := func(from net.IP, pass string) error {
			t.Helper()
			w := a.wire(from)
			_, err := w.do(w.c.Login(nil, []byte("iggy"), codec.NewSecret([]byte(pass))))
			if err := w.nc.Close(); err != nil {
				t.Fatalf("Close: %v", err)
			}
			return err
		}
		attacker := func(i int) net.IP { return net.IPv4(127, 0, 1, byte(i+1)) }
		refused := codec.StatusInvalidCredentials.Err()
		owner := net.IPv4(127, 0, 2, 1)
		if err := login(owner, "iggy"); err != nil {
			t.Fatalf("the owner's login before the attack: %v", err)
		}
		for range rounds {
			for i := range addrs {
				if err := login(attacker(i), "guess"); !errors.Is(err, refused) {
					t.Fatalf("guess from %v: error = %v, want %v", attacker(i), err, refused)
				}
			}
		}
		if n, want := auth.checks.Load(), int64(1+burst); n != want {
			t.Fatalf("%d guesses from %d addresses: credential checks = %d, want %d (the owner's, then the account's burst)",
				addrs*rounds, addrs, n, want)
		}
		if err := login(owner, "iggy"); err != nil {
			t.Fatalf("the owner from where it logged in before logs in during the attack: %v", err)
		}
		if err := login(net.IPv4(127, 0, 2, 2), "iggy"); !errors.Is(err, refused) {
			t.Fatalf("the right password from a fresh address, the account spent: error = %v, want %v", err, refused)
		}
		if err := login(attacker(0), "iggy"); !errors.Is(err, refused) {
			t.Fatalf("the right password from an address that failed, the account spent: error = %v, want %v", err, refused)
		}
		time.Sleep(time.Duration(float64(time.Second) / rate))
		if err := login(attacker(0), "iggy"); err != nil {
			t.Fatalf("after 1/AccountLoginRate a check runs again: %v", err)
		}
		if n, want := auth.checks.Load(), int64(1+burst+2); n != want {
			t.Fatalf("credential checks = %d, want %d", n, want)
		}
		a.checkBaseline()
	})
}

// TestHostileStalledPreLoginFrames is the short form of the soak's
// "stalled-large": connections not logged in that announce large frames
// and stall hold at most PreLoginFrameMemory of the large-frame budget, so
// a logged-in client's large frame is read at once.
func TestHostileStalledPreLoginFrames(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const size = 1 << 20
		a := startPipeArena(t, nil, tcp.ServeOptions{MaxFrame: size})
		user := loggedIn(t, a, 1)[0]
		stalled, refused := attack.Stall(a.dial, nil, 8, size)
		defer func() {
			for _, nc := range stalled {
				_ = nc.Close()
			}
		}()
		if refused > 0 {
			t.Fatalf("%d of 8 connections did not stall", refused)
		}
		synctest.Wait()
		start := time.Now()
		// The client's id is minted by Login; the frame carries it.
		if _, err := user.c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy"))); err != nil {
			t.Fatalf("Login: %v", err)
		}
		frame := bigLogin(t, user.c, 200<<10)
		if _, err := user.do(frame, nil); err != nil {
			t.Fatalf("the logged-in client's 200 KiB frame: %v", err)
		}
		if d := time.Since(start); d != 0 {
			t.Fatalf("the logged-in client's frame waited %v, want 0", d)
		}
		preLogin := tcp.DefaultServeOptions().PreLoginFrameMemory
		if peak, limit := tcp.LargeFramePeak(a.l), int64(preLogin+len(frame)); peak > limit {
			t.Fatalf("large frames held at once peaked at %d bytes, want at most %d", peak, limit)
		}
		a.checkBaseline()
	})
}

// TestListenerReplayWindow: a login answered with 57 is replayed on the
// same connection past LoginTimeout, within ReplayTimeout of the last 57;
// a connection that stops replaying is closed at ReplayTimeout.
func TestListenerReplayWindow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const replays = 3
		srv, err := lifecycle.NewServer(lifecycle.Config{Window: lifecycletest.Window, Version: lifecycletest.ServerVersion,
			Auth: lifecycletest.Auth, Transient: lifecycle.Transient{Status: codec.StatusTransientNotCommitted, Count: replays + 1}})
		if err != nil {
			t.Fatalf("NewServer: %v", err)
		}
		a := startPipeArena(t, srv, tcp.ServeOptions{LoginTimeout: 10 * time.Second, ReplayTimeout: 30 * time.Second})
		var transient *lifecycle.TransientError
		idle := a.wire(nil)
		_ = idle.nc.SetDeadline(time.Time{}) // the fake clock runs past testTimeout
		if _, err := idle.login(); !errors.As(err, &transient) {
			t.Fatalf("error = %v, want a 57", err)
		}
		start := time.Now()
		if !idle.closedByServer() {
			t.Fatalf("a connection that does not replay is closed: it was not")
		}
		if d := time.Since(start); d != 30*time.Second {
			t.Fatalf("closed %v after its 57, want ReplayTimeout %v", d, 30*time.Second)
		}
		awaitEqual(t, func() int { return a.rec.closedBy(tcp.CauseLoginTimeout) }, 1, "%d closed by the login timeout, want %d")

		w := a.wire(nil)
		_ = w.nc.SetDeadline(time.Time{})
		for i := range replays {
			if _, err := w.login(); !errors.As(err, &transient) || transient.Status != codec.StatusTransientNotCommitted {
				t.Fatalf("login %d: error = %v, want a 57", i, err)
			}
			time.Sleep(25 * time.Second) // past LoginTimeout, within ReplayTimeout
		}
		r, err := w.login()
		if err != nil || r.Login.Session == 0 {
			t.Fatalf("the replay %v after the first login logs in: session %d, error %v", replays*25*time.Second, r.Login.Session, err)
		}
		awaitEqual(t, func() int { return a.rec.loginsBy("TransientNotCommitted") }, replays+1,
			"%d logins told the observer as 57 (its code, not a status 0), want %d")
		a.checkBaseline()
	})
}

// legacyFrame is a request in the pre-VSR framing: [length u32][code u32]
// and a payload, the length counting the code and the payload.
func legacyFrame(code codec.Code, payload []byte) []byte {
	b := binary.LittleEndian.AppendUint32(nil, uint32(4+len(payload)))
	b = binary.LittleEndian.AppendUint32(b, uint32(code))
	return append(b, payload...)
}

// TestListenerLegacyFraming: a frame in the pre-VSR framing closes the
// connection at its eighth byte, as CauseLegacyFraming, without an answer
// and without waiting for LoginTimeout, however the bytes arrive.
func TestListenerLegacyFraming(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Each case breaks the protocol, which costs its address its accept
		// budget: the accept-rate limit is off here.
		closed, a := startWatched(t, tcp.ServeOptions{AcceptBurst: -1}, 4)
		login := legacyFrame(codec.CodeLoginUser, []byte("\x04iggy\x04iggy"))
		for _, c := range []struct {
			name   string
			frame  []byte
			splits []int
		}{
			{"an old SDK's login", login, nil},
			{"an old SDK's ping", legacyFrame(codec.CodePing, nil), nil},
			{"the prefix in two writes", login, []int{3}},
			{"byte by byte", login, []int{1, 2, 3, 4, 5, 6, 7}},
		} {
			w := a.wire(nil)
			start, at := time.Now(), 0
			for _, s := range append(c.splits, len(c.frame)) {
				if _, err := w.nc.Write(c.frame[at:s]); err != nil && s <= 8 {
					t.Fatalf("%s: Write: %v", c.name, err)
				}
				at = s
			}
			how := closed.next(t)
			if how.Cause != tcp.CauseLegacyFraming || how.Frames != 0 {
				t.Fatalf("%s: closed by %v after %d frames, want %v after 0", c.name, how.Cause, how.Frames, tcp.CauseLegacyFraming)
			}
			if d := time.Since(start); d != 0 {
				t.Fatalf("%s: closed after %v, want at once", c.name, d)
			}
			if got, err := w.nc.Read(make([]byte, 1)); got != 0 || err == nil {
				t.Fatalf("%s: nothing is answered: read %d bytes, error %v", c.name, got, err)
			}
		}
		// A VSR header whose checksum is set but is no such prefix is served.
		w := a.wire(nil)
		frame, err := w.c.Ping(nil)
		if err != nil {
			t.Fatalf("Ping: %v", err)
		}
		copy(frame, bytes.Repeat([]byte{0xA5}, 16))
		if _, err := w.do(frame, nil); err != nil {
			t.Fatalf("a ping with a checksum: %v", err)
		}
	})
}
