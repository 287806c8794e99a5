package lifecycle_test

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// The 0.11.1 lifecycle vectors (vectors/lifecycle.json, WIRE.md section 10)
// are a server's: request frames in, answers out. Through them a Client
// must build the requests (byte for byte, but where a step says which
// bytes the vector's sender chose otherwise, and why) and read each answer
// as WIRE.md sections 8 and 10.4 say. A step the Client would not send at
// all (it knows the session is gone) is refused locally, in agreement with
// the server's refusal.

// lifecycleVector is a case of vectors/lifecycle.json.
type lifecycleVector struct {
	ID      int    `json:"id"`
	Name    string `json:"name"`
	Section string `json:"section"`
	Steps   []struct {
		In   string `json:"in"`
		Out  string `json:"out"`
		Conn int    `json:"conn"`
	} `json:"steps"`
}

// span is a byte range of a request frame the Client may send otherwise
// than the vector, and why.
type span struct {
	from, to int
	why      string
}

// Byte ranges of the frames of the vectors.
var (
	// The vectors' BIND_SESSION headers carry session 0; the Client sends
	// the session it binds, as the Go and C# SDKs do (WIRE.md section
	// 10.3: the server does not look at it).
	spanBindHeaderSession = span{184, 192, "header session: the bound session (WIRE.md 10.3)"}
	// The body of a BIND_SESSION of CVI "go-sdk"/"0.1.0" starts at 256:
	// CVI is 4+1+6+1+5 = 17 bytes, then client id, session, watermark and
	// secret.
	spanBindSession = span{256 + 17 + 16, 256 + 17 + 24, "body session: the vector binds a session the Client does not hold"}
	spanBindSecret  = span{256 + 17 + 32, 256 + 17 + 64, "bind secret: the vector sends a wrong one"}
	spanProtocol    = span{256, 260, "CVI protocol: the vector sends a version the Client does not speak"}
	spanBody        = span{48, 52, "size: the vector's body does not decode"} // with the body itself, see wholeBody
)

// vectorClient is a Client of a case: its id and protocol, and the first
// byte of its bind secret (all 32 bytes are that byte), as in the vectors.
type vectorClient struct {
	id     uint64
	proto  codec.Version
	secret byte
}

// vectorStep is what the Client does for a step.
type vectorStep struct {
	do        string // login, pat, bind, replicated, logout, request (NonReplicated, the vector's code), or refuse (the Client builds nothing)
	client    string
	unsent    bool // a login is built first and never sent (its reply is lost)
	lost      bool // the answer is lost: not read
	diff      []span
	wholeBody bool // the vector's body is not one the Client can build: compare the header only
	refuse    error
}

