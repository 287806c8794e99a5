package main

import (
	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/codectest"
)

// Rule is one rule of WIRE.md a case can exercise. Validity rules are the
// ones a decoder enforces: breaking one is an error with the rule's
// sentinel. Encoding rules are limits only an encoder can break (a value
// too long for its length prefix: the wire cannot carry one that breaks
// them), so no case exercises them and they are optional; an encoder
// reports one like a validity rule, with its sentinel. Acceptance rules
// decide what a version window accepts, lifecycle rules what a server
// answers (section 7), and mapping rules which error code an SDK surfaces
// for a frame (section 8). package codec reports the id of a validity or
// encoding rule as codec.Error.Rule.
type Rule struct {
	ID       string `json:"id"`
	Section  string `json:"section"`
	Class    string `json:"class"`
	Sentinel string `json:"sentinel,omitempty"`
	Optional bool   `json:"optional,omitempty"`
	Text     string `json:"text"`
}

// Rule classes.
const (
	ClassValidity   = "validity"
	ClassEncoding   = "encoding"
	ClassAcceptance = "acceptance"
	ClassLifecycle  = "lifecycle"
	ClassMapping    = "mapping"
)

// sentinelOf is the vectors' name of the codec sentinel err matches, from
// the one list of them in codectest (every name a rule or a verdict
// carries comes from it).
func sentinelOf(err error) string {
	if name := codectest.Name(err); name != "" {
		return name
	}
	return "unknown: " + err.Error()
}

func validity(id, section string, sentinel error, text string) Rule {
	return Rule{ID: id, Section: section, Class: ClassValidity, Sentinel: sentinelOf(sentinel), Text: text}
}

// encoding is a rule no decoder can see broken: optional, since no case
// can exercise it.
func encoding(id, section string, sentinel error, text string) Rule {
	return Rule{ID: id, Section: section, Class: ClassEncoding, Sentinel: sentinelOf(sentinel), Optional: true, Text: text}
}

func rule(id, section, class, text string) Rule {
	return Rule{ID: id, Section: section, Class: class, Text: text}
}

