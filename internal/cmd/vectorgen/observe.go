package main

import (
	"cmp"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"strconv"

	"github.com/iggywire/iggywire/codec"
)

// observe runs the codec on a codec case and returns its verdict: on error,
// the sentinel, field, offset and rule id the codec reports (codec.Error's
// Rule is the id of rules.json). It is shared by the generator, which
// checks every case it writes, rule included, and by the runner test, which
// replays the checked-in files.
func observe(c *Case) (*Expect, error) {
	in, err := hex.DecodeString(c.input())
	if err != nil {
		return nil, fmt.Errorf("input: %w", err)
	}
	if (c.Kind == KindWindow || c.Kind == KindDefaultWindow) && len(in) != 4 {
		return nil, fmt.Errorf("a %s case is a 4-byte version", c.Kind)
	}
	switch c.Kind {
	case KindVersionText:
		v, err := codec.ParseVersion(string(in))
		return verdict(map[string]any{"major": v.Major(), "minor": v.Minor(), "patch": v.Patch(), "value": uint32(v)}, err), nil
	case KindWindow:
		if c.Window == nil {
			return nil, errors.New("a window case without its window")
		}
		win, err := parseWindow(*c.Window)
		v := codec.Version(le.Uint32(in))
		f := map[string]any{"version_valid": v.IsValid(), "well_formed": win.IsValid(), "accepts": win.Accepts(v)}
		return verdict(f, nil), err
	case KindDefaultWindow:
		w := codec.DefaultWindow(codec.Version(le.Uint32(in)))
		return verdict(map[string]any{"min": uint32(w.Min), "max": uint32(w.Max), "well_formed": w.IsValid()}, nil), nil
	case KindResult:
		payload, code, err := codec.SplitResult(in)
		return verdict(map[string]any{"result_code": code, "payload": hex.EncodeToString(payload)}, err), nil
	case KindRequest, KindReply, KindEviction:
		return observeHeader(c.Kind, in), nil
	case KindLoginFrame:
		return observeLoginFrame(in)
	}
	if b, ok := bodyKinds[c.Kind]; ok {
		return b(c.Mode, in)
	}
	return nil, fmt.Errorf("kind %q has no codec verdict", c.Kind)
}

// observeHeader decodes a header of kind (request, reply or eviction).
func observeHeader(kind string, in []byte) *Expect {
	switch kind {
	case KindRequest:
		h, err := codec.DecodeRequestHeader(in)
		return verdict(requestFields(h), err)
	case KindReply:
		h, err := codec.DecodeReplyHeader(in)
		return verdict(replyFields(h), err)
	}
	return observeEviction(in)
}

// verdict is ok with fields when err is nil, else the error's parts.
func verdict(fields map[string]any, err error) *Expect {
	if err != nil {
		return errorVerdict(err, 0)
	}
	return &Expect{Verdict: "ok", Fields: fields}
}

// errorVerdict returns the parts of a *codec.Error, its offset moved by
// base (where the decoded part starts in the case's input), and its rule.
func errorVerdict(err error, base int) *Expect {
	var ce *codec.Error
	if !errors.As(err, &ce) {
		return &Expect{Verdict: "error", Sentinel: "not a *codec.Error: " + err.Error()}
	}
	name := sentinelOf(err)
	return &Expect{Verdict: "error", Sentinel: name, Field: string(ce.Field), Offset: intp(base + ce.Offset), Rule: ce.Rule,
		Convention: conventionOf(name, string(ce.Field))}
}

func intp(i int) *int { return &i }

func parseWindow(w TextRange) (codec.Window, error) {
	lo, minErr := codec.ParseVersion(w.Min)
	hi, maxErr := codec.ParseVersion(w.Max)
	return codec.Window{Min: lo, Max: hi, CountPatch: w.CountPatch}, cmp.Or(minErr, maxErr)
}

// body observes one body kind with the codec's prefix decoder (decode)
// and, for a strict parse that leaves bytes over, its whole-body parser
// (parse), for that parser's trailing-bytes error.
func body[T any](decode func([]byte) (T, int, error), parse func([]byte) (T, error), fields func(T) map[string]any) func(mode string, in []byte) (*Expect, error) {
	return func(mode string, in []byte) (*Expect, error) {
		v, n, err := decode(in)
		switch {
		case mode == ModePrefix:
			e := verdict(fields(v), err)
			if err == nil {
				e.Consumed = intp(n)
			}
			return e, nil
		case mode != ModeStrict:
			return nil, fmt.Errorf("mode %q", mode)
		case err == nil && n < len(in):
			_, err = parse(in)
		}
		return verdict(fields(v), err), nil
	}
}

// rev gives a decoder (or parser) of one revision the shape of the others.
func rev[T any](f func([]byte, codec.Revision) (T, int, error)) func([]byte) (T, int, error) {
	return func(b []byte) (T, int, error) { return f(b, codec.RevisionBindSecret) }
}

