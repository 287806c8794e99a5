package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// testAccounts are the server's accounts in the client-mode tests: other
// names and secrets than the vectors', so the kit's mapping is exercised.
const testAccounts = "alice:al1ce-pw\ncarol:car0l-pw\ntok-alice-1=alice\ntok-carol-2=carol\n"

// testSecrets are the secrets of testAccounts, which no report may show.
var testSecrets = []string{"al1ce-pw", "car0l-pw", "tok-alice-1", "tok-carol-2"}

func testAccountsFile(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "users")
	require.NoError(t, os.WriteFile(p, []byte(testAccounts), 0o600))
	return p
}

func clientAccounts(t *testing.T, file string) *accounts {
	t.Helper()
	var a accounts
	require.NoError(t, a.fromFile(file))
	require.NoError(t, a.markInactive([]string{"carol"}))
	return &a
}

// startLoginServer builds cmd/loginserver and runs it on a free loopback
// port with the test accounts and no login throttle.
func startLoginServer(t *testing.T, file string, extra ...string) string {
	t.Helper()
	bin := loginServerBinary(t)
	cmd := exec.Command(bin, append([]string{"-addr", "127.0.0.1:0", "-users-file", file, "-inactive", "carol", "-login-burst", "0", "-accept-burst", "-1"}, extra...)...)
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
	})
	addr := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`msg=listening addr=(\S+)`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
	}()
	select {
	case a := <-addr:
		return a
	case <-time.After(20 * time.Second):
		t.Fatal("loginserver did not start")
	}
	return ""
}

// The loginserver binary, built once for the package's tests.
var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

func loginServerBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		if binDir, buildErr = os.MkdirTemp("", "conform-test"); buildErr != nil {
			return
		}
		build := exec.Command("go", "build", "-o", filepath.Join(binDir, "loginserver"), "./loginserver")
		build.Dir = ".."
		if out, err := build.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("%v: %s", err, out)
		}
	})
	require.NoError(t, buildErr)
	return filepath.Join(binDir, "loginserver")
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		_ = os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// playAgainst runs client mode against addr.
func playAgainst(t *testing.T, addr string, a *accounts, wait time.Duration) *Report {
	return playWith(t, addr, a, wait, false)
}

// playWith is playAgainst, allowing evictions 1 and 13 the server's own id
// when evictOwnID is set.
func playWith(t *testing.T, addr string, a *accounts, wait time.Duration, evictOwnID bool) *Report {
	return playAt(t, addr, a, wait, evictOwnID, codec.DefaultWindow(codec.MustPack(0, 11, 0)))
}

// playAt is playWith against a server of window w.
func playAt(t *testing.T, addr string, a *accounts, wait time.Duration, evictOwnID bool, w codec.Window) *Report {
	t.Helper()
	vs, reg := loadAll(t)
	cases, err := clientCases(vs, reg)
	require.NoError(t, err)
	return runClient(clientOptions{Addr: addr, Agent: "server", Wait: wait, Stall: 100 * time.Millisecond, EvictOwnID: evictOwnID,
		Window: w, Accounts: a, Cases: cases, Redact: &redactor{secrets: a.secrets()}})
}

// cmd/loginserver passes every case at each -protocol, the kit told the
// same; and a second run against the same server passes too: the cases'
// client ids are the run's own (isolate), so the logical sessions an
// earlier run or case left behind answer for none of them.
func TestClientModeLoginServerPasses(t *testing.T) {
	for _, proto := range []string{"0.11.0", "0.11.1", "0.11.0,0.11.1"} {
		t.Run(proto, func(t *testing.T) {
			t.Parallel()
			file := testAccountsFile(t)
			addr := startLoginServer(t, file, "-protocol", proto)
			w, err := parseWindow(proto, "")
			require.NoError(t, err)
			for run := range 2 {
				r := playAt(t, addr, clientAccounts(t, file), 2*time.Second, false, w)
				assert.Empty(t, failing(r), "run %d", run+1)
				vs, _ := loadAll(t)
				assert.Greater(t, len(r.Cases), len(vs.kind("lifecycle")))
				t.Logf("client mode at %s, run %d: %d cases, %d pass", w, run+1, len(r.Cases), r.Summary.Pass)
				b, err := json.Marshal(r)
				require.NoError(t, err)
				for _, s := range testSecrets {
					assert.NotContains(t, string(b), s)
					assert.NotContains(t, string(b), hexOf(s))
				}
				assert.Equal(t, []int{1, 2}, connsOf(r, "v555"), "the bind goes on a second connection, as the vector's step says")
			}
		})
	}
}

