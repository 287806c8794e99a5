package codec_test

import (
	"encoding/binary"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/iggywire/iggywire/codec"
)

// The rule ids of *codec.Error are the ids of vectors/rules.json. The tests
// here hold the codec to that: every error site, reached through the API,
// reports the id of its rule, with the rule's sentinel; every rule constant
// of the package is an id of the file; no error site builds its id; and
// Error() reads as documented.

// vectorRule is a rule of vectors/rules.json.
type vectorRule struct {
	ID       string `json:"id"`
	Class    string `json:"class"`
	Sentinel string `json:"sentinel"`
}

// vectorRules reads ../vectors/rules.json, by id.
func vectorRules(t *testing.T) map[string]vectorRule {
	t.Helper()
	b, err := os.ReadFile("../vectors/rules.json")
	if err != nil {
		t.Fatalf("the vectors' rules: %v (make vectors writes them)", err)
	}
	var f struct{ Rules []vectorRule }
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatalf("../vectors/rules.json: %v", err)
	}
	rules := map[string]vectorRule{}
	for _, r := range f.Rules {
		rules[r.ID] = r
	}
	return rules
}

// sentinelNames are the sentinel names of rules.json, by codec sentinel.
var sentinelNames = map[error]string{
	codec.ErrTruncated: "truncated", codec.ErrCommand: "command", codec.ErrSize: "size",
	codec.ErrReserved: "reserved", codec.ErrField: "field", codec.ErrReason: "reason",
	codec.ErrWindow: "window", codec.ErrLength: "length", codec.ErrUTF8: "utf8",
	codec.ErrTrailing: "trailing", codec.ErrRange: "range", codec.ErrSyntax: "syntax",
}

// Inputs for the error sites, built here byte by byte.

func siteText8(s string) []byte { return append([]byte{byte(len(s))}, s...) }

func siteText32(s string) []byte {
	return append(binary.LittleEndian.AppendUint32(nil, uint32(len(s))), s...)
}

func siteCat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func siteInfo(name, version string) []byte {
	return siteCat([]byte{0x00, 0x2c, 0, 0}, siteText8(name), siteText8(version))
}

func siteLogin(user, pass, ctx string) []byte {
	return siteCat(siteInfo("go-sdk", "0.1.0"), siteText8(user), siteText8(pass), siteText32(ctx))
}

func sitePAT(token, ctx string) []byte {
	return siteCat(siteInfo("go-sdk", "0.1.0"), siteText8(token), siteText32(ctx))
}

func siteReply(session uint64, version string) []byte {
	b := binary.LittleEndian.AppendUint32(nil, 1)
	b = binary.LittleEndian.AppendUint64(b, session)
	b = binary.LittleEndian.AppendUint32(b, 0x2C00)
	return append(b, siteText8(version)...)
}

// siteHeader is a valid header of command cmd from client 5, size 256,
// changed by set: a Register request, a Register reply with status 0, or
// an eviction with reason 1.
func siteHeader(cmd byte, set func(h []byte)) []byte {
	h := make([]byte, 256)
	binary.LittleEndian.PutUint32(h[48:], 256)
	h[60] = cmd
	switch cmd {
	case 5:
		h[128], h[176] = 5, 1
	case 8:
		h[160], h[208] = 5, 1
	case 13:
		h[128], h[255] = 5, 1
	}
	if set != nil {
		set(h)
	}
	return h
}

func put32At(off int, v uint32) func([]byte) {
	return func(h []byte) { binary.LittleEndian.PutUint32(h[off:], v) }
}

func byteAt(off int, v byte) func([]byte) { return func(h []byte) { h[off] = v } }

// nonReplicated makes a request NonReplicated with code 1 and request 1.
func nonReplicated(h []byte) { h[176], h[168], h[196] = 2, 1, 1 }

// replicated makes a request a Logout with session 3 and request 2.
func replicated(h []byte) { h[176], h[184], h[168] = 3, 3, 2 }

func decodeReq(h []byte) error { _, err := codec.DecodeRequestHeader(h); return err }
func decodeRep(h []byte) error { _, err := codec.DecodeReplyHeader(h); return err }
func decodeEv(h []byte) error  { _, err := codec.DecodeEviction(h); return err }

// ruleSite is one way to reach an error site and the id it must report.
type ruleSite struct {
	name string
	err  func() error
	rule string
}