// ruleList returns every rule, in the order WIRE.md writes them. Ids are
// names, not numbers: a rule keeps its id for as long as WIRE.md keeps it.
func ruleList() []Rule {
	life := func(id, text string) Rule { return rule(id, "7", ClassLifecycle, text) }
	sdk := func(id, text string) Rule { return rule(id, "8", ClassMapping, text) }
	life10 := func(id, section, text string) Rule { return rule(id, section, ClassLifecycle, text) }
	return []Rule{
		// Section 1: version text and windows.
		validity("version.text.digits", "1", codec.ErrSyntax, "each component is one or more decimal digits"),
		validity("version.text.dot", "1", codec.ErrSyntax, "'.' between major, minor and patch"),
		validity("version.text.end", "1", codec.ErrSyntax, "after patch: the end of the text, or '-' or '+' followed by anything"),
		validity("version.text.range", "1", codec.ErrRange, "each component <= 1023"),
		rule("version.reserved_bits", "1", ClassAcceptance, "a value with bits 31..30 set is not a valid version: no window accepts it"),
		rule("window.well_formed", "1", ClassAcceptance, "a window is well-formed iff 1 <= min <= max; one that is not accepts nothing"),
		rule("window.0x", "1", ClassAcceptance, "max.major == 0: accept v iff v >= min and v>>10 <= max>>10"),
		rule("window.1x", "1", ClassAcceptance, "max.major >= 1: accept v iff v >= min and v.major == max.major"),
		rule("window.default", "1", ClassAcceptance, "default min = max with patch zeroed (0.x), with minor and patch zeroed (>= 1.0)"),
		// Sections 2 to 4: the bodies.
		validity("cvi.truncated", "2", codec.ErrTruncated, "every ClientVersionInfo field lies within the input"),
		validity("cvi.sdk_name.length", "2", codec.ErrLength, "sdk_name is 1..255 bytes (length 0 is malformed)"),
		validity("cvi.sdk_name.utf8", "2", codec.ErrUTF8, "sdk_name is UTF-8"),
		validity("cvi.sdk_version.length", "2", codec.ErrLength, "sdk_version is 1..255 bytes (length 0 is malformed)"),
		validity("cvi.sdk_version.utf8", "2", codec.ErrUTF8, "sdk_version is UTF-8"),
		validity("login.truncated", "3", codec.ErrTruncated, "every LOGIN_REGISTER field lies within the input"),
		validity("login.username.length", "3", codec.ErrLength, "username is 1..255 bytes"),
		validity("login.username.utf8", "3", codec.ErrUTF8, "username is UTF-8"),
		validity("login.password.utf8", "3", codec.ErrUTF8, "password is UTF-8"),
		encoding("login.password.length", "3", codec.ErrLength, "password is 0..255 bytes: an encoder cannot write a longer one behind its u8 length"),
		validity("login.context.claim", "3", codec.ErrTruncated, "context_len is a claim checked against the bytes present"),
		validity("login.context.utf8", "3", codec.ErrUTF8, "context is UTF-8"),
		encoding("login.context.length", "3", codec.ErrLength, "context is at most 4294967295 bytes: an encoder cannot write a longer one behind its u32 length"),
		validity("pat.truncated", "3", codec.ErrTruncated, "every LOGIN_REGISTER_WITH_PAT field lies within the input"),
		validity("pat.token.utf8", "3", codec.ErrUTF8, "token is UTF-8"),
		encoding("pat.token.length", "3", codec.ErrLength, "token is 0..255 bytes: an encoder cannot write a longer one behind its u8 length"),
		validity("pat.context.claim", "3", codec.ErrTruncated, "context_len is a claim checked against the bytes present"),
		validity("pat.context.utf8", "3", codec.ErrUTF8, "context is UTF-8"),
		encoding("pat.context.length", "3", codec.ErrLength, "context is at most 4294967295 bytes: an encoder cannot write a longer one behind its u32 length"),
		validity("body.trailing", "3", codec.ErrTrailing, "a strict parse of a whole body rejects bytes after the last field"),
		validity("login_reply.truncated", "4", codec.ErrTruncated, "every login reply field lies within the input"),
		validity("login_reply.session", "4", codec.ErrField, "a login reply carrying session 0 is invalid"),
		validity("login_reply.server_version.length", "4", codec.ErrLength, "server_version is 1..255 bytes"),
		validity("login_reply.server_version.utf8", "4", codec.ErrUTF8, "server_version is UTF-8"),
		validity("login_reply.trailing", "4", codec.ErrTrailing, "the login reply is the whole rest of the frame: a strict parse of a whole body rejects bytes after it (section 3)"),
		validity("result.count", "4", codec.ErrTruncated, "a result section shorter than 4 bytes is truncated (an empty Register reply body is a terminal failure)"),
		validity("result.entries", "4", codec.ErrTruncated, "a result section shorter than 4 + 8*count is truncated"),
		// Section 5: the headers.
		validity("header.length", "5", codec.ErrTruncated, "length >= 256: every frame starts with a 256-byte header"),
		validity("frame.size", "5", codec.ErrSize, "256 <= size <= 64 MiB, read from a header of any kind before it is decoded, to find the body: outside it, the next frame cannot be found (section 7, point 8)"),
		validity("request.command", "5", codec.ErrCommand, "command == 5 (Request)"),
		validity("request.size", "5", codec.ErrSize, "256 <= size <= 64 MiB"),
		validity("request.client", "5", codec.ErrField, "client != 0"),
		validity("request.operation", "5", codec.ErrField, "operation is a known value and != 0 (Reserved)"),
		validity("request.register.session", "5", codec.ErrField, "operation Register => session == 0"),
		validity("request.register.request", "5", codec.ErrField, "operation Register => request == 0"),
		validity("request.nonreplicated.code", "5", codec.ErrField, "operation NonReplicated => the code at 196..200 is non-zero"),
		validity("request.replicated.session", "5", codec.ErrField, "any other operation => session > 0"),
		validity("request.replicated.request", "5", codec.ErrField, "any other operation => request > 0"),
		validity("request.reserved_frame", "5", codec.ErrReserved, "reserved_frame (62..128) is zero; checked after the field rules"),
		validity("request.operation_padding", "5", codec.ErrReserved, "operation padding (177..184) is zero; checked after reserved_frame"),
		validity("request.reserved.code", "5", codec.ErrReserved, "every operation but NonReplicated => bytes 196..200 are zero like the rest of the reserved area"),
		validity("request.reserved", "5", codec.ErrReserved, "the reserved area (200..256, and 196..200 unless NonReplicated) is zero; checked last"),
		validity("reply.command", "5", codec.ErrCommand, "command == 8 (Reply)"),
		validity("reply.size", "5", codec.ErrSize, "256 <= size <= 64 MiB"),
		validity("reply.operation", "5", codec.ErrField, "operation is a known value (0 included)"),
		validity("reply.status", "5", codec.ErrField, "status != 0 => size == 256 (a denial never carries a body)"),
		validity("reply.reserved_frame", "5", codec.ErrReserved, "reserved_frame (62..128) is zero; checked after the field rules"),
		validity("reply.operation_padding", "5", codec.ErrReserved, "operation padding (209..216) is zero"),
		validity("reply.reserved", "5", codec.ErrReserved, "reserved (220..256) is zero; checked last"),
		validity("eviction.command", "5", codec.ErrCommand, "command == 13"),
		validity("eviction.size", "5", codec.ErrSize, "size == 256"),
		validity("eviction.client", "5", codec.ErrField, "client != 0"),
		validity("eviction.reserved_frame", "5", codec.ErrReserved, "reserved_frame all zero"),
		validity("eviction.reserved", "5", codec.ErrReserved, "reserved (152..255) all zero"),
		validity("eviction.reason", "5", codec.ErrReason, "reason != 0 and a known value (1..15)"),
		validity("eviction.window.incompatible", "5", codec.ErrWindow, "reason 14 => window well-formed (1 <= min <= max)"),
		validity("eviction.window.zero", "5", codec.ErrWindow, "any other reason => both window fields zero"),
		// Section 7: what a server answers.
		life("lifecycle.1a", "a Register body whose ClientVersionInfo does not decode => eviction 15, window zero"),
		life("lifecycle.1b", "a version outside the window => eviction 14 carrying {max, min} at 144/148"),
		life("lifecycle.1c", "a LOGIN_REGISTER body with the right password logs in"),
		life("lifecycle.1d", "a LOGIN_REGISTER_WITH_PAT body with a valid token logs in; unknown token => 10; inactive user => 11"),
		life("lifecycle.1e", "otherwise eviction 9 if the password was rejected, else 15"),
		life("lifecycle.1.prefix", "both decodes are prefix decodes: an empty wrong password with no context reads as a token (=> 10)"),
		life("lifecycle.1.reply", "success => Reply (Register, client id echoed, request 0, status 0), body: 00 00 00 00 then the login reply"),
		life("lifecycle.1.sessions", "sessions are non-zero and strictly increasing across every login on one server"),
		life("lifecycle.1.evict", "every eviction carries the request's client id and the server closes after it"),
		life("lifecycle.2", "NonReplicated code 38 or 44 (legacy logins) => eviction 15"),
		life("lifecycle.3", "PING (NonReplicated, code 1) is answered before and after login: status 0, client id and request echoed, empty body"),
		life("lifecycle.4", "any other NonReplicated request before login => Reply status 40, empty body, connection lives on"),
		life("lifecycle.5", "any replicated request before login => eviction 1 (NoSession)"),
		life("lifecycle.6", "logout (Logout, empty body, bound session) => Reply status 0; the connection may log in again"),
		life("lifecycle.7.too_low", "from the bound client id, a lower session => eviction 7"),
		life("lifecycle.7.ahead", "from the bound client id, a higher session => dropped without an answer"),
		life("lifecycle.7.other_client", "a replicated request from another client id => eviction 1"),
		life("lifecycle.7.relogin", "a Register on a logged-in connection is a new login that replaces the binding"),
		life("lifecycle.7.deny", "a test server denies other commands after login with status 3, echoing client id, request and operation"),
		life("lifecycle.8.dropped", "a frame whose header is not a valid Request is dropped: no answer, no change of state"),
		life("lifecycle.8.size", "a size below 256 or above the cap ends the connection without an answer"),
		{ID: "lifecycle.8.cap", Section: "7", Class: ClassLifecycle, Optional: true, Text: "a server capping frames below 64 MiB answers a well-formed frame above its cap with eviction 6, then closes"},
		life("lifecycle.9", "the server never requires NonReplicated request numbers to increase; every Reply echoes the request number"),
		// Section 8: the error codes an SDK surfaces.
		sdk("sdk.3", "InvalidCommand: evictions 2-6, an unknown reason byte, a malformed reply"),
		sdk("sdk.4", "InvalidFormat: eviction 15"),
		sdk("sdk.30", "StaleClient: eviction 13"),
		sdk("sdk.40", "Unauthenticated: evictions 1, 7, 8, 11, 12; eviction 14 with an ill-formed window; deny status 40"),
		sdk("sdk.42", "InvalidCredentials: eviction 9"),
		sdk("sdk.53", "InvalidPersonalAccessToken: eviction 10"),
		sdk("sdk.57", "TransientNotCommitted: result code of a Register reply; replay the same request on the same connection with the same client id"),
		sdk("sdk.58", "TransientNotAccepted: result code of a Register reply; the login may be re-issued anywhere, even under a fresh client id"),
		sdk("sdk.incompatible", "IncompatibleProtocolVersion(client, min, max): eviction 14 with a well-formed window"),
		// Section 10: protocol 0.11.1, its bind secret, BIND_SESSION and
		// windows that count patch.
		rule("revision.of", "10.1", ClassAcceptance, "a body's version selects its layout: 0.11.1 the bind-secret layout, every other version the 0.11.0 layout; a decoder is told the layout, never guesses it"),
		encoding("body.revision", "10.1", codec.ErrField, "a login body is read and written in a known revision (0.11.0 or 0.11.1): the revision is the caller's argument, not a wire field"),
		encoding("body.revision.version", "10.1", codec.ErrField, "a login body is written in the revision its protocol_version selects (revision.of): an encoder refuses a Revision that contradicts the body's version, since every server would read that body in the other layout"),
		encoding("login.bind_secret.length", "10.2", codec.ErrLength, "the bind secret of LOGIN_REGISTER is exactly 32 bytes in the 0.11.1 layout and absent in 0.11.0's (missing bytes break login.truncated)"),
		encoding("pat.bind_secret.length", "10.2", codec.ErrLength, "the bind secret of LOGIN_REGISTER_WITH_PAT is exactly 32 bytes in the 0.11.1 layout and absent in 0.11.0's (missing bytes break pat.truncated)"),
		validity("bind.truncated", "10.3", codec.ErrTruncated, "every BIND_SESSION field lies within the input: client_id, session, metadata_watermark, then the 32-byte bind_secret"),
		encoding("bind.bind_secret.length", "10.3", codec.ErrLength, "the bind secret of BIND_SESSION is exactly 32 bytes"),
		rule("window.count_patch", "10.5", ClassAcceptance, "a window that counts patch (protocol 0.11.1's) accepts v iff min <= v <= max, whatever the major"),
		life10("lifecycle.10.login", "10.5", "a login is read in the layout its version selects; a 0.11.1 login logs in at a 0.11.0 default window, a 0.11.0 login at a 0.11.1 window gets eviction 14"),
		life10("lifecycle.10.bind.malformed", "10.4", "BIND_SESSION whose ClientVersionInfo or rest does not decode, or whose version selects the 0.11.0 layout => Reply status 3"),
		life10("lifecycle.10.bind.window", "10.4", "BIND_SESSION whose version is outside the window => Reply status 14003, not an eviction"),
		life10("lifecycle.10.bind.unknown", "10.4", "BIND_SESSION for a client id with no logical session => 40, session 0 included (a server that decides each login before answering it; upstream's replicated server answers 58 for session 0)"),
		life10("lifecycle.10.bind.refused", "10.4", "BIND_SESSION with a wrong secret, or after the session's logout => status 40"),
		life10("lifecycle.10.bind.session", "10.4", "BIND_SESSION naming a non-zero session other than the logical session's => status 14001"),
		life10("lifecycle.10.bind.ok", "10.4", "BIND_SESSION with the login's secret => Reply status 0 whose body is the bare login reply (no result section); session 0 binds the login's session; the connection is logged in as it"),
		life10("lifecycle.10.bind.evicted", "10.4", "an eviction of a connection bound to a logical session ends that session as a logout does: BIND_SESSION of it => status 40"),
		life10("lifecycle.10.bind.logout", "10.4", "a Logout ends the logical session for every connection bound to it: another connection bound to it is logged out from then on (a replicated request => eviction 1, another command but ping and BIND_SESSION => 40)"),
	}
}