func revParse[T any](f func([]byte, codec.Revision) (T, error)) func([]byte) (T, error) {
	return func(b []byte) (T, error) { return f(b, codec.RevisionBindSecret) }
}

// bodyKinds are the body kinds, each decoded strictly (the whole input is
// one body) or as a prefix (reporting how many bytes it used).
var bodyKinds = map[string]func(mode string, in []byte) (*Expect, error){
	KindClientInfo:     body(codec.DecodeClientVersionInfo, codec.ParseClientVersionInfo, infoFields),
	KindLogin:          body(codec.DecodeLoginRegister, codec.ParseLoginRegister, loginFields),
	KindLoginPAT:       body(codec.DecodeLoginRegisterPAT, codec.ParseLoginRegisterPAT, patFields),
	KindLoginReply:     body(codec.DecodeLoginReply, codec.ParseLoginReply, loginReplyFields),
	KindLoginSecret:    body(rev(codec.DecodeLoginRegisterRev), revParse(codec.ParseLoginRegisterRev), loginFields),
	KindLoginPATSecret: body(rev(codec.DecodeLoginRegisterPATRev), revParse(codec.ParseLoginRegisterPATRev), patFields),
	KindBind:           body(codec.DecodeBindSession, codec.ParseBindSession, bindFields),
}

func infoFields(c codec.ClientVersionInfo) map[string]any {
	return map[string]any{"protocol_version": uint32(c.Protocol), "sdk_name": string(c.SDKName), "sdk_version": string(c.SDKVersion)}
}

func loginFields(l codec.LoginRegister) map[string]any {
	f := infoFields(l.Info)
	f["username"], f["password_len"], f["context"] = string(l.Username), l.Password.Len(), string(l.Context)
	if l.Revision == codec.RevisionBindSecret {
		f["bind_secret_len"] = l.BindSecret.Len()
	}
	return f
}

func patFields(l codec.LoginRegisterPAT) map[string]any {
	f := infoFields(l.Info)
	f["token_len"], f["context"] = l.Token.Len(), string(l.Context)
	if l.Revision == codec.RevisionBindSecret {
		f["bind_secret_len"] = l.BindSecret.Len()
	}
	return f
}

func bindFields(b codec.BindSession) map[string]any {
	f := infoFields(b.Info)
	f["client_id"], f["session"], f["metadata_watermark"] = u128(b.ClientID), u64(b.Session), u64(b.MetadataWatermark)
	f["bind_secret_len"] = b.BindSecret.Len()
	return f
}

func loginReplyFields(l codec.LoginReply) map[string]any {
	return map[string]any{
		"user_id": l.UserID, "session": u64(l.Session),
		"server_protocol_version": uint32(l.ServerProtocol), "server_version": string(l.ServerVersion),
	}
}

// u64 and u128 travel as decimal strings: JSON numbers lose precision past
// 2^53 in most readers.
func u64(v uint64) string { return strconv.FormatUint(v, 10) }

func u128(v codec.Uint128) string {
	x := new(big.Int).SetUint64(v.Hi)
	x.Lsh(x, 64)
	return x.Or(x, new(big.Int).SetUint64(v.Lo)).String()
}

func prologueFields(checksum, checksumBody, cluster codec.Uint128, size, view, release uint32, replica uint8) map[string]any {
	return map[string]any{
		"checksum": u128(checksum), "checksum_body": u128(checksumBody), "cluster": u128(cluster),
		"size": size, "view": view, "release": release, "replica": replica,
	}
}

func requestFields(h codec.RequestHeader) map[string]any {
	f := prologueFields(h.Checksum, h.ChecksumBody, h.Cluster, h.Size, h.View, h.Release, h.Replica)
	f["client"], f["request_checksum"] = u128(h.Client), u128(h.RequestChecksum)
	f["timestamp"], f["request"], f["session"] = u64(h.Timestamp), u64(h.Request), u64(h.Session)
	f["operation"], f["user_id"], f["code"] = uint8(h.Operation), h.UserID, uint32(h.Code)
	return f
}

func replyFields(h codec.ReplyHeader) map[string]any {
	f := prologueFields(h.Checksum, h.ChecksumBody, h.Cluster, h.Size, h.View, h.Release, h.Replica)
	f["request_checksum"], f["context"], f["client"] = u128(h.RequestChecksum), u128(h.Context), u128(h.Client)
	f["op"], f["commit"], f["timestamp"], f["request"] = u64(h.Op), u64(h.Commit), u64(h.Timestamp), u64(h.Request)
	f["operation"], f["status"] = uint8(h.Operation), uint32(h.Status)
	return f
}

func evictionFields(e codec.Eviction) map[string]any {
	f := prologueFields(e.Checksum, e.ChecksumBody, e.Cluster, codec.HeaderSize, e.View, e.Release, e.Replica)
	f["client"], f["window_max"], f["window_min"], f["reason"] = u128(e.Client), uint32(e.Window.Max), uint32(e.Window.Min), uint8(e.Reason)
	return f
}