// ruleSites reaches every error site of the package through its API, each
// with the rule its input breaks, decoders and encoders alike.
func ruleSites() []ruleSite {
	long := strings.Repeat("x", 256)
	info := codec.ClientVersionInfo{Protocol: 0x2C00, SDKName: []byte("go-sdk"), SDKVersion: []byte("0.1.0")}
	req := codec.RequestHeader{Size: 256, Client: codec.Uint128From(5), Operation: codec.OperationRegister}
	rep := codec.ReplyHeader{Size: 256, Operation: codec.OperationRegister}
	ev := codec.NewEviction(codec.Uint128From(5), codec.ReasonNoSession)
	reply := codec.LoginReply{UserID: 1, Session: 42, ServerVersion: []byte("0.6.0")}
	login := codec.LoginRegister{Info: info, Username: []byte("iggy"), Password: codec.NewSecret([]byte("iggy"))}
	pat := codec.LoginRegisterPAT{Info: info, Token: codec.NewSecret([]byte("tok"))}
	with := func(f func(*codec.LoginRegister)) codec.LoginRegister { l := login; f(&l); return l }
	withPAT := func(f func(*codec.LoginRegisterPAT)) codec.LoginRegisterPAT { l := pat; f(&l); return l }
	cviErr := func(b []byte) func() error {
		return func() error { _, _, err := codec.DecodeClientVersionInfo(b); return err }
	}
	loginErr := func(b []byte) func() error {
		return func() error { _, _, err := codec.DecodeLoginRegister(b); return err }
	}
	patErr := func(b []byte) func() error {
		return func() error { _, _, err := codec.DecodeLoginRegisterPAT(b); return err }
	}
	replyErr := func(b []byte) func() error {
		return func() error { _, _, err := codec.DecodeLoginReply(b); return err }
	}
	header := func(decode func([]byte) error, cmd byte, set func([]byte)) func() error {
		return func() error { return decode(siteHeader(cmd, set)) }
	}
	return []ruleSite{
		// Version text and Pack (section 1).
		{"ParseVersion v1.2.3", func() error { _, err := codec.ParseVersion("v1.2.3"); return err }, "version.text.digits"},
		{"ParseVersion 1.2", func() error { _, err := codec.ParseVersion("1.2"); return err }, "version.text.dot"},
		{"ParseVersion 1.2.3x", func() error { _, err := codec.ParseVersion("1.2.3x"); return err }, "version.text.end"},
		{"ParseVersion 1.2.1024", func() error { _, err := codec.ParseVersion("1.2.1024"); return err }, "version.text.range"},
		{"UnmarshalText 1..2", func() error { var v codec.Version; return v.UnmarshalText([]byte("1..2")) }, "version.text.digits"},
		{"Pack 1024", func() error { _, err := codec.Pack(1024, 0, 0); return err }, "version.text.range"},

		// ClientVersionInfo (section 2), alone and inside a login body.
		{"cvi empty", cviErr(nil), "cvi.truncated"},
		{"cvi sdk_name empty", cviErr(siteInfo("", "0.1.0")), "cvi.sdk_name.length"},
		{"cvi sdk_name UTF-8", cviErr(siteInfo("go\xff", "0.1.0")), "cvi.sdk_name.utf8"},
		{"cvi sdk_version empty", cviErr(siteInfo("go-sdk", "")), "cvi.sdk_version.length"},
		{"cvi sdk_version UTF-8", cviErr(siteInfo("go-sdk", "0.\xff")), "cvi.sdk_version.utf8"},
		{"cvi trailing", func() error {
			_, err := codec.ParseClientVersionInfo(siteCat(siteInfo("g", "1"), []byte{0}))
			return err
		}, "body.trailing"},
		{"cvi Validate sdk_name 256", func() error { c := info; c.SDKName = []byte(long); return c.Validate() }, "cvi.sdk_name.length"},
		{"cvi AppendBinary sdk_version UTF-8", func() error { c := info; c.SDKVersion = []byte("\xc3"); _, err := c.AppendBinary(nil); return err }, "cvi.sdk_version.utf8"},
		{"login cut in its ClientVersionInfo", loginErr(siteInfo("go-sdk", "0.1.0")[:9]), "cvi.truncated"},
		{"pat cut in its ClientVersionInfo", patErr(siteInfo("go-sdk", "0.1.0")[:2]), "cvi.truncated"},
		{"login sdk_name empty", loginErr(siteCat(siteInfo("", "0.1.0"), siteText8("iggy"), siteText8(""), siteText32(""))), "cvi.sdk_name.length"},
		{"login Validate sdk_version empty", func() error { return with(func(l *codec.LoginRegister) { l.Info.SDKVersion = nil }).Validate() }, "cvi.sdk_version.length"},

		// LOGIN_REGISTER (section 3).
		{"login cut after ClientVersionInfo", loginErr(siteInfo("go-sdk", "0.1.0")), "login.truncated"},
		{"login cut in context_len", loginErr(siteLogin("iggy", "iggy", "")[:29]), "login.truncated"},
		{"login username empty", loginErr(siteLogin("", "iggy", "")), "login.username.length"},
		{"login username UTF-8", loginErr(siteLogin("ig\xffgy", "iggy", "")), "login.username.utf8"},
		{"login password UTF-8", loginErr(siteLogin("iggy", "\xc3", "")), "login.password.utf8"},
		{"login context claim", loginErr(siteLogin("iggy", "iggy", "abc")[:33]), "login.context.claim"},
		{"login context UTF-8", loginErr(siteLogin("iggy", "iggy", "ok\x80")), "login.context.utf8"},
		{"login trailing", func() error {
			_, err := codec.ParseLoginRegister(siteCat(siteLogin("iggy", "iggy", ""), []byte{0}))
			return err
		}, "body.trailing"},
		{"login Validate username 256", func() error { return with(func(l *codec.LoginRegister) { l.Username = []byte(long) }).Validate() }, "login.username.length"},
		{"login Validate password 256", func() error {
			return with(func(l *codec.LoginRegister) { l.Password = codec.NewSecret([]byte(long)) }).Validate()
		}, "login.password.length"},
		{"login AppendBinary password UTF-8", func() error {
			_, err := with(func(l *codec.LoginRegister) { l.Password = codec.NewSecret([]byte("\xff")) }).AppendBinary(nil)
			return err
		}, "login.password.utf8"},
		{"login Validate context UTF-8", func() error { return with(func(l *codec.LoginRegister) { l.Context = []byte("\xff") }).Validate() }, "login.context.utf8"},

		// LOGIN_REGISTER_WITH_PAT (section 3).
		{"pat cut after ClientVersionInfo", patErr(siteInfo("go-sdk", "0.1.0")), "pat.truncated"},
		{"pat token UTF-8", patErr(sitePAT("t\xfe", "")), "pat.token.utf8"},
		{"pat context claim", patErr(sitePAT("tok", "abcdef")[:26]), "pat.context.claim"},
		{"pat context UTF-8", patErr(sitePAT("tok", "\xed\xa0\x80")), "pat.context.utf8"},
		{"pat trailing", func() error {
			_, err := codec.ParseLoginRegisterPAT(siteCat(sitePAT("tok", ""), []byte{0}))
			return err
		}, "body.trailing"},
		{"pat Validate token 256", func() error {
			return withPAT(func(l *codec.LoginRegisterPAT) { l.Token = codec.NewSecret([]byte(long)) }).Validate()
		}, "pat.token.length"},
		{"pat AppendBinary context UTF-8", func() error {
			_, err := withPAT(func(l *codec.LoginRegisterPAT) { l.Context = []byte("\x80") }).AppendBinary(nil)
			return err
		}, "pat.context.utf8"},

		// Protocol 0.11.1 (section 10): the bind secret of both login
		// bodies, the revision argument, and BIND_SESSION.
		{"login 0.11.1 cut in its bind secret", func() error {
			_, _, err := codec.DecodeLoginRegisterRev(siteCat(siteInfo("go-sdk", "0.1.0"), make([]byte, 31)), codec.RevisionBindSecret)
			return err
		}, "login.truncated"},
		{"pat 0.11.1 cut in its bind secret", func() error {
			_, err := codec.ParseLoginRegisterPATRev(siteInfo("go-sdk", "0.1.0"), codec.RevisionBindSecret)
			return err
		}, "pat.truncated"},
		{"login revision argument 9", func() error {
			_, _, err := codec.DecodeLoginRegisterRev(siteLogin("iggy", "iggy", ""), codec.Revision(9))
			return err
		}, "body.revision"},
		{"login Validate revision 9", func() error { return with(func(l *codec.LoginRegister) { l.Revision = 9 }).Validate() }, "body.revision"},
		{"login Validate 0.11.1 without a secret", func() error {
			return with(func(l *codec.LoginRegister) {
				l.Info.Protocol, l.Revision = codec.Protocol0111, codec.RevisionBindSecret
			}).Validate()
		}, "login.bind_secret.length"},
		{"login Validate 0.11.1 info, base revision", func() error {
			return with(func(l *codec.LoginRegister) { l.Info.Protocol = codec.Protocol0111 }).Validate()
		}, "body.revision.version"},
		{"pat AppendBinary 0.11.0 info, bind-secret revision", func() error {
			_, err := withPAT(func(l *codec.LoginRegisterPAT) {
				l.Revision, l.BindSecret = codec.RevisionBindSecret, codec.NewSecret(make([]byte, 32))
			}).AppendBinary(nil)
			return err
		}, "body.revision.version"},
		{"login AppendBinary 0.11.0 with a secret", func() error {
			_, err := with(func(l *codec.LoginRegister) { l.BindSecret = codec.NewSecret(make([]byte, 32)) }).AppendBinary(nil)
			return err
		}, "login.bind_secret.length"},
		{"pat Validate 0.11.1 with a 31-byte secret", func() error {
			return withPAT(func(l *codec.LoginRegisterPAT) {
				l.Info.Protocol, l.Revision, l.BindSecret = codec.Protocol0111, codec.RevisionBindSecret, codec.NewSecret(make([]byte, 31))
			}).Validate()
		}, "pat.bind_secret.length"},
		{"pat AppendBinary revision 2", func() error {
			_, err := withPAT(func(l *codec.LoginRegisterPAT) { l.Revision = 2 }).AppendBinary(nil)
			return err
		}, "body.revision"},
		{"bind cut after ClientVersionInfo", func() error {
			_, _, err := codec.DecodeBindSession(siteInfo("go-sdk", "0.1.0"))
			return err
		}, "bind.truncated"},
		{"bind cut in its ClientVersionInfo", func() error { _, err := codec.ParseBindSession(siteInfo("go-sdk", "0.1.0")[:5]); return err }, "cvi.truncated"},
		{"bind trailing", func() error {
			_, err := codec.ParseBindSession(siteCat(siteInfo("go-sdk", "0.1.0"), make([]byte, 65)))
			return err
		}, "body.trailing"},
		{"bind Validate no secret", func() error { return codec.BindSession{Info: info}.Validate() }, "bind.bind_secret.length"},
		{"bind AppendBinary 33-byte secret", func() error {
			_, err := codec.BindSession{Info: info, BindSecret: codec.NewSecret(make([]byte, 33))}.AppendBinary(nil)
			return err
		}, "bind.bind_secret.length"},

		// The login reply and the result section (section 4).
		{"login reply empty", replyErr(nil), "login_reply.truncated"},
		{"login reply session 0", replyErr(siteReply(0, "0.6.0")), "login_reply.session"},
		{"login reply server_version empty", replyErr(siteReply(42, "")), "login_reply.server_version.length"},
		{"login reply server_version UTF-8", replyErr(siteReply(42, "0.\xff")), "login_reply.server_version.utf8"},
		{"login reply server_version cut", replyErr(siteReply(42, "0.6.0")[:19]), "login_reply.truncated"},
		{"login reply trailing", func() error { _, err := codec.ParseLoginReply(siteCat(siteReply(42, "0.6.0"), []byte{0})); return err }, "login_reply.trailing"},
		{"login reply Validate session 0", func() error { r := reply; r.Session = 0; return r.Validate() }, "login_reply.session"},
		{"login reply AppendBinary server_version 256", func() error { r := reply; r.ServerVersion = []byte(long); _, err := r.AppendBinary(nil); return err }, "login_reply.server_version.length"},
		{"AppendLoginReplyFrame session 0", func() error {
			r := reply
			r.Session = 0
			_, err := codec.AppendLoginReplyFrame(nil, rep, r)
			return err
		}, "login_reply.session"},
		{"SplitResult empty", func() error { _, _, err := codec.SplitResult(nil); return err }, "result.count"},
		{"SplitResult count 1, no entry", func() error { _, _, err := codec.SplitResult([]byte{1, 0, 0, 0}); return err }, "result.entries"},

		// Any header (section 5).
		{"PeekCommand short", func() error { _, err := codec.PeekCommand(make([]byte, 10)); return err }, "header.length"},
		{"FrameSize short", func() error { _, err := codec.FrameSize(make([]byte, 255)); return err }, "header.length"},
		{"FrameSize size 255", func() error { _, err := codec.FrameSize(siteHeader(8, put32At(48, 255))); return err }, "frame.size"},
		{"FrameSize size above 64 MiB", func() error { _, err := codec.FrameSize(siteHeader(42, put32At(48, 64<<20+1))); return err }, "frame.size"},

		// Request header.
		{"request short", func() error { return decodeReq(make([]byte, 100)) }, "header.length"},
		{"request command 8", header(decodeReq, 8, nil), "request.command"},
		{"request size 255", header(decodeReq, 5, put32At(48, 255)), "request.size"},
		{"request client 0", header(decodeReq, 5, byteAt(128, 0)), "request.client"},
		{"request operation 0", header(decodeReq, 5, byteAt(176, 0)), "request.operation"},
		{"request operation 4", header(decodeReq, 5, byteAt(176, 4)), "request.operation"},
		{"request Register session 1", header(decodeReq, 5, byteAt(184, 1)), "request.register.session"},
		{"request Register request 1", header(decodeReq, 5, byteAt(168, 1)), "request.register.request"},
		{"request NonReplicated code 0", header(decodeReq, 5, func(h []byte) { nonReplicated(h); h[196] = 0 }), "request.nonreplicated.code"},
		{"request Logout session 0", header(decodeReq, 5, func(h []byte) { replicated(h); h[184] = 0 }), "request.replicated.session"},
		{"request Logout request 0", header(decodeReq, 5, func(h []byte) { replicated(h); h[168] = 0 }), "request.replicated.request"},
		{"request reserved_frame", header(decodeReq, 5, byteAt(100, 1)), "request.reserved_frame"},
		{"request operation padding", header(decodeReq, 5, byteAt(180, 1)), "request.operation_padding"},
		{"request Register byte 197", header(decodeReq, 5, byteAt(197, 1)), "request.reserved.code"},
		{"request Logout byte 199 and 230", header(decodeReq, 5, func(h []byte) { replicated(h); h[199], h[230] = 1, 1 }), "request.reserved.code"},
		{"request Register byte 200", header(decodeReq, 5, byteAt(200, 1)), "request.reserved"},
		{"request NonReplicated byte 255", header(decodeReq, 5, func(h []byte) { nonReplicated(h); h[255] = 1 }), "request.reserved"},
		{"request Validate client 0", func() error { h := req; h.Client = codec.Uint128{}; return h.Validate() }, "request.client"},
		{"request Validate code on Register", func() error { h := req; h.Code = 1; return h.Validate() }, "request.reserved.code"},
		{"request AppendBinary code on Logout", func() error {
			h := req
			h.Operation, h.Session, h.Request, h.Code = codec.OperationLogout, 3, 2, 0x100
			_, err := h.AppendBinary(nil)
			return err
		}, "request.reserved.code"},
		{"request Validate size 0", func() error { h := req; h.Size = 0; return h.Validate() }, "request.size"},
		{"AppendRequestFrame client 0", func() error {
			_, err := codec.AppendRequestFrame(nil, codec.RequestHeader{Operation: codec.OperationRegister}, nil)
			return err
		}, "request.client"},

		// Reply header.
		{"reply short", func() error { return decodeRep(nil) }, "header.length"},
		{"reply command 13", header(decodeRep, 13, nil), "reply.command"},
		{"reply size 64 MiB + 1", header(decodeRep, 8, put32At(48, 64<<20+1)), "reply.size"},
		{"reply operation 4", header(decodeRep, 8, byteAt(208, 4)), "reply.operation"},
		{"reply status 40 with a body", header(decodeRep, 8, func(h []byte) { h[216], h[48] = 40, 1 }), "reply.status"},
		{"reply reserved_frame", header(decodeRep, 8, byteAt(62, 1)), "reply.reserved_frame"},
		{"reply operation padding", header(decodeRep, 8, byteAt(209, 1)), "reply.operation_padding"},
		{"reply reserved", header(decodeRep, 8, byteAt(255, 1)), "reply.reserved"},
		{"reply Validate status 3, size 300", func() error { h := rep; h.Status, h.Size = 3, 300; return h.Validate() }, "reply.status"},
		{"AppendReplyFrame denial with a body", func() error { h := rep; h.Status = 40; _, err := codec.AppendReplyFrame(nil, h, []byte{1}); return err }, "reply.status"},

		// Eviction.
		{"eviction short", func() error { return decodeEv(make([]byte, 255)) }, "header.length"},
		{"eviction command 5", header(decodeEv, 5, nil), "eviction.command"},
		{"eviction size 257", header(decodeEv, 13, put32At(48, 257)), "eviction.size"},
		{"eviction client 0", header(decodeEv, 13, byteAt(128, 0)), "eviction.client"},
		{"eviction reserved_frame", header(decodeEv, 13, byteAt(127, 1)), "eviction.reserved_frame"},
		{"eviction reserved", header(decodeEv, 13, byteAt(152, 1)), "eviction.reserved"},
		{"eviction reason 0", header(decodeEv, 13, byteAt(255, 0)), "eviction.reason"},
		{"eviction reason 16", header(decodeEv, 13, byteAt(255, 16)), "eviction.reason"},
		{"eviction reason 14, window zero", header(decodeEv, 13, byteAt(255, 14)), "eviction.window.incompatible"},
		{"eviction reason 1, window set", header(decodeEv, 13, put32At(148, 1)), "eviction.window.zero"},
		{"DecodeEvictionLenient client 0", func() error {
			_, err := codec.DecodeEvictionLenient(siteHeader(13, func(h []byte) { h[255], h[128] = 14, 0 }))
			return err
		}, "eviction.client"},
		{"eviction Validate client 0", func() error { e := ev; e.Client = codec.Uint128{}; return e.Validate() }, "eviction.client"},
		{"eviction AppendBinary reason 99", func() error { e := ev; e.Reason = 99; _, err := e.AppendBinary(nil); return err }, "eviction.reason"},
		{"eviction Validate reason 14, min > max", func() error {
			return codec.NewIncompatibleProtocolEviction(codec.Uint128From(5), codec.Window{Min: 9, Max: 2}).Validate()
		}, "eviction.window.incompatible"},
		{"eviction Validate reason 2, window set", func() error { e := ev; e.Reason, e.Window.Max = 2, 1; return e.Validate() }, "eviction.window.zero"},
	}
}