// connsOf lists the connections the frames of case id went on.
func connsOf(r *Report, id string) []int {
	var conns []int
	for _, c := range r.Cases {
		if c.ID != id {
			continue
		}
		for _, f := range c.Frames {
			if len(conns) == 0 || conns[len(conns)-1] < f.Conn {
				conns = append(conns, f.Conn)
			}
		}
	}
	return conns
}

func hexOf(s string) string {
	const digits = "0123456789abcdef"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteByte(digits[s[i]>>4])
		b.WriteByte(digits[s[i]&15])
	}
	return b.String()
}

// Bugs a forgetfulServer plants.
const (
	answersDrops   = iota // forgets lifecycle rule 8: answers a frame it must drop
	staysOpen             // forgets lifecycle rule 1: keeps the connection after an eviction
	repeatsSession        // forgets lifecycle rule 1.sessions: tells every login session 1
	bindsAnySecret        // forgets section 10.4 f: a BIND_SESSION binds whatever secret it carries
	bindsNothing          // forgets section 10.4 i: a BIND_SESSION is answered but the connection stays unbound
)

// forgetfulServer is the lifecycle on TCP with one rule forgotten.
func forgetfulServer(t *testing.T, a *accounts, bug int) string {
	t.Helper()
	srv, err := lifecycle.NewServer(lifecycle.Config{Window: codec.DefaultWindow(codec.MustPack(0, 11, 0)), Auth: a.auth()})
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { _ = ln.Close() })
	var secrets sync.Map // client id -> the bind secret of its last 0.11.1 login (bindsAnySecret)
	go func() {
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer nc.Close()
				conn := srv.NewConn()
				for {
					frame, err := codec.ReadFrame(nc, nil, 1<<20)
					if err != nil {
						return
					}
					handler := conn
					if isBind(frame) {
						switch bug {
						case bindsAnySecret:
							frame = withSecretOf(frame, &secrets)
						case bindsNothing:
							handler = srv.NewConn()
						}
					} else if bug == bindsAnySecret {
						rememberSecret(frame, &secrets)
					}
					out, _, err := handler.Handle(frame, nil)
					if bug == answersDrops && errors.Is(err, lifecycle.ErrDropped) {
						out = pingReply(codec.StatusInvalidCommand)
					}
					if _, login := loginReply(out); login && bug == repeatsSession {
						binary.LittleEndian.PutUint64(out[264:], 1)
					}
					if _, werr := nc.Write(out); werr != nil || conn.Closed() && bug != staysOpen {
						return
					}
				}
			}()
		}
	}()
	return ln.Addr().String()
}

// playModel runs a case's frames through the model the kit expects with,
// each on its step's connection of one model server, and tells each
// answer to see.
func playModel(t *testing.T, c clientCase, a *accounts, see func(out []byte, o *lifecycle.Outcome, err error)) {
	t.Helper()
	srv, err := lifecycle.NewServer(lifecycle.Config{Window: codec.DefaultWindow(codec.MustPack(0, 11, 0)), Auth: a.auth()})
	require.NoError(t, err)
	var conns []*lifecycle.Conn
	for _, s := range c.steps {
		for len(conns) <= s.conn {
			conns = append(conns, srv.NewConn())
		}
		for _, f := range s.frames {
			out, o, err := conns[s.conn].Handle(rewriteCredentials(f, c.server, a), nil)
			see(out, o, err)
		}
	}
}

// isBind reports whether a frame is a BIND_SESSION request.
func isBind(f []byte) bool {
	var h codec.RequestHeader
	return h.Decode(f) == nil && h.Operation == codec.OperationNonReplicated && h.Code == codec.CodeBindSession
}

// rememberSecret keeps the bind secret of a 0.11.1 login by its client id.
func rememberSecret(f []byte, secrets *sync.Map) {
	var h codec.RequestHeader
	if h.Decode(f) != nil || h.Operation != codec.OperationRegister {
		return
	}
	if l, _, err := codec.DecodeLoginRegisterRev(f[codec.HeaderSize:], codec.RevisionBindSecret); err == nil {
		secrets.Store(h.Client, bytes.Clone(l.BindSecret.Bytes()))
	}
}

