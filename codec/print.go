package codec

import "strconv"

// The String methods of the message types print every field by its wire
// name, for logs, test failures and tools. Byte fields print quoted (they
// are UTF-8 text on the wire); a password or a token prints only as the
// redaction of Secret. Fields that are carried as they
// are and usually zero (checksums, cluster, view, release, replica,
// timestamp, context) print only when they are not zero.

// fields builds "Type{name: value, ...}".
type fields struct{ b []byte }

func newFields(kind string) *fields {
	f := &fields{b: make([]byte, 0, 128)}
	f.b = append(f.b, kind...)
	f.b = append(f.b, '{')
	return f
}

func (f *fields) name(n string) {
	if f.b[len(f.b)-1] != '{' {
		f.b = append(f.b, ", "...)
	}
	f.b = append(f.b, n...)
	f.b = append(f.b, ": "...)
}

func (f *fields) str(n, v string)         { f.name(n); f.b = append(f.b, v...) }
func (f *fields) text(n string, v []byte) { f.name(n); f.b = strconv.AppendQuote(f.b, string(v)) }
func (f *fields) uint(n string, v uint64) { f.name(n); f.b = strconv.AppendUint(f.b, v, 10) }

// secret prints the redaction alone: what a value prints must not depend
// on its secret in any way, its length included.
func (f *fields) secret(n string) {
	f.name(n)
	f.b = append(f.b, redacted...)
}

// revision prints a login body's revision and its bind secret, as a
// redaction, unless the body is of RevisionBase.
func (f *fields) revision(r Revision) {
	if r != RevisionBase {
		f.str("revision", r.String())
		f.secret("bind_secret")
	}
}

// carried prints the pass-through fields of a header prologue when set.
func (f *fields) carried(sums [3]Uint128, view, release uint32, replica uint8) {
	for i, n := range [3]string{"checksum", "checksum_body", "cluster"} {
		if !sums[i].IsZero() {
			f.str(n, sums[i].String())
		}
	}
	for _, v := range [...]struct {
		n string
		v uint64
	}{{"view", uint64(view)}, {"release", uint64(release)}, {"replica", uint64(replica)}} {
		if v.v != 0 {
			f.uint(v.n, v.v)
		}
	}
}

// String closes the braces and returns the text.
func (f *fields) String() string { return string(append(f.b, '}')) }

// String prints c's fields.
func (c ClientVersionInfo) String() string {
	f := newFields("ClientVersionInfo")
	f.str("protocol_version", c.Protocol.String())
	f.text("sdk_name", c.SDKName)
	f.text("sdk_version", c.SDKVersion)
	return f.String()
}

// String prints l's fields; the password and the bind secret only as a
// redaction. A body of RevisionBase prints no revision and no secret, as
// before revisions existed.
func (l LoginRegister) String() string {
	f := newFields("LoginRegister")
	f.str("info", l.Info.String())
	f.revision(l.Revision)
	f.text("username", l.Username)
	f.secret("password")
	f.text("context", l.Context)
	return f.String()
}

// String prints l's fields; the token and the bind secret only as a
// redaction.
func (l LoginRegisterPAT) String() string {
	f := newFields("LoginRegisterPAT")
	f.str("info", l.Info.String())
	f.revision(l.Revision)
	f.secret("token")
	f.text("context", l.Context)
	return f.String()
}

// String prints l's fields.
func (l LoginReply) String() string {
	f := newFields("LoginReply")
	f.uint("user_id", uint64(l.UserID))
	f.uint("session", l.Session)
	f.str("server_protocol_version", l.ServerProtocol.String())
	f.text("server_version", l.ServerVersion)
	return f.String()
}

// String prints h's fields; code only for a NonReplicated request or when
// set.
func (h RequestHeader) String() string {
	f := newFields("RequestHeader")
	f.carried([3]Uint128{h.Checksum, h.ChecksumBody, h.Cluster}, h.View, h.Release, h.Replica)
	f.uint("size", uint64(h.Size))
	f.str("client", h.Client.String())
	if !h.RequestChecksum.IsZero() {
		f.str("request_checksum", h.RequestChecksum.String())
	}
	if h.Timestamp != 0 {
		f.uint("timestamp", h.Timestamp)
	}
	f.uint("request", h.Request)
	f.str("operation", h.Operation.String())
	f.uint("session", h.Session)
	f.uint("user_id", uint64(h.UserID))
	if h.Operation == OperationNonReplicated || h.Code != 0 {
		f.str("code", h.Code.String())
	}
	return f.String()
}

// String prints h's fields.
func (h ReplyHeader) String() string {
	f := newFields("ReplyHeader")
	f.carried([3]Uint128{h.Checksum, h.ChecksumBody, h.Cluster}, h.View, h.Release, h.Replica)
	f.uint("size", uint64(h.Size))
	if !h.RequestChecksum.IsZero() {
		f.str("request_checksum", h.RequestChecksum.String())
	}
	if !h.Context.IsZero() {
		f.str("context", h.Context.String())
	}
	f.str("client", h.Client.String())
	f.uint("op", h.Op)
	f.uint("commit", h.Commit)
	if h.Timestamp != 0 {
		f.uint("timestamp", h.Timestamp)
	}
	f.uint("request", h.Request)
	f.str("operation", h.Operation.String())
	f.str("status", h.Status.String())
	return f.String()
}

// String prints e's fields; the window only when it is not zero.
func (e Eviction) String() string {
	f := newFields("Eviction")
	f.carried([3]Uint128{e.Checksum, e.ChecksumBody, e.Cluster}, e.View, e.Release, e.Replica)
	f.str("client", e.Client.String())
	if e.Window != (Window{}) {
		f.str("window", e.Window.String())
	}
	f.str("reason", e.Reason.String())
	return f.String()
}
