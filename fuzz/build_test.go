package fuzz

import (
	"bytes"
	"errors"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/codectest"
	"github.com/iggywire/iggywire/internal/refcodec"
	"github.com/iggywire/iggywire/internal/refcodec/codecclass"
	"github.com/iggywire/iggywire/internal/refconv"
)

// FuzzBuildBodies builds a body from fuzz bytes, valid or not, and checks
// that AppendBinary either encodes what Parse gives back, or refuses with the
// error decoding the same fields' raw bytes gives; and that the reference
// encoder of the body's layout agrees. Login bodies come in either
// revision, their bind secret of the revision's length or not.
func FuzzBuildBodies(f *testing.F) {
	seed(f)
	fuzzBytes(f, func(t *testing.T, data []byte) {
		g := newGen(data)
		switch g.u8() % 4 {
		case 0:
			v := g.info()
			checkBuilt(t, clientInfoAPI, v, rawInfo(nil, v), false, normInfo(v), func() ([]byte, error) {
				return refcodec.EncodeClientVersionInfo(refconv.ToRefInfo(v))
			})
		case 1:
			v := codec.LoginRegister{Info: g.info(), Username: g.text(), Password: codec.NewSecret(g.text()), Context: g.text()}
			v.Revision, v.BindSecret = g.revision()
			norm := codec.LoginRegister{Info: normInfo(v.Info), Revision: v.Revision, BindSecret: codec.NewSecret(nilIfEmpty(v.BindSecret.Bytes())),
				Username: nilIfEmpty(v.Username), Password: codec.NewSecret(nilIfEmpty(v.Password.Bytes())), Context: nilIfEmpty(v.Context)}
			api, encode := loginRegisterAPI, refcodec.EncodeLoginRegister
			if v.Revision == codec.RevisionBindSecret {
				api, encode = loginSecretAPI, refcodec.EncodeLoginRegisterSecret
			}
			checkBuilt(t, api, v, rawLogin(v), misLaid(v.Info, v.Revision, v.BindSecret), norm, func() ([]byte, error) { return encode(refconv.ToRefLogin(v)) })
		case 2:
			v := codec.LoginRegisterPAT{Info: g.info(), Token: codec.NewSecret(g.text()), Context: g.text()}
			v.Revision, v.BindSecret = g.revision()
			norm := codec.LoginRegisterPAT{Info: normInfo(v.Info), Revision: v.Revision, BindSecret: codec.NewSecret(nilIfEmpty(v.BindSecret.Bytes())),
				Token: codec.NewSecret(nilIfEmpty(v.Token.Bytes())), Context: nilIfEmpty(v.Context)}
			api, encode := loginRegisterPATAPI, refcodec.EncodeLoginRegisterPAT
			if v.Revision == codec.RevisionBindSecret {
				api, encode = loginPATSecretAPI, refcodec.EncodeLoginRegisterPATSecret
			}
			checkBuilt(t, api, v, rawPAT(v), misLaid(v.Info, v.Revision, v.BindSecret), norm, func() ([]byte, error) { return encode(refconv.ToRefPAT(v)) })
		default:
			v := codec.LoginReply{UserID: g.u32(), Session: g.maybeZero64(), ServerProtocol: g.version(), ServerVersion: g.text()}
			norm := v
			norm.ServerVersion = nilIfEmpty(v.ServerVersion)
			checkLoginReplyFrame(t, v)
			checkBuilt(t, loginReplyAPI, v, rawReply(v), false, norm, func() ([]byte, error) {
				return refcodec.EncodeLoginReply(refconv.ToRefReply(v))
			})
		}
	})
}

func normInfo(c codec.ClientVersionInfo) codec.ClientVersionInfo {
	return codec.ClientVersionInfo{Protocol: c.Protocol, SDKName: nilIfEmpty(c.SDKName), SDKVersion: nilIfEmpty(c.SDKVersion)}
}

// tooLong reports whether err is the one rule a raw encoding cannot show:
// a field longer than its u8 length can say.
func tooLong(err error) bool {
	var ce *codec.Error
	return errors.As(err, &ce) && ce.Err == codec.ErrLength && ce.Want == "len <= 255"
}

// misLaid reports whether a login body with a valid ClientVersionInfo is
// not laid out as its revision's decoder reads it: its revision is not the
// one its version selects, or its bind secret is not the revision's length
// (32 bytes, or none). The raw bytes of such a body cannot show the
// encoder's error (the decoder takes the caller's word for the revision,
// and takes 32 bytes or none for the secret), so the encoder's error must
// be that rule itself, at the revision or the bind secret.
func misLaid(info codec.ClientVersionInfo, rev codec.Revision, secret codec.Secret) bool {
	want := 0
	if rev == codec.RevisionBindSecret {
		want = codec.BindSecretLen
	}
	return info.Validate() == nil && (rev != codec.RevisionOf(info.Protocol) || secret.Len() != want)
}

