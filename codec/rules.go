package codec

// Rule ids: every Error.Rule the package reports, one constant per rule of
// vectors/rules.json that a codec error can name (the file is written by
// internal/cmd/vectorgen from its rules.go). They are the validity rules there,
// plus the few encoding rules: limits that only an encoder can break, since
// the wire has no way to carry a value that breaks them (a password of 256
// bytes has no u8 length). An id is chosen at the error site, so a success
// path never builds one, and ids are append-only like the file's: a rule
// keeps its id for good. TestRuleSitesReachEveryID holds every constant
// here to the file.
const (
	// Version text (WIRE.md section 1); Pack's range too.
	ruleVersionDigits = "version.text.digits"
	ruleVersionDot    = "version.text.dot"
	ruleVersionEnd    = "version.text.end"
	ruleVersionRange  = "version.text.range"

	// ClientVersionInfo (section 2), alone or as the prefix of a login body.
	ruleCVITruncated     = "cvi.truncated"
	ruleCVINameLength    = "cvi.sdk_name.length"
	ruleCVINameUTF8      = "cvi.sdk_name.utf8"
	ruleCVIVersionLength = "cvi.sdk_version.length"
	ruleCVIVersionUTF8   = "cvi.sdk_version.utf8"

	// LOGIN_REGISTER and LOGIN_REGISTER_WITH_PAT (section 3), after their
	// ClientVersionInfo prefix.
	ruleLoginTruncated      = "login.truncated"
	ruleLoginUsernameLength = "login.username.length"
	ruleLoginUsernameUTF8   = "login.username.utf8"
	ruleLoginPasswordLength = "login.password.length" // encoding rule
	ruleLoginPasswordUTF8   = "login.password.utf8"
	ruleLoginContextClaim   = "login.context.claim"
	ruleLoginContextLength  = "login.context.length" // encoding rule
	ruleLoginContextUTF8    = "login.context.utf8"
	rulePATTruncated        = "pat.truncated"
	rulePATTokenLength      = "pat.token.length" // encoding rule
	rulePATTokenUTF8        = "pat.token.utf8"
	rulePATContextClaim     = "pat.context.claim"
	rulePATContextLength    = "pat.context.length" // encoding rule
	rulePATContextUTF8      = "pat.context.utf8"
	// The bind secret of both login bodies in RevisionBindSecret (section
	// 10.2): missing, it breaks the body's truncation rule; an encoder
	// refuses a secret whose length does not fit the value's revision, and
	// a revision that is not known (a decoder too: it is the caller's
	// argument, not a wire field).
	ruleLoginBindSecretLength = "login.bind_secret.length" // encoding rule
	rulePATBindSecretLength   = "pat.bind_secret.length"   // encoding rule
	ruleBodyRevision          = "body.revision"            // encoding rule
	// ruleBodyRevisionVersion: an encoder refuses a login body whose
	// Revision is not the one its Info.Protocol selects (RevisionOf).
	ruleBodyRevisionVersion = "body.revision.version" // encoding rule

	// BIND_SESSION (section 10.3), after its ClientVersionInfo prefix.
	ruleBindTruncated    = "bind.truncated"
	ruleBindSecretLength = "bind.bind_secret.length" // encoding rule

	// ruleBodyTrailing: bytes after a strict parse of ClientVersionInfo, of
	// either login body or of BIND_SESSION.
	ruleBodyTrailing = "body.trailing"

	// The login reply and the result section before it (section 4).
	ruleLoginReplyTruncated     = "login_reply.truncated"
	ruleLoginReplySession       = "login_reply.session"
	ruleLoginReplyVersionLength = "login_reply.server_version.length"
	ruleLoginReplyVersionUTF8   = "login_reply.server_version.utf8"
	ruleLoginReplyTrailing      = "login_reply.trailing"
	ruleResultCount             = "result.count"
	ruleResultEntries           = "result.entries"

	// Headers (section 5). header.length is every kind's (and PeekCommand's
	// and FrameSize's); frame.size is FrameSize's size rule, which reads a
	// header of any kind.
	ruleHeaderLength = "header.length"
	ruleFrameSize    = "frame.size"

	ruleReqCommand         = "request.command"
	ruleReqSize            = "request.size"
	ruleReqClient          = "request.client"
	ruleReqOperation       = "request.operation"
	ruleReqRegisterSession = "request.register.session"
	ruleReqRegisterRequest = "request.register.request"
	ruleReqCode            = "request.nonreplicated.code"
	ruleReqSession         = "request.replicated.session"
	ruleReqRequest         = "request.replicated.request"
	ruleReqReservedFrame   = "request.reserved_frame"
	ruleReqPadding         = "request.operation_padding"
	ruleReqReservedCode    = "request.reserved.code"
	ruleReqReserved        = "request.reserved"

	ruleRepCommand       = "reply.command"
	ruleRepSize          = "reply.size"
	ruleRepOperation     = "reply.operation"
	ruleRepStatus        = "reply.status"
	ruleRepReservedFrame = "reply.reserved_frame"
	ruleRepPadding       = "reply.operation_padding"
	ruleRepReserved      = "reply.reserved"

	ruleEvCommand       = "eviction.command"
	ruleEvSize          = "eviction.size"
	ruleEvClient        = "eviction.client"
	ruleEvReservedFrame = "eviction.reserved_frame"
	ruleEvReserved      = "eviction.reserved"
	ruleEvReason        = "eviction.reason"
	ruleEvWindow14      = "eviction.window.incompatible"
	ruleEvWindowZero    = "eviction.window.zero"
)

