package props

import (
	"github.com/iggywire/iggywire/codec"
	"github.com/leanovate/gopter"
)

// GenClientVersionInfo generates a valid ClientVersionInfo: any wire
// protocol value (reserved bits included, since the wire carries any u32),
// an SDK name and version of 1..255 bytes.
func GenClientVersionInfo() gopter.Gen {
	return derive(
		func(p codec.Version, name, version []byte) codec.ClientVersionInfo {
			return codec.ClientVersionInfo{Protocol: p, SDKName: name, SDKVersion: version}
		},
		func(c codec.ClientVersionInfo) (codec.Version, []byte, []byte) {
			return c.Protocol, c.SDKName, c.SDKVersion
		},
		GenWireVersion(), GenText(1, MaxText8), GenText(1, MaxText8),
	)
}

// GenLoginRegister generates a valid LOGIN_REGISTER body of the 0.11.0
// layout (RevisionBase): username 1..255, password 0..255 (empty
// included), context absent, short or long. Its version is any but 0.11.1,
// which selects the bind-secret layout (codec.RevisionOf): a generated
// 0.11.1 becomes 0.11.0.
func GenLoginRegister() gopter.Gen { return genLoginRegister(GenSecret()) }

// GenMarkedLoginRegister is GenLoginRegister with a password from
// GenMarkedSecret.
func GenMarkedLoginRegister() gopter.Gen { return genLoginRegister(GenMarkedSecret()) }

func genLoginRegister(password gopter.Gen) gopter.Gen {
	return derive(
		func(info codec.ClientVersionInfo, user, pass, ctx []byte) codec.LoginRegister {
			return codec.LoginRegister{Info: baseInfo(info), Username: user, Password: codec.NewSecret(pass), Context: ctx}
		},
		func(l codec.LoginRegister) (codec.ClientVersionInfo, []byte, []byte, []byte) {
			return l.Info, l.Username, l.Password.Bytes(), l.Context
		},
		GenClientVersionInfo(), GenText(1, MaxText8), password, GenContext(),
	)
}

// GenLoginRegisterPAT generates a valid LOGIN_REGISTER_WITH_PAT body of
// the 0.11.0 layout: token 0..255 (empty included), context absent, short
// or long; its version is any but 0.11.1, as GenLoginRegister's.
func GenLoginRegisterPAT() gopter.Gen { return genLoginRegisterPAT(GenSecret()) }

// GenMarkedLoginRegisterPAT is GenLoginRegisterPAT with a token from
// GenMarkedSecret.
func GenMarkedLoginRegisterPAT() gopter.Gen { return genLoginRegisterPAT(GenMarkedSecret()) }

func genLoginRegisterPAT(token gopter.Gen) gopter.Gen {
	return derive(
		func(info codec.ClientVersionInfo, tok, ctx []byte) codec.LoginRegisterPAT {
			return codec.LoginRegisterPAT{Info: baseInfo(info), Token: codec.NewSecret(tok), Context: ctx}
		},
		func(l codec.LoginRegisterPAT) (codec.ClientVersionInfo, []byte, []byte) {
			return l.Info, l.Token.Bytes(), l.Context
		},
		GenClientVersionInfo(), token, GenContext(),
	)
}

// baseInfo is info with a version that selects the 0.11.0 layout: the
// encoders refuse a RevisionBase body of 0.11.1 (rule
// body.revision.version), so 0.11.1 becomes 0.11.0.
func baseInfo(info codec.ClientVersionInfo) codec.ClientVersionInfo {
	if codec.RevisionOf(info.Protocol) != codec.RevisionBase {
		info.Protocol = codec.Protocol0110
	}
	return info
}

// GenLoginReply generates a valid login reply: a session of 1..2^64-1
// (never 0), any user id and wire version, a server version of 1..255 bytes.
func GenLoginReply() gopter.Gen {
	return derive(
		func(user uint32, session uint64, proto codec.Version, version []byte) codec.LoginReply {
			return codec.LoginReply{UserID: user, Session: session, ServerProtocol: proto, ServerVersion: version}
		},
		func(l codec.LoginReply) (uint32, uint64, codec.Version, []byte) {
			return l.UserID, l.Session, l.ServerProtocol, l.ServerVersion
		},
		pick[uint32](0, ^uint32(0), 0, 1, 1<<31, ^uint32(0)),
		pick[uint64](1, ^uint64(0), 1, 2, 1<<32, 1<<63, ^uint64(0)),
		GenWireVersion(), GenText(1, MaxText8),
	)
}