// withSecretOf puts in a BIND_SESSION the secret its client's login
// carried, whatever secret it came with.
func withSecretOf(f []byte, secrets *sync.Map) []byte {
	b, _, err := codec.DecodeBindSession(f[codec.HeaderSize:])
	if err != nil {
		return f
	}
	if s, ok := secrets.Load(b.ClientID); ok {
		f = bytes.Clone(f)
		at := codec.HeaderSize + b.Info.EncodedLen() + 32
		copy(f[at:at+codec.BindSecretLen], s.([]byte))
	}
	return f
}

// expectedOutcomes says whether the model drops one of a case's frames
// and whether it evicts.
func expectedOutcomes(t *testing.T, c clientCase, a *accounts) (dropped, evicted bool) {
	t.Helper()
	playModel(t, c, a, func(_ []byte, o *lifecycle.Outcome, err error) {
		switch outcome(o, err) {
		case "dropped":
			dropped = true
		case "evicted":
			evicted = true
		}
	})
	return dropped, evicted
}

// plantedServerBug runs client mode against a forgetful server and checks
// that exactly the cases the forgotten rule decides fail.
func plantedServerBug(t *testing.T, bug int, wait time.Duration, decides func(dropped, evicted bool) bool) {
	t.Helper()
	a := clientAccounts(t, testAccountsFile(t))
	r := playAgainst(t, forgetfulServer(t, a, bug), a, wait)
	vs, reg := loadAll(t)
	cases, err := clientCases(vs, reg)
	require.NoError(t, err)
	want := map[string]bool{}
	for _, c := range cases {
		if c.overCap {
			continue
		}
		if decides(expectedOutcomes(t, c, a)) {
			want[c.ID] = true
		}
	}
	failsExactly(t, r, want, "")
	assert.Greater(t, len(want), 10)
}

func TestClientModeCatchesAnsweredDrops(t *testing.T) {
	plantedServerBug(t, answersDrops, 2*time.Second, func(dropped, _ bool) bool { return dropped })
}

func TestClientModeCatchesOpenAfterEviction(t *testing.T) {
	t.Parallel()
	plantedServerBug(t, staysOpen, 100*time.Millisecond, func(_, evicted bool) bool { return evicted })
}

// loginserver -evict-own-id answers eviction 1 with its own id for the
// connection, as the reference server does: the kit's -evict-own-id passes
// it, and without the flag the kit reports exactly the cases with an
// eviction 1.
func TestClientModeEvictOwnID(t *testing.T) {
	t.Parallel()
	file := testAccountsFile(t)
	addr := startLoginServer(t, file, "-evict-own-id")
	a := clientAccounts(t, file)
	assert.Empty(t, failing(playWith(t, addr, a, 2*time.Second, true)))

	vs, reg := loadAll(t)
	cases, err := clientCases(vs, reg)
	require.NoError(t, err)
	want := map[string]bool{}
	for _, c := range cases {
		playModel(t, c, a, func(_ []byte, o *lifecycle.Outcome, err error) {
			if err == nil && o.Reason == codec.ReasonNoSession {
				want[c.ID] = true
			}
		})
	}
	failsExactly(t, playWith(t, addr, a, 2*time.Second, false), want, "client at 128")
	assert.Greater(t, len(want), 3)
}

// A server that tells every login session 1 breaks the vectors' rule
// session (above every session handed out before): every case with a login
// reply fails on it, but the run's first, whose session 1 is above none.
func TestClientModeCatchesRepeatedSessions(t *testing.T) {
	t.Parallel()
	a := clientAccounts(t, testAccountsFile(t))
	r := playAgainst(t, forgetfulServer(t, a, repeatsSession), a, 100*time.Millisecond)
	vs, reg := loadAll(t)
	cases, err := clientCases(vs, reg)
	require.NoError(t, err)
	var logins []string
	for _, c := range cases {
		login := false
		playModel(t, c, a, func(out []byte, _ *lifecycle.Outcome, err error) {
			_, ok := loginReply(out)
			login = login || err == nil && ok
		})
		if login {
			logins = append(logins, c.ID)
		}
	}
	require.Greater(t, len(logins), 10)
	got := failing(r)
	t.Logf("%d cases with a login reply, %d fail", len(logins), len(got))
	for _, id := range logins[1:] {
		assert.Contains(t, got[id], "session", id)
	}
	for id := range got {
		assert.Contains(t, logins, id, "%s fails without a login reply", id)
	}
}