// checkBuilt holds a built body to the encode/decode contract. raw is its
// fields written without checks; norm is v as a decoder returns it;
// misLaid says the raw bytes are not in the layout the body's revision
// reads (see misLaid).
func checkBuilt[T any](t *testing.T, api bodyAPI[T], v T, raw []byte, misLaid bool, norm T, ref func() ([]byte, error)) {
	out, err := api.appendTo(v, append([]byte(nil), prefix...))
	sameErr(t, api.name+": Validate against AppendBinary", api.validate(v), err)
	refOut, refErr := ref()
	if codecclass.Of(err) != refcodec.ClassOf(refErr) || (err == nil && !bytes.Equal(out[len(prefix):], refOut)) {
		t.Fatalf("%s: AppendBinary says %v, the reference encoder %v", api.name, err, refErr)
	}
	if err != nil {
		checkErr(t, err, api.encodedLen(v))
		checkUnchanged(t, api.name, out)
		var ce *codec.Error
		switch {
		case misLaid:
			if !errors.As(err, &ce) || ce.Field != "revision" && ce.Field != "bind_secret" {
				t.Fatalf("%s: the body is not laid out as its revision, and AppendBinary says %v, want the revision or bind_secret rule", api.name, err)
			}
		case !tooLong(err):
			_, perr := api.parse(raw)
			sameErr(t, api.name+": Parse of the raw fields against AppendBinary", perr, err)
		}
		return
	}
	if misLaid {
		t.Fatalf("%s: AppendBinary encoded a body not laid out as its revision", api.name)
	}
	checkAppended(t, api.name, out, raw)
	if n := api.encodedLen(v); n != len(raw) {
		t.Fatalf("%s: EncodedLen %d, AppendBinary wrote %d", api.name, n, len(raw))
	}
	p, perr := api.parse(raw)
	if perr != nil || !codectest.Same(p, norm) {
		t.Fatalf("%s: Parse(AppendBinary(v)) = %v; does not give back v", api.name, perr)
	}
}

// FuzzBuildHeaders builds a Request, Reply or Eviction from fuzz bytes and
// checks AppendBinary against the decoder and the reference encoder.
func FuzzBuildHeaders(f *testing.F) {
	seed(f)
	fuzzBytes(f, func(t *testing.T, data []byte) {
		g := newGen(data)
		switch g.u8() % 3 {
		case 0:
			h := g.request()
			checkRequestFrame(t, h)
			checkBuiltHeader(t, requestAPI, h, rawRequest(h), func() ([]byte, error) {
				return refcodec.EncodeRequestHeader(refconv.ToRefRequest(h))
			})
		case 1:
			h := g.reply()
			checkReplyFrames(t, h)
			checkBuiltHeader(t, replyAPI, h, rawReplyHeader(h), func() ([]byte, error) {
				return refcodec.EncodeReplyHeader(refconv.ToRefReplyHeader(h))
			})
		default:
			e := g.eviction()
			checkConstructors(t, e)
			checkBuiltHeader(t, evictionAPI, e, rawEviction(e), func() ([]byte, error) {
				return refcodec.EncodeEviction(refconv.ToRefEviction(e))
			})
		}
	})
}

// checkBuiltHeader holds a built header to the encode/decode contract.
func checkBuiltHeader[T any](t *testing.T, api headerAPI[T], h T, raw []byte, ref func() ([]byte, error)) {
	out, err := api.appendTo(&h, append([]byte(nil), prefix...))
	sameErr(t, api.name+": Validate against AppendBinary", api.validate(h), err)
	refOut, refErr := ref()
	if codecclass.Of(err) != refcodec.ClassOf(refErr) || (err == nil && !bytes.Equal(out[len(prefix):], refOut)) {
		t.Fatalf("%s: AppendBinary says %v, the reference encoder %v", api.name, err, refErr)
	}
	d, derr := api.decode(raw)
	if err != nil {
		checkErr(t, err, codec.HeaderSize)
		checkUnchanged(t, api.name, out)
		sameClass(t, api.name+": decode of the raw fields against AppendBinary", derr, err)
		return
	}
	checkAppended(t, api.name, out, raw)
	if derr != nil || !codectest.Same(d, h) {
		t.Fatalf("%s: decode(AppendBinary(h)) = %v; does not give back h", api.name, derr)
	}
}
