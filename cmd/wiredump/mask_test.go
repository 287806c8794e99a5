package main

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
)

// secretPair is one body or frame built twice, with two secrets of the
// same length that differ in every byte.
type secretPair struct {
	name    string
	a, b    []byte
	secrets [2][]string // the secrets planted in a and in b
	frame   bool        // a frame: cut with its size field as built and set to the cut's length
	fields  []int       // the sizes of the body's fields, in wire order
}

// infoFields are the field sizes of info.
var infoFields = []int{4, 1, len(info.SDKName), 1, len(info.SDKVersion)}

// pairSecrets returns two secrets of n bytes that differ in every byte
// (printable ASCII, so that each is valid UTF-8 like a real password).
func pairSecrets(n int) (string, string) {
	a, b := make([]byte, n), make([]byte, n)
	for i := range n {
		a[i] = 'A' + byte(i*7%26)
		b[i] = 'a' + byte(i*11%26)
	}
	return string(a), string(b)
}

// bindSecrets returns two 32-byte bind secrets that differ in every byte,
// neither printable: any value is a bind secret.
func bindSecrets() ([]byte, []byte) {
	a, b := make([]byte, codec.BindSecretLen), make([]byte, codec.BindSecretLen)
	for i := range a {
		a[i], b[i] = byte(0x80+i*2), byte(0xc1+i)
	}
	return a, b
}

// secretPairs builds login and token bodies of both revisions, with and
// without context, and BIND_SESSION, each alone and as a frame, with a
// short and a long secret (one that puts the body past 256 bytes, where
// a header reading reads it).
func secretPairs(t *testing.T) []secretPair {
	var out []secretPair
	bsA, bsB := bindSecrets()
	for _, n := range []int{24, 255} {
		sa, sb := pairSecrets(n)
		for _, rev := range []codec.Revision{codec.RevisionBase, codec.RevisionBindSecret} {
			in := info
			var bind [2]codec.Secret
			if rev == codec.RevisionBindSecret {
				in.Protocol = codec.Protocol0111
				bind = [2]codec.Secret{secret(string(bsA)), secret(string(bsB))}
			}
			for _, ctx := range [][]byte{nil, []byte("ctx")} {
				var bodies [2][2][]byte // [login, pat][a, b]
				for i, s := range []string{sa, sb} {
					var err error
					bodies[0][i], err = codec.LoginRegister{Info: in, Revision: rev, BindSecret: bind[i], Username: []byte("iggy"),
						Password: secret(s), Context: ctx}.AppendBinary(nil)
					require.NoError(t, err)
					bodies[1][i], err = codec.LoginRegisterPAT{Info: in, Revision: rev, BindSecret: bind[i], Token: secret(s),
						Context: ctx}.AppendBinary(nil)
					require.NoError(t, err)
				}
				for j, shape := range []string{"login", "pat"} {
					name := fmt.Sprintf("%s/%s/n=%d/ctx=%d", shape, rev, n, len(ctx))
					secrets := [2][]string{{sa}, {sb}}
					if rev == codec.RevisionBindSecret {
						secrets = [2][]string{{sa, string(bsA)}, {sb, string(bsB)}}
					}
					a, b := bodies[j][0], bodies[j][1]
					fields := slices.Clone(infoFields)
					if rev == codec.RevisionBindSecret {
						fields = append(fields, codec.BindSecretLen)
					}
					if shape == "login" {
						fields = append(fields, 1, 4)
					}
					fields = append(fields, 1, n, 4, len(ctx))
					out = append(out, secretPair{name: name, a: a, b: b, secrets: secrets, fields: fields},
						secretPair{name: name + "/frame", a: requestFrame(t, codec.OperationRegister, a),
							b: requestFrame(t, codec.OperationRegister, b), secrets: secrets, frame: true, fields: fields})
					if rev == codec.RevisionBindSecret {
						// The bind-secret layout labelled 0.11.0, as upstream
						// development builds send it (WIRE.md section 10.1).
						a, b := relabel0110(a), relabel0110(b)
						out = append(out, secretPair{name: name + "/labelled-0.11.0", a: a, b: b, secrets: secrets, fields: fields},
							secretPair{name: name + "/labelled-0.11.0/frame", a: requestFrame(t, codec.OperationRegister, a),
								b: requestFrame(t, codec.OperationRegister, b), secrets: secrets, frame: true, fields: fields})
					}
				}
			}
		}
	}
	var bind [2][]byte
	for i, s := range [][]byte{bsA, bsB} {
		var err error
		bind[i], err = codec.BindSession{Info: codec.ClientVersionInfo{Protocol: codec.Protocol0111, SDKName: []byte("go-sdk"),
			SDKVersion: []byte("0.1.0")}, ClientID: codec.Uint128From(7), Session: 9, BindSecret: secret(string(s))}.AppendBinary(nil)
		require.NoError(t, err)
	}
	secrets := [2][]string{{string(bsA)}, {string(bsB)}}
	h := codec.RequestHeader{Client: codec.Uint128From(7), Operation: codec.OperationNonReplicated, Code: codec.CodeBindSession, Request: 1}
	fa, err := codec.AppendRequestFrame(nil, h, bind[0])
	require.NoError(t, err)
	fb, err := codec.AppendRequestFrame(nil, h, bind[1])
	require.NoError(t, err)
	fields := append(slices.Clone(infoFields), 16, 8, 8, codec.BindSecretLen)
	out = append(out, secretPair{name: "bind_session", a: bind[0], b: bind[1], secrets: secrets, fields: fields},
		secretPair{name: "bind_session/frame", a: fa, b: fb, secrets: secrets, frame: true, fields: fields})
	la, lb := relabel0110(bind[0]), relabel0110(bind[1])
	fa, err = codec.AppendRequestFrame(nil, h, la)
	require.NoError(t, err)
	fb, err = codec.AppendRequestFrame(nil, h, lb)
	require.NoError(t, err)
	out = append(out, secretPair{name: "bind_session/labelled-0.11.0", a: la, b: lb, secrets: secrets, fields: fields},
		secretPair{name: "bind_session/labelled-0.11.0/frame", a: fa, b: fb, secrets: secrets, frame: true, fields: fields})
	out = append(out, devBuildPairs(t)...)
	return append(out, chunkedPairs(out)...)
}