// A case may open more connections: a login on the first, a logout on a
// second carrying the first's session (a session belongs to its
// connection: Eviction 1, then the second closes), and a logout on the
// first under its session, which only the session the server handed out
// gets answered. The kit plays each connection against its own model
// connection of one model server.
func TestClientModeSecondConnection(t *testing.T) {
	t.Parallel()
	file := testAccountsFile(t)
	addr := startLoginServer(t, file)
	a := clientAccounts(t, file)
	vs, _ := loadAll(t)
	def := vs.Files["lifecycle"].Servers["default"]
	bound := &sessionRef{Offset: 184, Step: 0}
	logout := request(codec.RequestHeader{Client: hostileClient, Request: 1, Session: 1, Operation: codec.OperationLogout}, nil)
	require.NotEmpty(t, logout)
	c := clientCase{ID: "x1", Name: "test/second-connection", server: &def, steps: []clientStep{
		{frames: [][]byte{vectorLogin(hostileClient)}},
		{conn: 1, frames: [][]byte{logout}, sessions: []*sessionRef{bound}},
		{frames: [][]byte{logout}, sessions: []*sessionRef{bound}},
	}}
	r := runClient(clientOptions{Addr: addr, Agent: "server", Wait: 2 * time.Second, Stall: 100 * time.Millisecond,
		Window: codec.DefaultWindow(codec.MustPack(0, 11, 0)), Accounts: a, Cases: []clientCase{c}, Redact: &redactor{secrets: a.secrets()}})
	require.Len(t, r.Cases, 1)
	got := r.Cases[0]
	assert.Equal(t, verdictPass, got.Verdict, got.Observed)
	assert.Contains(t, got.Expected, "on connection 2, Eviction reason 1")
	conns := map[int]bool{}
	for _, f := range got.Frames {
		conns[f.Conn] = true
	}
	assert.Equal(t, map[int]bool{1: true, 2: true}, conns)
}

// A server that binds whatever secret a BIND_SESSION carries fails the
// cases that send a wrong one (the vector's and the kit's), and one that
// answers a bind without binding the connection fails every case that
// uses a bound connection; both pass the rest of the bind cases.
func TestClientModeCatchesBindBugs(t *testing.T) {
	t.Parallel()
	a := clientAccounts(t, testAccountsFile(t))
	r := playAgainst(t, forgetfulServer(t, a, bindsAnySecret), a, 200*time.Millisecond)
	got := failing(r)
	for _, id := range []string{"v557", "c16"} {
		assert.Contains(t, got, id)
	}
	for _, id := range []string{"v555", "v556", "c15", "c17", "c18"} {
		assert.NotContains(t, got, id)
	}
	r = playAgainst(t, forgetfulServer(t, a, bindsNothing), a, 200*time.Millisecond)
	got = failing(r)
	for _, id := range []string{"v555", "c15", "c16", "c18"} {
		assert.Contains(t, got[id], "Eviction reason 1", id)
	}
	for _, id := range []string{"v557", "c17"} {
		assert.NotContains(t, got, id)
	}
}

// The kit's bind cases draw their secrets afresh for each catalogue, and
// no report shows one: each is a known secret of the run.
func TestBindCasesHideTheirSecrets(t *testing.T) {
	t.Parallel()
	file := testAccountsFile(t)
	addr := startLoginServer(t, file, "-protocol", "0.11.1")
	a := clientAccounts(t, file)
	vs, reg := loadAll(t)
	cases, err := clientCases(vs, reg)
	require.NoError(t, err)
	again, err := clientCases(vs, reg)
	require.NoError(t, err)
	var bind []clientCase
	for i, c := range cases {
		if strings.HasPrefix(c.Name, "bind/") {
			require.Len(t, c.secrets, 2, c.ID)
			assert.NotEqual(t, c.secrets[0], again[i].secrets[0], "a secret is drawn for each catalogue")
			bind = append(bind, c)
		}
	}
	require.Len(t, bind, 4)
	w, err := parseWindow("0.11.1", "")
	require.NoError(t, err)
	r := runClient(clientOptions{Addr: addr, Agent: "server", Wait: 2 * time.Second, Stall: 100 * time.Millisecond,
		Window: w, Accounts: a, Cases: bind, Redact: &redactor{secrets: a.secrets()}})
	assert.Empty(t, failing(r))
	b, err := json.Marshal(r)
	require.NoError(t, err)
	for _, c := range bind {
		for _, s := range c.secrets {
			assert.NotContains(t, string(b), hexOf(string(s)), c.ID)
		}
	}
	assert.Contains(t, string(b), strings.Repeat("**", codec.BindSecretLen), "the login's secret shows as **")
}
