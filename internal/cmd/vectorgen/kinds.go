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

// The prologue of WIRE.md section 5 that nobody verifies: kept by a codec
// that re-encodes, optional for everybody else.
func prologueOptional() []string {
	return []string{"checksum", "checksum_body", "cluster", "view", "release", "replica"}
}

func replyOptional() []string {
	return append(prologueOptional(), "request_checksum", "context", "op", "commit", "timestamp")
}

// kindInfos are the file-level fields of each kind's File.
func kindInfos() map[string]File {
	sdk := []string{"sdk_code", "sdk_error"}
	info := []string{"protocol_version", "sdk_name", "sdk_version"}
	loginReply := []string{"user_id", "session", "server_protocol_version", "server_version"}
	// What a client correlates and acts on (section 7, point 9): the
	// frame's size, whom and which request it answers, under which
	// operation, and its status.
	reply := []string{"size", "client", "request", "operation", "status"}
	return map[string]File{
		KindVersionText: {Side: SideBoth, RequiredFields: []string{"major", "minor", "patch", "value"},
			Description: "Version text (WIRE.md section 1): input is the text's bytes; ok gives major, minor, patch and the packed value."},
		KindWindow: {Side: SideServer, RequiredFields: []string{"accepts"},
			OptionalFields: []string{"version_valid", "well_formed"},
			Description:    "Window acceptance (section 1): input is the client's packed version (u32 LE); window is the server's {min, max}."},
		KindDefaultWindow: {Side: SideServer, RequiredFields: []string{"min", "max"},
			OptionalFields: []string{"well_formed"},
			Description:    "Default window (section 1): input is the server's packed version (u32 LE)."},
		KindClientInfo: {Side: SideServer, RequiredFields: info,
			Description: "ClientVersionInfo (section 2), strict or prefix decode."},
		KindLogin: {Side: SideServer, RequiredFields: append(info, "username", "password_len", "context"),
			Description: "LOGIN_REGISTER body, code 40 (section 3). The password is given as its length only."},
		KindLoginPAT: {Side: SideServer, RequiredFields: append(info, "token_len", "context"),
			Description: "LOGIN_REGISTER_WITH_PAT body, code 45 (section 3). The token is given as its length only."},
		KindLoginReply: {Side: SideClient, RequiredFields: loginReply,
			Description: "Login reply body (section 4), after the result section."},
		KindResult: {Side: SideClient, RequiredFields: []string{"result_code", "payload"},
			Description: "Result section of a committed Register reply (section 4): input is the reply body."},
		KindRequest: {Side: SideServer,
			RequiredFields: []string{"size", "client", "request", "operation", "session", "code"},
			OptionalFields: append(prologueOptional(), "request_checksum", "timestamp", "user_id"),
			Description:    "Request header (section 5): input is the frame; only its first 256 bytes are decoded."},
		KindReply: {Side: SideClient, RequiredFields: reply, OptionalFields: replyOptional(),
			Description: "Reply header (section 5): input is the frame; only its first 256 bytes are decoded."},
		KindEviction: {Side: SideClient, RequiredFields: []string{"client", "reason", "window_max", "window_min"},
			OptionalFields: append(prologueOptional(), "size"), Surface: sdk,
			Description: "Eviction (section 5) and the error code an SDK surfaces for it (section 8)."},
		KindLoginFrame: {Side: SideClient, RequiredFields: append(append(reply, "result_code"), loginReply...),
			OptionalFields: replyOptional(), Surface: append(sdk, "retry"),
			Description: "A whole Reply frame answering a Register, read as an SDK reads it (sections 4, 5, 8): header, status, result section, login reply."},
		KindLifecycle: {Side: SideServer,
			Description: "Request frames in, the server's exact answers out (sections 7 and 10.4). Each case starts a fresh server with the configuration named by its server field; a step's conn names the connection it goes to (0 when absent), every connection to that one server."},
		KindLoginSecret: {Side: SideServer,
			RequiredFields: append(info, "bind_secret_len", "username", "password_len", "context"),
			Description:    "LOGIN_REGISTER body of protocol 0.11.1, code 40 (section 10.2): the 32-byte bind secret after the ClientVersionInfo. The bind secret and the password are given as their lengths only."},
		KindLoginPATSecret: {Side: SideServer, RequiredFields: append(info, "bind_secret_len", "token_len", "context"),
			Description: "LOGIN_REGISTER_WITH_PAT body of protocol 0.11.1, code 45 (section 10.2). The bind secret and the token are given as their lengths only."},
		KindBind: {Side: SideServer,
			RequiredFields: append(info, "client_id", "session", "metadata_watermark", "bind_secret_len"),
			Description:    "BIND_SESSION body, code 15 (section 10.3). The bind secret is given as its length only."},
	}
}