// chunkedPairs are the first login frame and the first BIND_SESSION frame
// of pairs as FuzzConn's chunks ([flags u8][len u16][frame], -kind conn)
// and as FuzzClient's steps ([action u8] then a chunk, -kind client): the
// secrets lie past a prefix only those kinds read.
func chunkedPairs(pairs []secretPair) []secretPair {
	var out []secretPair
	for _, want := range []string{"login", "bind_session"} {
		i := slices.IndexFunc(pairs, func(p secretPair) bool { return p.frame && strings.HasPrefix(p.name, want) })
		p := pairs[i]
		for _, prefix := range [][]byte{{0}, {0, 0}} { // a chunk's flags; a step's action, then the flags
			wrap := func(frame []byte) []byte {
				return binary.LittleEndian.AppendUint16(slices.Clone(prefix), uint16(len(frame))) // then the frame
			}
			out = append(out, secretPair{name: fmt.Sprintf("%s/chunk after %d bytes", p.name, len(prefix)),
				a: append(wrap(p.a), p.a...), b: append(wrap(p.b), p.b...), secrets: p.secrets,
				fields: append([]int{len(prefix) + 2, codec.HeaderSize}, p.fields...)})
		}
	}
	return out
}

// relabel0110 returns a copy of body, a 0.11.1 body, with the version
// 0.11.0: the bind-secret layout under 0.11.0, which the encoders refuse
// to write (rule body.revision.version), so the test writes the bytes.
func relabel0110(body []byte) []byte {
	out := slices.Clone(body)
	binary.LittleEndian.PutUint32(out, uint32(codec.Protocol0110))
	return out
}