// clientVectorScripts says, for every 0.11.1 case, what the Client does.
var clientVectorScripts = map[int]struct {
	clients map[string]vectorClient
	steps   []vectorStep
}{
	550: {map[string]vectorClient{"a": {0x1111, v0111, 0x5a}, "b": {0x2222, v0111, 0xbb}},
		[]vectorStep{{do: "login", client: "a"}, {do: "pat", client: "b"}}},
	551: {map[string]vectorClient{"a": {0x1111, codec.Protocol0110, 0}}, []vectorStep{{do: "login", client: "a"}}},
	552: {map[string]vectorClient{"a": {0x1111, v0111, 0x5a}}, []vectorStep{{do: "login", client: "a"}}},
	553: {map[string]vectorClient{"a": {0x1111, codec.Protocol0110, 0}, "b": {0x2222, v0111, 0x5a}},
		[]vectorStep{{do: "login", client: "a"}, {do: "login", client: "b"}}},
	554: {map[string]vectorClient{"a": {0x1111, v0111, 0x5a}}, []vectorStep{{do: "login", client: "a"}}},
	555: {map[string]vectorClient{"a": {0x1111, v0111, 0x5a}}, []vectorStep{
		{do: "login", client: "a"},
		{do: "bind", client: "a", diff: []span{spanBindHeaderSession}},
		{do: "replicated", client: "a"},
	}},
	556: {map[string]vectorClient{"a": {0x1111, v0111, 0x5a}}, []vectorStep{
		{do: "login", client: "a", lost: true},
		{do: "bind", client: "a"},
	}},
	557: {map[string]vectorClient{"a": {0x1111, v0111, 0x5a}}, []vectorStep{
		{do: "login", client: "a"},
		{do: "bind", client: "a", diff: []span{spanBindHeaderSession, spanBindSecret}},
		{do: "refuse", client: "a", refuse: lifecycle.ErrLoginAgain},
		{do: "refuse", client: "a", refuse: lifecycle.ErrNoSession},
	}},
	558: {map[string]vectorClient{"a": {0x1111, v0111, 0x5a}}, []vectorStep{
		{do: "login", client: "a"},
		{do: "logout", client: "a"},
		{do: "refuse", client: "a", refuse: lifecycle.ErrLoginAgain},
	}},
	559: {map[string]vectorClient{"c": {0x3333, v0111, 0x5a}, "c2": {0x3333, v0111, 0x5a}}, []vectorStep{
		{do: "bind", client: "c", unsent: true},
		{do: "bind", client: "c2", unsent: true, diff: []span{spanBindSession}},
	}},
	560: {map[string]vectorClient{"a": {0x1111, codec.Protocol0110, 0}}, []vectorStep{
		{do: "login", client: "a"},
		{do: "refuse", client: "a", refuse: lifecycle.ErrLoginAgain},
	}},
	561: {map[string]vectorClient{"a": {0x1111, v0111, 0x5a}}, []vectorStep{
		{do: "login", client: "a"},
		{do: "bind", client: "a", diff: []span{spanBindHeaderSession, spanBindSession}},
	}},
	562: {map[string]vectorClient{"a": {0x1111, v0111, 0x5a}, "a2": {0x1111, v0111, 0x5a}, "a3": {0x1111, v0111, 0x5a}}, []vectorStep{
		{do: "bind", client: "a", unsent: true, wholeBody: true},
		{do: "bind", client: "a2", unsent: true, wholeBody: true},
		{do: "bind", client: "a3", unsent: true, diff: []span{spanProtocol}},
	}},
	563: {map[string]vectorClient{"a": {0x1111, v0111, 0x5a}, "a2": {0x1111, v0111, 0x5a}}, []vectorStep{
		{do: "bind", client: "a", unsent: true, diff: []span{spanProtocol}},
		{do: "bind", client: "a2", unsent: true, diff: []span{spanProtocol}},
	}},
	// a logs in on connection 0; a2, the same logical session on
	// connection 1 (its login's reply lost, so it binds session 0), is
	// logged out by a's logout: a ping passes, a command is 40, a
	// replicated request eviction 1.
	564: {map[string]vectorClient{"a": {0x1111, v0111, 0x5a}, "a2": {0x1111, v0111, 0x5a}}, []vectorStep{
		{do: "login", client: "a"},
		{do: "bind", client: "a2", unsent: true, diff: []span{spanBindSession}},
		{do: "logout", client: "a"},
		{do: "request", client: "a2"},
		{do: "request", client: "a2"},
		{do: "replicated", client: "a2"},
	}},
	// an eviction ends the logical session: the Client no longer binds it,
	// and the server refuses the bind too.
	565: {map[string]vectorClient{"a": {0x1111, v0111, 0x5a}}, []vectorStep{
		{do: "login", client: "a"},
		{do: "request", client: "a"},
		{do: "refuse", client: "a", refuse: lifecycle.ErrLoginAgain},
	}},
}

// vectorRand is a Client's randomness: its id, then its bind secret.
func vectorRand(vc vectorClient) *bytes.Reader {
	b := make([]byte, 16, 48)
	binary.LittleEndian.PutUint64(b, vc.id)
	return bytes.NewReader(append(b, bytes.Repeat([]byte{vc.secret}, 32)...))
}