// unreachableRules are the rule ids no test can reach: a context of more
// than 4294967295 bytes. checkText reports them through the same branch as
// a u8 field too long (TestRuleSitesReachEveryID checks the ids exist).
var unreachableRules = map[string]bool{"login.context.length": true, "pat.context.length": true}

// TestRuleSites: every error site reports the id of the rule it breaks, a
// rule of vectors/rules.json whose sentinel is the error's. Decoders report
// validity rules; only an encoder reports an encoding rule (a limit no
// bytes on the wire can break).
func TestRuleSites(t *testing.T) {
	rules := vectorRules(t)
	for _, s := range ruleSites() {
		err := s.err()
		if err == nil {
			t.Errorf("%s: no error, want rule %s", s.name, s.rule)
			continue
		}
		ce := codecError(t, err)
		r, known := rules[ce.Rule]
		switch {
		case ce.Rule != s.rule:
			t.Errorf("%s: Rule = %q, want %q (%v)", s.name, ce.Rule, s.rule, err)
		case !known:
			t.Errorf("%s: Rule %q is not an id of vectors/rules.json", s.name, ce.Rule)
		case r.Class != "validity" && r.Class != "encoding":
			t.Errorf("%s: Rule %q is a rule of class %s, not a validity rule", s.name, ce.Rule, r.Class)
		case r.Class == "encoding" && !strings.Contains(s.name, "Validate") && !strings.Contains(s.name, "AppendBinary") &&
			!strings.Contains(s.name, "AppendBinary") && !strings.Contains(s.name, "argument"):
			t.Errorf("%s: a decoder reports the encoding rule %q", s.name, ce.Rule)
		case r.Sentinel != sentinelNames[ce.Err]:
			t.Errorf("%s: rule %s has sentinel %s, the error matches %v", s.name, ce.Rule, r.Sentinel, ce.Err)
		case ce.Want == "":
			t.Errorf("%s: no Want", s.name)
		}
	}
}