// devBuildPairs are password logins of an upstream development build
// (the bind-secret layout labelled 0.11.0, a prerelease SDK version) whose
// bind secrets are printable and begin with small bytes: read in the
// 0.11.0 layout, the secret's bytes are taken for the username's length,
// the username and the password's length, and its chunks' flags and
// lengths when read as -kind conn or client.
func devBuildPairs(t *testing.T) []secretPair {
	in := codec.ClientVersionInfo{Protocol: codec.Protocol0111, SDKName: []byte("iggy-go"), SDKVersion: []byte("0.11.0-edge.1")}
	var out []secretPair
	for _, lead := range []string{"\x04", "\x1a", ""} {
		sa, sb := pairSecrets(codec.BindSecretLen - len(lead))
		sa, sb = lead+sa, lead+sb
		pa, pb := pairSecrets(15)
		var bodies [2][]byte
		for i, s := range [2][2]string{{sa, pa}, {sb, pb}} {
			b, err := codec.LoginRegister{Info: in, Revision: codec.RevisionBindSecret, BindSecret: secret(s[0]),
				Username: []byte("iggy"), Password: secret(s[1])}.AppendBinary(nil)
			require.NoError(t, err)
			bodies[i] = relabel0110(b)
		}
		name := fmt.Sprintf("dev-build login/lead=%q", lead)
		secrets := [2][]string{{sa, pa}, {sb, pb}}
		fields := []int{4, 1, len(in.SDKName), 1, len(in.SDKVersion), codec.BindSecretLen, 1, 4, 1, len(pa), 4, 0}
		out = append(out, secretPair{name: name, a: bodies[0], b: bodies[1], secrets: secrets, fields: fields},
			secretPair{name: name + "/frame", a: requestFrame(t, codec.OperationRegister, bodies[0]),
				b: requestFrame(t, codec.OperationRegister, bodies[1]), secrets: secrets, frame: true, fields: fields})
	}
	return out
}