func TestClientThroughVectors0111(t *testing.T) {
	raw, err := os.ReadFile("../vectors/lifecycle.json")
	require.NoError(t, err, "the vectors (make vectors writes them)")
	var file struct {
		Cases []lifecycleVector `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(raw, &file))
	ran := 0
	for _, v := range file.Cases {
		if !strings.HasPrefix(v.Section, "10") {
			continue
		}
		script, ok := clientVectorScripts[v.ID]
		if !ok {
			t.Errorf("vector %d %s: no script says what a Client does in it", v.ID, v.Name)
			continue
		}
		ran++
		t.Run(fmt.Sprintf("%d_%s", v.ID, v.Name), func(t *testing.T) {
			require.Equal(t, len(v.Steps), len(script.steps), "steps")
			clients := map[string]*lifecycle.Client{}
			for key, vc := range script.clients {
				c, err := lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "go-sdk", SDKVersion: "0.1.0", Protocol: vc.proto, Rand: vectorRand(vc)})
				require.NoError(t, err)
				clients[key] = c
			}
			for i, step := range script.steps {
				in, err := hex.DecodeString(v.Steps[i].In)
				require.NoError(t, err)
				out, err := hex.DecodeString(v.Steps[i].Out)
				require.NoError(t, err)
				runVectorStep(t, fmt.Sprintf("step %d (%s)", i, step.do), clients[step.client], step, in, out)
			}
		})
	}
	assert.Equal(t, len(clientVectorScripts), ran, "every script has its vector")
}

// runVectorStep makes c build step's request, compares it with in, and
// reads out as its answer.
func runVectorStep(t *testing.T, name string, c *lifecycle.Client, step vectorStep, in, out []byte) {
	t.Helper()
	if step.unsent {
		_, err := c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
		require.NoError(t, err, name)
	}
	frame, err := buildVectorStep(c, step, in)
	if step.do == "refuse" {
		require.ErrorIs(t, err, step.refuse, name)
		// the server refuses it too: an eviction or a non-zero status
		refused := out[60] == byte(codec.CommandEviction) || binary.LittleEndian.Uint32(out[216:]) != 0
		assert.True(t, refused, "%s: the Client refuses what the server accepts", name)
		return
	}
	require.NoError(t, err, name)
	compareVectorFrame(t, name, frame, in, step)
	if step.lost {
		return
	}
	r, err := c.Receive(out)
	checkVectorAnswer(t, name, c, step, out, r, err)
}

// buildVectorStep is the request step asks of c; the credentials are the
// vector's.
func buildVectorStep(c *lifecycle.Client, step vectorStep, in []byte) ([]byte, error) {
	body := in[codec.HeaderSize:]
	switch step.do {
	case "login":
		info, _, err := codec.DecodeClientVersionInfo(body)
		if err != nil {
			return nil, err
		}
		l, err := codec.ParseLoginRegisterRev(body, codec.RevisionOf(info.Protocol))
		if err != nil {
			return nil, err
		}
		return c.Login(nil, l.Username, l.Password)
	case "pat":
		l, err := codec.ParseLoginRegisterPATRev(body, codec.RevisionBindSecret)
		if err != nil {
			return nil, err
		}
		return c.LoginPAT(nil, l.Token)
	case "bind":
		return c.BindSession(nil)
	case "replicated", "refuse":
		if step.refuse == lifecycle.ErrLoginAgain {
			return c.BindSession(nil)
		}
		return c.Replicated(nil, codec.Operation(in[176]), body)
	case "logout":
		return c.Logout(nil)
	case "request":
		return c.Request(nil, codec.Code(binary.LittleEndian.Uint32(in[196:])), body)
	}
	return nil, errors.New("unknown step " + step.do)
}

// compareVectorFrame checks that frame is in, but for step's spans.
func compareVectorFrame(t *testing.T, name string, frame, in []byte, step vectorStep) {
	t.Helper()
	got, want := bytes.Clone(frame), bytes.Clone(in)
	spans := step.diff
	if step.wholeBody {
		got, want = got[:codec.HeaderSize], want[:codec.HeaderSize]
		spans = append(spans, spanBody)
	}
	require.Equal(t, len(want), len(got), "%s: frame length", name)
	for _, s := range spans {
		copy(got[s.from:s.to], want[s.from:s.to])
	}
	if !bytes.Equal(got, want) {
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%s: the Client's frame differs from the vector's at byte %d: %#x, want %#x", name, i, got[i], want[i])
			}
		}
	}
}

// checkVectorAnswer checks what c made of the answer out, as WIRE.md
// sections 8 and 10.4 say.
func checkVectorAnswer(t *testing.T, name string, c *lifecycle.Client, step vectorStep, out []byte, r lifecycle.Response, err error) {
	t.Helper()
	st := c.State()
	if out[60] == byte(codec.CommandEviction) {
		require.Error(t, err, name)
		assert.True(t, st.Closed, "%s: an eviction closes the client", name)
		assert.False(t, st.Resumable, "%s: an eviction ends the logical session", name)
		return
	}
	status := codec.Status(binary.LittleEndian.Uint32(out[216:]))
	switch {
	case step.do == "bind" && status == codec.StatusOK:
		require.NoError(t, err, name)
		lr, perr := codec.ParseLoginReply(out[codec.HeaderSize:])
		require.NoError(t, perr, name)
		assert.Equal(t, lr.Session, st.Session, name)
		assert.Equal(t, lr.Session, r.Login.Session, name)
		assert.True(t, st.Resumable, name)
	case step.do == "bind" && (status == codec.StatusTransientNotAccepted || status == codec.StatusTransientNotCommitted):
		var te *lifecycle.TransientError
		require.ErrorAs(t, err, &te, name)
		assert.Equal(t, status, te.Status, name)
		assert.True(t, st.Resumable, "%s: a transient answer keeps the logical session", name)
	case step.do == "bind":
		var be *lifecycle.BindRefusedError
		require.ErrorAs(t, err, &be, name)
		assert.Equal(t, status, be.Status, name)
		require.ErrorIs(t, err, lifecycle.ErrLoginAgain, name)
		require.ErrorIs(t, err, status.Err(), name)
		assert.False(t, st.Resumable || st.Closed, "%s: log in again, on the same connection", name)
	case status != codec.StatusOK:
		require.ErrorIs(t, err, status.Err(), name)
	case step.do == "login" || step.do == "pat":
		require.NoError(t, err, name)
		assert.Equal(t, r.Login.Session, st.Session, name)
		assert.NotZero(t, st.Session, name)
	default:
		require.NoError(t, err, name)
	}
}