// ruleConstants returns the value of every const of the package's rules.go
// whose name starts with "rule": the ids the package can report.
func ruleConstants(t *testing.T) map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "rules.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, n := range vs.Names {
				if !strings.HasPrefix(n.Name, "rule") {
					continue
				}
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					t.Fatalf("rules.go: %s is not a string literal", n.Name)
				}
				v, err := strconv.Unquote(lit.Value)
				if err != nil {
					t.Fatal(err)
				}
				ids[n.Name] = v
			}
		}
	}
	if len(ids) < 50 {
		t.Fatalf("rules.go declares %d rule ids; the parse missed some", len(ids))
	}
	return ids
}

// TestRuleSitesReachEveryID: every rule constant of rules.go is an id of
// vectors/rules.json of class validity or encoding, and ruleSites reaches
// each one (bar the 4 GiB context), so TestRuleSites checks every id the
// package can report.
func TestRuleSitesReachEveryID(t *testing.T) {
	rules := vectorRules(t)
	reached := map[string]bool{}
	for _, s := range ruleSites() {
		reached[s.rule] = true
	}
	for name, id := range ruleConstants(t) {
		r, ok := rules[id]
		if !ok || r.Class != "validity" && r.Class != "encoding" {
			t.Errorf("%s = %q: not a validity or encoding rule of vectors/rules.json", name, id)
		}
		if !reached[id] && !unreachableRules[id] {
			t.Errorf("%s = %q: no rule site reaches it; add one to ruleSites", name, id)
		}
	}
	for id, r := range rules {
		if r.Class == "validity" && !reached[id] {
			t.Errorf("validity rule %s: the codec reports it nowhere in ruleSites", id)
		}
	}
}