// What a rule wants, written like code, for Error.Want. Rules with a text
// of their own write it at the error site.
const (
	wantInInput   = "field within the input"
	wantNonEmpty  = "len >= 1"
	wantUTF8      = "valid UTF-8"
	wantMax8      = "len <= 255"
	wantMax32     = "len <= 4294967295"
	wantNoTrail   = "no bytes after the last field"
	wantHeader    = "len >= 256"
	wantSize      = "256 <= size <= 64 MiB"
	wantReserved  = "reserved byte == 0"
	wantClient    = "client != 0"
	wantComponent = "component <= 1023"
	// wantReservedCode is the rule of a request's bytes 196..200, which
	// hold a code only for operation NonReplicated.
	wantReservedCode = "operation != NonReplicated => bytes 196..200 == 0"
)

// textField is one text field of a body: the wire names of its length
// prefix and of its bytes, the prefix's width (1 or 4), the least length,
// and the ids of its rules: the length (too short, or too long for the
// prefix), its bytes missing from the input (the message's truncation
// rule, or a claim rule of its own), and UTF-8. The decoders and encoders
// read the fields below and never change them.
type textField struct {
	lenName, name           Field
	prefix, minLen          int
	length, truncated, utf8 string
	secret                  bool // a password or a token: a UTF-8 error names the field's offset (utf8At)
}

// The text fields of the bodies, by message.
var (
	fieldSDKName       = textField{"sdk_name_len", "sdk_name", 1, 1, ruleCVINameLength, ruleCVITruncated, ruleCVINameUTF8, false}
	fieldSDKVersion    = textField{"sdk_version_len", "sdk_version", 1, 1, ruleCVIVersionLength, ruleCVITruncated, ruleCVIVersionUTF8, false}
	fieldUsername      = textField{"username_len", "username", 1, 1, ruleLoginUsernameLength, ruleLoginTruncated, ruleLoginUsernameUTF8, false}
	fieldPassword      = textField{"password_len", "password", 1, 0, ruleLoginPasswordLength, ruleLoginTruncated, ruleLoginPasswordUTF8, true}
	fieldLoginContext  = textField{"context_len", "context", 4, 0, ruleLoginContextLength, ruleLoginContextClaim, ruleLoginContextUTF8, false}
	fieldToken         = textField{"token_len", "token", 1, 0, rulePATTokenLength, rulePATTruncated, rulePATTokenUTF8, true}
	fieldPATContext    = textField{"context_len", "context", 4, 0, rulePATContextLength, rulePATContextClaim, rulePATContextUTF8, false}
	fieldServerVersion = textField{"server_version_len", "server_version", 1, 1, ruleLoginReplyVersionLength, ruleLoginReplyTruncated, ruleLoginReplyVersionUTF8, false}
)
