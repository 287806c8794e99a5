package props

import (
	"encoding/binary"
	"errors"
	"fmt"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// replicatedCodes is WIRE.md section 6's table of replicated client
// commands, code to operation, written out here independently of the codec.
func replicatedCodes() map[codec.Code]codec.Operation {
	return map[codec.Code]codec.Operation{
		33: 141, 34: 143, 35: 142, 36: 145, 37: 144, 42: 146, 43: 147,
		101: 160, 121: 161, 122: 162,
		202: 128, 203: 130, 204: 129, 205: 131,
		302: 132, 303: 134, 304: 133, 305: 135,
		402: 136, 403: 137, 503: 138,
		602: 139, 603: 140, 604: 148, 605: 149,
	}
}

// genCode is any u32 code, half the time one WIRE.md section 6 or 7 names
// (every replicated code, the lifecycle's own, 0).
func genCode() gopter.Gen {
	edges := []uint32{0, 1, 10, 12, 38, 39, 40, 44, 45, 100, 200, 1<<32 - 1}
	for c := range replicatedCodes() {
		edges = append(edges, uint32(c))
	}
	return pick[uint32](0, 1<<32-1, edges...)
}

// idReader hands out client ids 1, 2, 3, ...
type idReader struct{ n uint64 }

func (r *idReader) Read(p []byte) (int, error) {
	clear(p)
	r.n++
	binary.LittleEndian.PutUint64(p, r.n)
	return len(p), nil
}

// codeRun is one client's session of requests by code.
type codeRun struct {
	loggedIn bool
	codes    []uint32
	body     bool // the requests carry a body
}

func (r codeRun) String() string {
	return fmt.Sprintf("codes %v (logged in %v, body %v)", r.codes, r.loggedIn, r.body)
}

// sendCodes plays r and returns "" or what went wrong. Every request is
// answered with a denial (status 3), which leaves the session as it is.
func sendCodes(r codeRun) string {
	c, err := lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "props", SDKVersion: "0.1.0", Rand: &idReader{}})
	if err != nil {
		return err.Error()
	}
	const session = 9
	if r.loggedIn {
		f, _ := c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
		reply, _ := codec.AppendLoginReplyFrame(nil, codec.ReplyHeader{Client: c.ID(), Operation: codec.OperationRegister},
			codec.LoginReply{UserID: 1, Session: session, ServerProtocol: codec.MustPack(0, 11, 0), ServerVersion: []byte("x")})
		if _, err := c.Receive(reply); f == nil || err != nil {
			return fmt.Sprintf("login: %v", err)
		}
	}
	var body []byte
	if r.body {
		body = []byte("b")
	}
	watermark := uint64(1)
	for _, code := range r.codes {
		frame, err := c.Request(nil, codec.Code(code), body)
		if err != nil {
			if why := refusedRightly(codec.Code(code), r.loggedIn, r.body, err); why != "" {
				return why
			}
			continue
		}
		h, err := codec.DecodeRequestHeader(frame)
		if err != nil {
			return fmt.Sprintf("code %d: invalid header: %v", code, err)
		}
		if why := routedRightly(codec.Code(code), h, &watermark, session); why != "" {
			return why
		}
		deny, _ := codec.AppendReplyFrame(nil, codec.ReplyHeader{Client: h.Client, Request: h.Request, Operation: h.Operation, Status: codec.StatusInvalidCommand}, nil)
		if _, err := c.Receive(deny); !errors.Is(err, codec.StatusInvalidCommand.Err()) {
			return fmt.Sprintf("code %d: denial read as %v", code, err)
		}
	}
	return ""
}

// routedRightly: a replicated code rides its own operation with the
// session and no code in the header, never NonReplicated; 39 rides Logout;
// any other code rides NonReplicated with its code. Partition operations
// and NonReplicated carry the watermark, the others consume it.
func routedRightly(code codec.Code, h codec.RequestHeader, watermark *uint64, session uint64) string {
	op, replicated := replicatedCodes()[code]
	if code == codec.CodeLogoutUser {
		op, replicated = codec.OperationLogout, true
	}
	switch {
	case replicated && h.Operation == codec.OperationNonReplicated:
		return fmt.Sprintf("replicated code %d sent as NonReplicated", code)
	case replicated && (h.Operation != op || h.Code != 0 || h.Session != session):
		return fmt.Sprintf("replicated code %d sent as operation %v, code %d, session %d", code, h.Operation, h.Code, h.Session)
	case !replicated && (h.Operation != codec.OperationNonReplicated || h.Code != code):
		return fmt.Sprintf("code %d sent as operation %v with code %d", code, h.Operation, h.Code)
	case h.Request != *watermark:
		return fmt.Sprintf("code %d carried request %d, want %d", code, h.Request, *watermark)
	}
	if replicated && !op.IsPartition() {
		*watermark++
	}
	return ""
}

// refusedRightly: Request refuses only a login code, a logout with a body,
// a replicated code before login, and code 0.
func refusedRightly(code codec.Code, loggedIn, body bool, err error) string {
	_, replicated := replicatedCodes()[code]
	ok := false
	switch {
	case code == codec.CodeLoginRegister || code == codec.CodeLoginRegisterPAT:
		ok = errors.Is(err, lifecycle.ErrOperation)
	case code == codec.CodeLogoutUser && body:
		ok = errors.Is(err, lifecycle.ErrOperation)
	case (replicated || code == codec.CodeLogoutUser) && !loggedIn:
		ok = errors.Is(err, lifecycle.ErrNoSession)
	case code == 0:
		ok = errors.Is(err, codec.ErrField)
	}
	if !ok {
		return fmt.Sprintf("code %d (logged in %v, body %v) refused with %v", code, loggedIn, body, err)
	}
	return ""
}

// TestClientNeverSendsReplicatedAsNonReplicated: whatever codes a Client is
// asked for, logged in or not, a replicated code (WIRE.md section 6) never
// goes out as NonReplicated, and every request carries the operation,
// session, code and request number section 7 gives it.
func TestClientNeverSendsReplicatedAsNonReplicated(t *testing.T) {
	t.Parallel()
	runs := derive(
		func(loggedIn bool, codes []uint32, body bool) codeRun { return codeRun{loggedIn, codes, body} },
		func(r codeRun) (bool, []uint32, bool) { return r.loggedIn, r.codes, r.body },
		genBool(), gen.SliceOf(genCode()), genBool(),
	)
	property(t, 4, "a Client never sends a replicated code as NonReplicated", prop.ForAll(func(r codeRun) string {
		return sendCodes(r)
	}, runs))
}