// TestRuleIDsAreConstants: no error site builds its rule id. Every call
// of newError and reader.fail in the package passes as its rule an
// identifier (a rules.go constant, or a parameter or field holding one),
// never a string literal or an expression, so a success path cannot pay
// for one and every id is a constant that TestRuleSitesReachEveryID sees.
func TestRuleIDsAreConstants(t *testing.T) {
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			var name string
			switch fn := call.Fun.(type) {
			case *ast.Ident:
				name = fn.Name
			case *ast.SelectorExpr:
				name = fn.Sel.Name
			}
			if name != "newError" && name != "fail" || len(call.Args) != 5 {
				return true
			}
			calls++
			switch rule := call.Args[3].(type) {
			case *ast.Ident:
				if !strings.HasPrefix(rule.Name, "rule") {
					t.Errorf("%s: %s's rule is %s, not a rule* constant or parameter", fset.Position(call.Pos()), name, rule.Name)
				}
			case *ast.SelectorExpr: // a textField's id, as f.utf8
			default:
				t.Errorf("%s: %s's rule is an expression, not a constant", fset.Position(call.Pos()), name)
			}
			return true
		})
	}
	if calls < 40 {
		t.Fatalf("%d calls of newError and fail found; the walk missed some", calls)
	}
}

// TestErrorReads: Error() names the field and offset, then what was found
// (the class), what the rule wants and its id, and never an input byte.
func TestErrorReads(t *testing.T) {
	secret := strings.Repeat("s", 256)
	for _, c := range []struct {
		err  func() error
		want string
	}{
		{func() error { _, err := codec.ParseClientVersionInfo(siteInfo("a\xff", "1")); return err },
			"codec: sdk_name at offset 6: invalid UTF-8, want valid UTF-8 (rule cvi.sdk_name.utf8)"},
		{func() error { _, _, err := codec.DecodeLoginRegister(siteInfo("go-sdk", "0.1.0")[:14]); return err },
			"codec: sdk_version at offset 12: truncated, want field within the input (rule cvi.truncated)"},
		{func() error {
			_, _, err := codec.DecodeLoginRegister(siteLogin("iggy", "iggy", "abc")[:32])
			return err
		},
			"codec: context at offset 31: truncated, want field within the input (rule login.context.claim)"},
		{func() error {
			_, err := codec.ParseLoginReply(siteCat(siteReply(42, "0.6.0"), []byte("zz")))
			return err
		},
			"codec: body at offset 22: trailing bytes, want no bytes after the last field (rule login_reply.trailing)"},
		{func() error {
			l := codec.LoginRegister{Info: codec.ClientVersionInfo{SDKName: []byte("g"), SDKVersion: []byte("1")}, Username: []byte("u"), Password: codec.NewSecret([]byte(secret))}
			return l.Validate()
		}, "codec: password_len at offset 10: invalid length, want len <= 255 (rule login.password.length)"},
		{func() error { _, _, err := codec.DecodeLoginRegister(siteLogin("iggy", "hunter2\xff", "")); return err },
			"codec: password at offset 23: invalid UTF-8, want valid UTF-8 (rule login.password.utf8)"}, // the field's offset, not the byte's
		{func() error { _, err := codec.FrameSize(siteHeader(8, put32At(48, 100))); return err },
			"codec: size at offset 48: bad size, want 256 <= size <= 64 MiB (rule frame.size)"},
		{func() error { return decodeReq(siteHeader(5, byteAt(198, 7))) },
			"codec: reserved at offset 198: non-zero reserved byte, want operation != NonReplicated => bytes 196..200 == 0 (rule request.reserved.code)"},
		{func() error { return decodeEv(siteHeader(13, byteAt(255, 0))) },
			"codec: reason at offset 255: invalid eviction reason, want 1 <= reason <= 15 (rule eviction.reason)"},
		{func() error { return decodeEv(siteHeader(13, put32At(144, 1))) },
			"codec: window at offset 144: invalid window, want reason != 14 => window == 0 (rule eviction.window.zero)"},
		{func() error { _, _, err := codec.SplitResult([]byte{2, 0, 0, 0}); return err },
			"codec: result_entries at offset 4: truncated, want len >= 4+8*count (rule result.entries)"},
		{func() error { return &codec.Error{Field: "f", Offset: 1, Err: codec.ErrTruncated} },
			"codec: f at offset 1: truncated"},
	} {
		err := c.err()
		if err == nil {
			t.Errorf("no error, want %q", c.want)
			continue
		}
		if got := err.Error(); got != c.want {
			t.Errorf("Error() = %q\nwant      %q", got, c.want)
		}
		for _, leak := range []string{"hunter2", "sss", "\xff", "zz"} {
			if strings.Contains(err.Error(), leak) {
				t.Errorf("Error() = %q shows input bytes %q", err.Error(), leak)
			}
		}
	}
}

