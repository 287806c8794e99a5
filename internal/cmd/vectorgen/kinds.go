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
	desc     string   // the file's description
}

// The prologue of WIRE.md section 5 that nobody verifies: kept by a codec
// that re-encodes, optional for everybody else.
func prologueOptional() []string {
	return []string{"checksum", "checksum_body", "cluster", "view", "release", "replica"}
}

func replyOptional() []string {
	return append(prologueOptional(), "request_checksum", "context", "op", "commit", "timestamp")
}

func kindInfos() map[string]kindInfo {
	sdk := []string{"sdk_code", "sdk_error"}
	info := []string{"protocol_version", "sdk_name", "sdk_version"}
	loginReply := []string{"user_id", "session", "server_protocol_version", "server_version"}
	// What a client correlates and acts on (section 7, point 9): the
	// frame's size, whom and which request it answers, under which
	// operation, and its status.
	reply := []string{"size", "client", "request", "operation", "status"}
	return map[string]kindInfo{
		KindVersionText: {side: SideBoth, required: []string{"major", "minor", "patch", "value"},
			desc: "Version text (WIRE.md section 1): input is the text's bytes; ok gives major, minor, patch and the packed value."},
		KindWindow: {side: SideServer, required: []string{"accepts"}, optional: []string{"version_valid", "well_formed"},
			desc: "Window acceptance (section 1): input is the client's packed version (u32 LE); window is the server's {min, max}."},
		KindDefaultWindow: {side: SideServer, required: []string{"min", "max"}, optional: []string{"well_formed"},
			desc: "Default window (section 1): input is the server's packed version (u32 LE)."},
		KindClientInfo: {side: SideServer, required: info,
			desc: "ClientVersionInfo (section 2), strict or prefix decode."},
		KindLogin: {side: SideServer, required: append(info, "username", "password_len", "context"),
			desc: "LOGIN_REGISTER body, code 40 (section 3). The password is given as its length only."},
		KindLoginPAT: {side: SideServer, required: append(info, "token_len", "context"),
			desc: "LOGIN_REGISTER_WITH_PAT body, code 45 (section 3). The token is given as its length only."},
		KindLoginReply: {side: SideClient, required: loginReply,
			desc: "Login reply body (section 4), after the result section."},
		KindResult: {side: SideClient, required: []string{"result_code", "payload"},
			desc: "Result section of a committed Register reply (section 4): input is the reply body."},
		KindRequest: {side: SideServer, required: []string{"size", "client", "request", "operation", "session", "code"},
			optional: append(prologueOptional(), "request_checksum", "timestamp", "user_id"),
			desc:     "Request header (section 5): input is the frame; only its first 256 bytes are decoded."},
		KindReply: {side: SideClient, required: reply, optional: replyOptional(),
			desc: "Reply header (section 5): input is the frame; only its first 256 bytes are decoded."},
		KindEviction: {side: SideClient, required: []string{"client", "reason", "window_max", "window_min"},
			optional: append(prologueOptional(), "size"), surface: sdk,
			desc: "Eviction (section 5) and the error code an SDK surfaces for it (section 8)."},
		KindLoginFrame: {side: SideClient, required: append(append(reply, "result_code"), loginReply...),
			optional: replyOptional(), surface: append(sdk, "retry"),
			desc: "A whole Reply frame answering a Register, read as an SDK reads it (sections 4, 5, 8): header, status, result section, login reply."},
		KindLifecycle: {side: SideServer,
			desc: "Request frames in, the server's exact answers out (sections 7 and 10.4). Each case starts a fresh server with the configuration named by its server field; a step's conn names the connection it goes to (0 when absent), every connection to that one server."},
		KindLoginSecret: {side: SideServer,
			required: append(info, "bind_secret_len", "username", "password_len", "context"),
			desc:     "LOGIN_REGISTER body of protocol 0.11.1, code 40 (section 10.2): the 32-byte bind secret after the ClientVersionInfo. The bind secret and the password are given as their lengths only."},
		KindLoginPATSecret: {side: SideServer, required: append(info, "bind_secret_len", "token_len", "context"),
			desc: "LOGIN_REGISTER_WITH_PAT body of protocol 0.11.1, code 45 (section 10.2). The bind secret and the token are given as their lengths only."},
		KindBind: {side: SideServer,
			required: append(info, "client_id", "session", "metadata_watermark", "bind_secret_len"),
			desc:     "BIND_SESSION body, code 15 (section 10.3). The bind secret is given as its length only."},
	}
}