// cuts returns the lengths to cut p to, one or more of every class: at,
// one before and one after each edge of a body field, and one inside it
// (a cut at the start of a length field, inside a text or a secret, ...);
// the same at the header fields that a reading acts on when it reads the
// input as a header (size, command, operation, code, the end of the
// header: a body of 256 bytes or more is read as one); and the first
// bytes, where the ClientVersionInfo and, read as chunks, the first chunk
// lengths lie.
func cuts(p secretPair) []int {
	n := len(p.a)
	var out []int
	add := func(c int) {
		if c >= 0 && c <= n && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	for c := range 8 {
		add(c)
	}
	for _, at := range []int{48, 52, 60, 61, 176, 177, 196, 200, codec.HeaderSize} {
		add(at - 1)
		add(at)
		add(at + 1)
	}
	at := 0
	if p.frame {
		at = codec.HeaderSize
	}
	for _, size := range p.fields {
		add(at - 1)
		add(at)
		add(at + 1)
		add(at + size/2)
		at += size
	}
	add(n - 1)
	add(n)
	slices.Sort(out)
	return out
}

// TestOutputIndependentOfSecrets runs wiredump in every -kind, as text and
// as JSON, over cuts of login and token bodies and frames (with and without
// context, both revisions, BIND_SESSION) built with two secrets of the same
// length: the outputs must be equal, and neither secret may show, as text
// or as hex. A frame is cut with its size field as built and with it set to
// the cut's length. A file under FuzzDifferential/ (read as every) is run
// through the command for some cuts too, and with -ref in one kind.
func TestOutputIndependentOfSecrets(t *testing.T) {
	pairs := secretPairs(t)
	dumps := 0
	crasher := writeFile(t, "FuzzDifferential", "crasher", nil)
	for _, p := range pairs {
		runs := runsOf(append(slices.Clone(p.secrets[0]), p.secrets[1]...)...)
		for _, n := range cuts(p) {
			inputs := [][2][]byte{{p.a[:n], p.b[:n]}}
			if p.frame && n >= codec.HeaderSize {
				inputs = append(inputs, [2][]byte{withSize(p.a[:n], uint32(n)), withSize(p.b[:n], uint32(n))})
			}
			for _, in := range inputs {
				for _, kind := range kinds() {
					outA, outB := dumpBoth(t, in[0], kind), dumpBoth(t, in[1], kind)
					dumps += 2
					if outA != outB {
						require.Failf(t, "the output depends on the secret", "%s cut to %d, -kind %s:\n%s\n---- other secret:\n%s",
							p.name, n, kind, outA, outB)
					}
					if s, ok := runs.holdsSecret(outA); ok { // outB is the same
						require.Failf(t, "a secret shows", "%s cut to %d, -kind %s: %q in\n%s", p.name, n, kind, s, outA)
					}
				}
			}
			if n%9 == 0 { // through the command, as make triage reads a crasher
				var outs [2]string
				for i, src := range [][]byte{p.a[:n], p.b[:n]} {
					require.NoError(t, os.WriteFile(crasher, src, 0o600))
					_, text, _ := runWith(nil, crasher)
					_, js, _ := runWith(nil, "-json", crasher)
					_, ref, _ := runWith(nil, "-ref", "-kind", kinds()[n%len(kinds())], crasher)
					outs[i] = text + js + ref
					if s, ok := runs.holdsSecret(outs[i]); ok {
						require.Failf(t, "a secret shows", "%s cut to %d under FuzzDifferential/ or with -ref: %q in\n%s", p.name, n, s, outs[i])
					}
					require.Contains(t, text, "read as every")
				}
				require.Equal(t, outs[0], outs[1], "%s cut to %d under FuzzDifferential/", p.name, n)
			}
		}
	}
	t.Logf("%d inputs, %d dumps, each as text and JSON", len(pairs), dumps)
}

// dumpBoth returns the text and the JSON output of src read as kind.
func dumpBoth(t *testing.T, src []byte, kind string) string {
	r, err := Dump(src, kind)
	require.NoError(t, err)
	var out bytes.Buffer
	require.NoError(t, r.WriteText(&out))
	require.NoError(t, r.WriteJSON(&out))
	return out.String()
}

// secretRuns holds every run of 4 bytes of some secrets, as a u32.
type secretRuns map[uint32]bool

func runsOf(secrets ...string) secretRuns {
	runs := secretRuns{}
	for _, s := range secrets {
		for i := 0; i+4 <= len(s); i++ {
			runs[binary.LittleEndian.Uint32([]byte(s[i:]))] = true
		}
	}
	return runs
}

// holdsSecret reports whether out holds a run of 4 bytes of the secrets:
// as bytes, as hex digits (either case) or as \xHH escapes.
func (runs secretRuns) holdsSecret(out string) (string, bool) {
	has := func(b []byte) (string, bool) {
		for i := 0; i+4 <= len(b); i++ {
			if runs[binary.LittleEndian.Uint32(b[i:])] {
				return fmt.Sprintf("%q", b[i:i+4]), true
			}
		}
		return "", false
	}
	if run, ok := has([]byte(out)); ok {
		return run, true
	}
	// Runs of hex digits, and runs of \xHH escapes, decoded.
	isHex := func(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }
	for i := 0; i < len(out); {
		j := i
		for j < len(out) && isHex(out[j]) {
			j++
		}
		if j-i >= 8 {
			if b, err := hex.DecodeString(out[i : i+(j-i)/2*2]); err == nil {
				if run, ok := has(b); ok {
					return run, true
				}
			}
			if b, err := hex.DecodeString(out[i+1 : i+1+(j-i-1)/2*2]); err == nil {
				if run, ok := has(b); ok {
					return run, true
				}
			}
		}
		i = j + 1
	}
	for i := strings.Index(out, `\x`); i >= 0; {
		var b []byte
		j := i
		for ; j+4 <= len(out) && out[j:j+2] == `\x`; j += 4 {
			v, err := hex.DecodeString(out[j+2 : j+4])
			if err != nil {
				break
			}
			b = append(b, v...)
		}
		if run, ok := has(b); ok {
			return run, true
		}
		k := strings.Index(out[j+1:], `\x`)
		if k < 0 {
			break
		}
		i = j + 1 + k
	}
	return "", false
}

// TestMaskReadsNoMaskedByte: the mask of an input is the same whatever
// its masked bytes hold; here every masked byte is replaced by each value
// in turn.
func TestMaskReadsNoMaskedByte(t *testing.T) {
	for _, p := range secretPairs(t) {
		for _, n := range []int{len(p.a), len(p.a) - 1, len(p.a) / 2} {
			src := p.a[:n]
			mask := secretMask(src)
			for _, v := range []byte{0, 1, 5, 0x2c, 0x7f, 0xff} {
				other := bytes.Clone(src)
				for i, m := range mask {
					if m {
						other[i] = v
					}
				}
				require.Equal(t, mask, secretMask(other), "%s cut to %d, masked bytes %#x", p.name, n, v)
			}
		}
	}
}

// TestMaskCoversEverySecret: the password, token and bind secret of
// every body and frame, cut anywhere, are masked.
func TestMaskCoversEverySecret(t *testing.T) {
	for _, p := range secretPairs(t) {
		var at [][2]int
		for _, s := range p.secrets[0] {
			i := bytes.Index(p.a, []byte(s))
			require.GreaterOrEqual(t, i, 0, p.name)
			at = append(at, [2]int{i, i + len(s)})
		}
		for n := range len(p.a) + 1 {
			mask := secretMask(p.a[:n])
			for _, r := range at {
				for i := r[0]; i < min(r[1], n); i++ {
					require.True(t, mask[i], "%s cut to %d: byte %d of a secret", p.name, n, i)
				}
			}
		}
	}
}

// TestLoginBodyOfItsVersionStillDecodes: a 0.11.0 login frame still
// shows its fields; the username, which the token shape reads as a token,
// and the password are redacted.
func TestLoginBodyOfItsVersionStillDecodes(t *testing.T) {
	frame := requestFrame(t, codec.OperationRegister, loginBody(t, marker))
	r, out := dumpTrusting(t, frame, kindAuto)
	require.True(t, r.OK, out)
	login := section(t, r, "LoginRegister ")
	require.Equal(t, statusOK, login.Status)
	require.Equal(t, "[REDACTED n=4]", value(t, login, "username").Value)
	require.Equal(t, `"ctx"`, value(t, login, "context").Value)
	require.Equal(t, `"go-sdk"`, value(t, login, "sdk_name").Value)
}

// TestTokenReadAsAUsernameIsMasked: a token body whose context is invalid
// UTF-8 where the password shape reads its context_len fails as a token
// body and parses as a password login with the token as its username. In
// no kind does any of the token show, and the password reading's username
// is redacted: the token shape's length puts a token there.
func TestTokenReadAsAUsernameIsMasked(t *testing.T) {
	const token = "tok-Zq9-as-name"
	b, err := info.AppendBinary(nil)
	require.NoError(t, err)
	b = append(append(b, byte(len(token))), token...)
	b = append(b, 8, 0, 0, 0, 'a', 'b', 'c', 'd', 'e', 0x80, 0, 0, 0)
	b = append(b, bytes.Repeat([]byte("x"), 128)...)
	_, _, err = codec.DecodeLoginRegisterPAT(b)
	require.Error(t, err)
	for _, src := range [][]byte{b, requestFrame(t, codec.OperationRegister, b)} {
		for _, kind := range kinds() {
			out := dumpBoth(t, src, kind)
			require.NotContains(t, out, token[:6], kind)
			require.NotContains(t, strings.ToLower(out), hex.EncodeToString([]byte(token[:6])), kind)
		}
	}
	r, _ := dumpTrusting(t, b, kindLogin)
	require.Equal(t, statusOK, r.Sections[0].Status)
	require.Equal(t, redacted(len(token)), value(t, r.Sections[0], "username").Value)
}