// TestValidateMatchesDecode: a header value that breaks a rule fails
// Validate with the very error (rule id, want, field, offset, class) that
// decoding its bytes gives.
func TestValidateMatchesDecode(t *testing.T) {
	req := codec.RequestHeader{Size: 256, Client: codec.Uint128From(5), Operation: codec.OperationRegister}
	rep := codec.ReplyHeader{Size: 256, Client: codec.Uint128From(5), Operation: codec.OperationRegister}
	ev := codec.NewEviction(codec.Uint128From(5), codec.ReasonNoSession)
	logout := func(h *codec.RequestHeader) { h.Operation, h.Session, h.Request = codec.OperationLogout, 3, 2 }
	for _, c := range []struct {
		name     string
		validate error
		bytes    []byte
		decode   func([]byte) error
	}{
		{"request code on Register", func() error { h := req; h.Code = 0x700; return h.Validate() }(), siteHeader(5, byteAt(197, 7)), decodeReq},
		{"request code on Logout", func() error { h := req; logout(&h); h.Code = 1 << 24; return h.Validate() }(),
			siteHeader(5, func(b []byte) { replicated(b); b[199] = 1 }), decodeReq},
		{"request size 255", func() error { h := req; h.Size = 255; return h.Validate() }(), siteHeader(5, put32At(48, 255)), decodeReq},
		{"request client 0", func() error { h := req; h.Client = codec.Uint128{}; return h.Validate() }(), siteHeader(5, byteAt(128, 0)), decodeReq},
		{"request operation 4", func() error { h := req; h.Operation = 4; return h.Validate() }(), siteHeader(5, byteAt(176, 4)), decodeReq},
		{"request Register session 1", func() error { h := req; h.Session = 1; return h.Validate() }(), siteHeader(5, byteAt(184, 1)), decodeReq},
		{"request NonReplicated code 0", func() error { h := req; h.Operation, h.Request = codec.OperationNonReplicated, 1; return h.Validate() }(),
			siteHeader(5, func(b []byte) { nonReplicated(b); b[196] = 0 }), decodeReq},
		{"request Logout request 0", func() error { h := req; logout(&h); h.Request = 0; return h.Validate() }(),
			siteHeader(5, func(b []byte) { replicated(b); b[168] = 0 }), decodeReq},
		{"reply operation 4", func() error { h := rep; h.Operation = 4; return h.Validate() }(), siteHeader(8, byteAt(208, 4)), decodeRep},
		{"reply status 40, size 257", func() error { h := rep; h.Status, h.Size = 40, 257; return h.Validate() }(),
			siteHeader(8, func(b []byte) { b[216], b[48] = 40, 1 }), decodeRep},
		{"eviction client 0", func() error { e := ev; e.Client = codec.Uint128{}; return e.Validate() }(), siteHeader(13, byteAt(128, 0)), decodeEv},
		{"eviction reason 16", func() error { e := ev; e.Reason = 16; return e.Validate() }(), siteHeader(13, byteAt(255, 16)), decodeEv},
		{"eviction reason 14, min > max", func() error { e := ev; e.Reason, e.Window = 14, codec.Window{Min: 3, Max: 2}; return e.Validate() }(),
			siteHeader(13, func(b []byte) { b[255], b[144], b[148] = 14, 2, 3 }), decodeEv},
		{"eviction reason 1, min set", func() error { e := ev; e.Window.Min = 1; return e.Validate() }(), siteHeader(13, put32At(148, 1)), decodeEv},
	} {
		got, want := codecError(t, c.validate), codecError(t, c.decode(c.bytes))
		if *got != *want {
			t.Errorf("%s: Validate says %+v, decoding the bytes %+v", c.name, *got, *want)
		}
	}
}
