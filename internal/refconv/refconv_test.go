package refconv

import (
	"reflect"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/refcodec"
)

// fill sets every field of the struct v points to, recursively, to a
// non-zero value that differs from field to field.
func fill(v reflect.Value, n *uint64) {
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			fill(v.Field(i), n)
		}
	case reflect.Slice:
		*n++
		v.Set(reflect.ValueOf([]byte{byte(*n), 'x'}))
	case reflect.Uint8, reflect.Uint32, reflect.Uint64:
		*n++
		v.SetUint(*n)
	case reflect.Bool:
		v.SetBool(true)
	default:
		panic("fill: unexpected kind " + v.Kind().String())
	}
}

// noZeroField fails if any field of v, recursively, is zero: a field the
// conversion forgot.
func noZeroField(t *testing.T, path string, v reflect.Value) {
	t.Helper()
	if v.Kind() == reflect.Struct {
		for i := 0; i < v.NumField(); i++ {
			noZeroField(t, path+"."+v.Type().Field(i).Name, v.Field(i))
		}
		return
	}
	if v.IsZero() {
		t.Errorf("%s is zero after conversion", path)
	}
}

// roundTrip fills a reference value, converts it to codec's and back, and
// wants every field carried both ways.
func roundTrip[R, C any](t *testing.T, from func(R) C, to func(C) R) {
	t.Helper()
	var r R
	var n uint64
	fill(reflect.ValueOf(&r).Elem(), &n)
	noZeroField(t, reflect.TypeOf(r).Name(), reflect.ValueOf(r))
	back := to(from(r))
	if !reflect.DeepEqual(back, r) {
		t.Errorf("%T: round trip gives %+v, want %+v", r, back, r)
	}
}

func TestRoundTrip(t *testing.T) {
	roundTrip(t, FromRefWindow, ToRefWindow)
	roundTrip(t, FromRefInfo, ToRefInfo)
	roundTrip(t, FromRefLogin, ToRefLogin)
	roundTrip(t, FromRefPAT, ToRefPAT)
	roundTrip(t, FromRefReply, ToRefReply)
	roundTrip(t, FromRefRequest, ToRefRequest)
	roundTrip(t, FromRefReplyHeader, ToRefReplyHeader)
	roundTrip(t, FromRefEviction, ToRefEviction)
	roundTrip(t, FromRefBind, ToRefBind)
}

// TestSlices pins how nil and empty slices cross: kept as they are, except
// that an empty secret is nil on the reference side.
func TestSlices(t *testing.T) {
	empty := []byte{}
	info := ToRefInfo(codec.ClientVersionInfo{SDKName: nil, SDKVersion: empty})
	if info.SDKName != nil || info.SDKVersion == nil || len(info.SDKVersion) != 0 {
		t.Errorf("ToRefInfo: nil and empty not kept: %#v", info)
	}
	back := FromRefInfo(refcodec.ClientVersionInfo{SDKName: nil, SDKVersion: empty})
	if back.SDKName != nil || back.SDKVersion == nil || len(back.SDKVersion) != 0 {
		t.Errorf("FromRefInfo: nil and empty not kept: %#v", back)
	}
	for _, pw := range [][]byte{nil, empty} {
		l := FromRefLogin(refcodec.LoginRegister{Password: pw})
		if l.Password.Len() != 0 || l.Password.Bytes() != nil {
			t.Errorf("FromRefLogin(%#v): password is not the empty Secret", pw)
		}
		if got := ToRefLogin(codec.LoginRegister{Password: codec.NewSecret(pw)}).Password; got != nil {
			t.Errorf("ToRefLogin(%#v): password %#v, want nil", pw, got)
		}
		p := FromRefPAT(refcodec.LoginRegisterPAT{Token: pw})
		if p.Token.Len() != 0 || p.Token.Bytes() != nil {
			t.Errorf("FromRefPAT(%#v): token is not the empty Secret", pw)
		}
		if got := ToRefPAT(codec.LoginRegisterPAT{Token: codec.NewSecret(pw)}).Token; got != nil {
			t.Errorf("ToRefPAT(%#v): token %#v, want nil", pw, got)
		}
	}
	pw := []byte("pw")
	if got := FromRefLogin(refcodec.LoginRegister{Password: pw}).Password.Bytes(); &got[0] != &pw[0] {
		t.Error("FromRefLogin copies the password; it should alias it")
	}
}
