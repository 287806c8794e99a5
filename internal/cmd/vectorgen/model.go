package main

import "encoding/hex"

// The JSON shapes of vectors/*.json. vectors/schema.json describes the same
// shapes for other languages; a test checks that every file validates.

// FormatVersion is the version of the file format; it changes only when a
// reader written for the old format would misread a new file.
const FormatVersion = 1

// File is one vectors/<kind>.json file: every case of one message kind.
type File struct {
	Format      int    `json:"format"`
	Kind        string `json:"kind"`
	Description string `json:"description"`
	// Side says who decodes the kind: "client" (an SDK, reading what a
	// server sends), "server" (reading what a client sends) or "both".
	Side string `json:"side"`
	// RequiredFields are the decoded fields an implementation must expose
	// to run the kind; OptionalFields the others expect.fields may hold,
	// compared when the implementation keeps them. Surface names the parts
	// of expect an SDK hands its caller (sdk_code, sdk_error, retry).
	RequiredFields []string                `json:"required_fields,omitempty"`
	OptionalFields []string                `json:"optional_fields,omitempty"`
	Surface        []string                `json:"surface,omitempty"`
	Servers        map[string]ServerConfig `json:"servers,omitempty"`
	Cases          []Case                  `json:"cases"`
}

// Case is one vector. Codec kinds carry Input and Expect; lifecycle cases
// carry Server and Steps.
type Case struct {
	ID          int        `json:"id"`
	Name        string     `json:"name"`
	Kind        string     `json:"kind"`
	Section     string     `json:"section"`
	Rules       []string   `json:"rules"`
	Discrepancy string     `json:"discrepancy,omitempty"`
	Source      string     `json:"source,omitempty"`
	Note        string     `json:"note"`
	Mode        string     `json:"mode,omitempty"`
	Window      *TextRange `json:"window,omitempty"`
	Input       *string    `json:"input,omitempty"`  // hex; present (maybe empty) on every codec case
	Length      *int       `json:"length,omitempty"` // bytes of Input
	Expect      *Expect    `json:"expect,omitempty"`
	Frame       *Frame     `json:"frame,omitempty"` // header kinds: the same case as a whole frame
	Server      string     `json:"server,omitempty"`
	Steps       []Step     `json:"steps,omitempty"`
}

// TextRange is a version window written as text ("0.11.0"). CountPatch
// says the window counts patch at its upper bound, as protocol 0.11.1's
// gate does (WIRE.md section 10.5): it accepts exactly min <= v <= max.
type TextRange struct {
	Min        string `json:"min"`
	Max        string `json:"max"`
	CountPatch bool   `json:"count_patch,omitempty"`
}

// Expect is the verdict of a codec case.
type Expect struct {
	Verdict  string         `json:"verdict"` // "ok" or "error"
	Fields   map[string]any `json:"fields,omitempty"`
	Consumed *int           `json:"consumed,omitempty"`
	Sentinel string         `json:"sentinel,omitempty"`
	Field    string         `json:"field,omitempty"`
	Offset   *int           `json:"offset,omitempty"`
	Rule     string         `json:"rule,omitempty"`
	// Convention is how offset was chosen: an id of rules.json's
	// conventions, each a rule of WIRE.md section 9.
	Convention string `json:"convention,omitempty"`
	SDKCode    *int   `json:"sdk_code,omitempty"`
	SDKError   string `json:"sdk_error,omitempty"`
	Retry      string `json:"retry,omitempty"`
}

// Step is one request frame of a lifecycle case and what the server does
// with it. Out is the answer as hex, "dropped" (no answer, the connection
// stays open) or "closed" (no answer, the connection ends). Then is the
// state of the connection after the step: "open" or "closed" (a server
// closes after every eviction).
//
// The other fields are for a runner that plays the case over a stream
// (steps.go): Framing says how In makes up frames and End that the client
// ends its side of the connection after writing it; Free lists the fields
// of Out that a server may fill differently, with the rule to compare
// them by; InSession, that In carries a session handed out earlier in the
// case.
type Step struct {
	In        string      `json:"in"`
	Out       string      `json:"out"`
	Then      string      `json:"then"`
	Note      string      `json:"note,omitempty"`
	Framing   string      `json:"framing"`
	End       bool        `json:"end,omitempty"`
	Free      []Free      `json:"free,omitempty"`
	InSession *SessionRef `json:"in_session,omitempty"`
	// Conn is the connection the step goes to, 0-based: every connection
	// of a case talks to the same server, so a later connection can bind
	// the logical session a login made on an earlier one (BIND_SESSION,
	// WIRE.md section 10.4). Absent means the first.
	Conn int `json:"conn,omitempty"`
}

func (s *Step) inBytes() []byte {
	b, _ := hex.DecodeString(s.In)
	return b
}

// outBytes is the answer, or nil for dropped and closed.
func (s *Step) outBytes() []byte {
	if s.Out == OutDropped || s.Out == OutClosed {
		return nil
	}
	b, _ := hex.DecodeString(s.Out)
	return b
}

// Outcomes of a step without an answer, and connection states.
const (
	OutDropped = "dropped"
	OutClosed  = "closed"
	StateOpen  = "open"
)

// ServerConfig is the server a lifecycle case runs against.
type ServerConfig struct {
	Window  TextRange     `json:"window"`
	Version string        `json:"version"`
	Users   []UserConfig  `json:"users"`
	Tokens  []TokenConfig `json:"tokens"`
	Handler string        `json:"handler"`
}

// UserConfig is an account of a test server. The password is test data:
// the same bytes travel as hex in the login frames of the case.
type UserConfig struct {
	ID       uint32 `json:"id"`
	Name     string `json:"name"`
	Password string `json:"password"`
	Inactive bool   `json:"inactive"`
}

// TokenConfig is a personal access token of a test server, naming its user.
type TokenConfig struct {
	Token string `json:"token"`
	User  string `json:"user"`
}

// Message kinds.
const (
	KindVersionText   = "version_text"
	KindWindow        = "window"
	KindDefaultWindow = "default_window"
	KindClientInfo    = "client_version_info"
	KindLogin         = "login_register"
	KindLoginPAT      = "login_register_pat"
	KindLoginReply    = "login_reply"
	KindResult        = "result_section"
	KindRequest       = "request_header"
	KindReply         = "reply_header"
	KindEviction      = "eviction"
	KindLoginFrame    = "login_reply_frame"
	KindLifecycle     = "lifecycle"
	// Protocol 0.11.1's bodies (WIRE.md section 10).
	KindLoginSecret    = "login_register_bind_secret"
	KindLoginPATSecret = "login_register_pat_bind_secret"
	KindBind           = "bind_session"
)

// kindList is every kind in file order.
var kindList = []string{
	KindVersionText, KindWindow, KindDefaultWindow, KindClientInfo, KindLogin, KindLoginPAT,
	KindLoginReply, KindResult, KindRequest, KindReply, KindEviction, KindLoginFrame,
	KindLoginSecret, KindLoginPATSecret, KindBind, KindLifecycle,
}

// Body decode modes.
const (
	ModeStrict = "strict"
	ModePrefix = "prefix"
)

// input returns the hex input of a codec case ("" when absent).
func (c *Case) input() string {
	if c.Input == nil {
		return ""
	}
	return *c.Input
}

func (c *Case) setInput(b []byte) {
	h := hex.EncodeToString(b)
	c.Input, c.Length = &h, intp(len(b))
}
