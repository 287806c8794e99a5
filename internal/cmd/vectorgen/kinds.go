package main

// What each kind is for the people who load it: which side of the
// connection decodes it, and which of its decoded fields an implementation
// must expose for a vector to be checked. The fields are split so that an
// SDK whose header type drops what nobody reads (the prologue's checksums,
// a reply's context) can still run every case: it compares the required
// fields and skips the optional ones it does not keep.

// Sides of the connection.
const (
	SideClient = "client" // an SDK decodes it: what a server sends
	SideServer = "server" // a server decodes it: what a client sends
	SideBoth   = "both"   // neither side reads it off the wire; both parse it
)

// kindInfo is the file-level description of a kind.
type kindInfo struct {
	side     string
	required []string // an implementation must expose these to run the kind
	optional []string // decoded too; compare them when the implementation keeps them
	surface  []string // the parts of expect an SDK surfaces to its caller
}

// The prologue of WIRE.md section 5 that nobody verifies: kept by a codec
// that re-encodes, optional for everybody else.
func prologueOptional() []string {
	return []string{"checksum", "checksum_body", "cluster", "view", "release", "replica"}
}

func infoRequired() []string { return []string{"protocol_version", "sdk_name", "sdk_version"} }

func loginReplyRequired() []string {
	return []string{"user_id", "session", "server_protocol_version", "server_version"}
}

// replyRequired is what a client correlates and acts on (section 7, point
// 9): the frame's size, whom and which request it answers, under which
// operation, and its status.
func replyRequired() []string { return []string{"size", "client", "request", "operation", "status"} }

func replyOptional() []string {
	return append(prologueOptional(), "request_checksum", "context", "op", "commit", "timestamp")
}

func kindInfos() map[string]kindInfo {
	sdk := []string{"sdk_code", "sdk_error"}
	return map[string]kindInfo{
		KindVersionText:   {side: SideBoth, required: []string{"major", "minor", "patch", "value"}},
		KindWindow:        {side: SideServer, required: []string{"accepts"}, optional: []string{"version_valid", "well_formed"}},
		KindDefaultWindow: {side: SideServer, required: []string{"min", "max"}, optional: []string{"well_formed"}},
		KindClientInfo:    {side: SideServer, required: infoRequired()},
		KindLogin:         {side: SideServer, required: append(infoRequired(), "username", "password_len", "context")},
		KindLoginPAT:      {side: SideServer, required: append(infoRequired(), "token_len", "context")},
		KindLoginReply:    {side: SideClient, required: loginReplyRequired()},
		KindResult:        {side: SideClient, required: []string{"result_code", "payload"}},
		KindRequest: {side: SideServer, required: []string{"size", "client", "request", "operation", "session", "code"},
			optional: append(prologueOptional(), "request_checksum", "timestamp", "user_id")},
		KindReply: {side: SideClient, required: replyRequired(), optional: replyOptional()},
		KindEviction: {side: SideClient, required: []string{"client", "reason", "window_max", "window_min"},
			optional: append(prologueOptional(), "size"), surface: sdk},
		KindLoginFrame: {side: SideClient, required: append(append(replyRequired(), "result_code"), loginReplyRequired()...),
			optional: replyOptional(), surface: append(sdk, "retry")},
		KindLifecycle: {side: SideServer},
		KindLoginSecret: {side: SideServer,
			required: append(infoRequired(), "bind_secret_len", "username", "password_len", "context")},
		KindLoginPATSecret: {side: SideServer, required: append(infoRequired(), "bind_secret_len", "token_len", "context")},
		KindBind: {side: SideServer,
			required: append(infoRequired(), "client_id", "session", "metadata_watermark", "bind_secret_len")},
	}
}

// describe fills in the kind-level fields of f.
func (f *File) describe() {
	ki := kindInfos()[f.Kind]
	f.Side, f.RequiredFields, f.OptionalFields, f.Surface = ki.side, ki.required, ki.optional, ki.surface
}
