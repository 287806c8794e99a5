package main

import (
	"bytes"
	"encoding/binary"
	"strconv"

	"github.com/iggywire/iggywire/codec"
)

// clientCase is one numbered case of client mode: frames to play against
// the server under test, one connection per case.
type clientCase struct {
	ID, Name, Rule string
	Vector         int
	server         *vectorServer // the vector's server, whose accounts the frames name
	steps          []clientStep
	// overCap: the one frame is a valid header claiming more than a server
	// may take; Eviction 6 then close, or a close, are both right (WIRE.md
	// section 7, point 8).
	overCap bool
}

// clientStep is frames written at once (pipelined) and how.
type clientStep struct {
	frames    [][]byte
	chunk     int  // write in pieces of this many bytes
	stall     bool // stall between header and body
	halfClose bool // end the kit's side after writing (a frame cut short)
}

// clientCases builds the client-mode catalogue: every lifecycle vector,
// then the kit's hostile sequences.
func clientCases(vs *vectorSet, reg *registry) ([]clientCase, error) {
	f := vs.Files["lifecycle"]
	var cs []clientCase
	for _, v := range f.Cases {
		srv := f.Servers[v.Server]
		c := clientCase{ID: "v" + strconv.Itoa(v.ID), Vector: v.ID, Name: v.Name, Rule: ruleText(v.Section, v.Rules), server: &srv}
		for _, s := range v.Steps {
			in := unhex(s.In)
			c.steps = append(c.steps, clientStep{frames: [][]byte{in}, halfClose: partial(in)})
		}
		cs = append(cs, c)
	}
	own, err := hostileCases(vs, reg)
	return append(cs, own...), err
}

// partial reports whether a step's bytes stop short of a whole frame, so
// that the kit ends its side after them: the server can then only see the
// frame cut short.
func partial(in []byte) bool {
	if len(in) < codec.HeaderSize {
		return true
	}
	size, err := codec.FrameSize(in)
	return err == nil && size > len(in)
}

// Frames the hostile sequences build. The client ids are fixed, so runs
// are reproducible.
var (
	hostileClient = codec.Uint128{Lo: 0xc0f0, Hi: 0x1}
	probeClient   = codec.Uint128{Lo: 0x7e57}
)

// probeRequest is the request number of the ping the kit sends to learn
// that a frame was dropped: its answer must be the next frame.
const probeRequest = 0x7e57

func request(h codec.RequestHeader, body []byte) []byte {
	f, _ := codec.AppendRequestFrame(nil, h, body)
	return f
}

func ping(client codec.Uint128, n, session uint64) []byte {
	return request(codec.RequestHeader{Client: client, Request: n, Session: session, Operation: codec.OperationNonReplicated, Code: codec.CodePing}, nil)
}

// vectorLogin is a password login as the vector servers' active user.
func vectorLogin(client codec.Uint128) []byte {
	body, _ := codec.LoginRegister{Info: codec.ClientVersionInfo{Protocol: codec.MustPack(0, 11, 0), SDKName: []byte("conform"), SDKVersion: []byte("0.1.0")},
		Username: []byte("iggy"), Password: codec.NewSecret([]byte("iggy"))}.AppendTo(nil)
	return request(codec.RequestHeader{Client: client, Operation: codec.OperationRegister}, body)
}

// registerRequest is a login with request number n: a header that is not
// a valid Request (a Register carries 0), built by hand since the codec
// encodes only valid headers.
func registerRequest(login []byte, n uint64) []byte {
	f := bytes.Clone(login)
	binary.LittleEndian.PutUint64(f[168:], n)
	return f
}

// hostileCases are sequences no vector holds: pipelining, frames split or
// stalled, a frame above the server's cap, sessions from nowhere.
func hostileCases(vs *vectorSet, reg *registry) ([]clientCase, error) {
	def := vs.Files["lifecycle"].Servers["default"]
	login := vectorLogin(hostileClient)
	var pings [][]byte
	for i := range 8 {
		pings = append(pings, ping(hostileClient, uint64(i+1), 0))
	}
	overCap := ping(hostileClient, 1, 0)
	overCap = withSize(overCap, codec.MaxFrameSize)
	garbage := bytes.Repeat([]byte{0xa5}, codec.HeaderSize)
	copy(garbage[48:], []byte{0, 1, 0, 0}) // size 256: a whole frame, and not a valid Request
	garbage[60] = byte(codec.CommandRequest)
	unknown := request(codec.RequestHeader{Client: hostileClient, Request: 1, Session: 1, Operation: codec.OperationNonReplicated, Code: 9999}, nil)
	legacy := request(codec.RequestHeader{Client: hostileClient, Request: 1, Operation: codec.OperationNonReplicated, Code: codec.CodeLoginUser}, nil)
	ahead := request(codec.RequestHeader{Client: hostileClient, Request: 1, Session: 1001, Operation: codec.Operation(128)}, []byte{0})
	defs := []clientCase{
		{Name: "hostile/pipelined-pings", Rule: "WIRE.md §7 lifecycle.3", steps: []clientStep{{frames: pings}}},
		{Name: "hostile/login-split-across-writes", Rule: "WIRE.md §5 frame", steps: []clientStep{{frames: [][]byte{login}, chunk: 3}, {frames: [][]byte{ping(hostileClient, 1, 1)}}}},
		{Name: "hostile/login-stalled-after-header", Rule: "WIRE.md §5 frame", steps: []clientStep{{frames: [][]byte{login}, stall: true}}},
		{Name: "hostile/login-and-ping-pipelined", Rule: "WIRE.md §7 lifecycle.1c", steps: []clientStep{{frames: [][]byte{login, ping(hostileClient, 1, 1)}}}},
		{Name: "hostile/frame-above-cap", Rule: "WIRE.md §7 lifecycle.8", overCap: true, steps: []clientStep{{frames: [][]byte{overCap}}}},
		{Name: "hostile/garbage-header", Rule: "WIRE.md §7 lifecycle.8.dropped", steps: []clientStep{{frames: [][]byte{garbage}}, {frames: [][]byte{ping(hostileClient, 1, 0)}}}},
		{Name: "hostile/unknown-code-after-login", Rule: "WIRE.md §7 lifecycle.7.deny", steps: []clientStep{{frames: [][]byte{login}}, {frames: [][]byte{unknown}}}},
		{Name: "hostile/replicated-under-session-from-nowhere", Rule: "WIRE.md §7 lifecycle.7.ahead", steps: []clientStep{{frames: [][]byte{login}}, {frames: [][]byte{ahead}}, {frames: [][]byte{ping(hostileClient, 1, 1)}}}},
		{Name: "hostile/ping-request-zero", Rule: "WIRE.md §7 lifecycle.9", steps: []clientStep{{frames: [][]byte{ping(hostileClient, 0, 0)}}}},
		{Name: "hostile/relogin-pipelined", Rule: "WIRE.md §7 lifecycle.1.sessions", steps: []clientStep{{frames: [][]byte{login, vectorLogin(probeClient)}}}},
		{Name: "hostile/register-request-nonzero", Rule: "WIRE.md §5 request.register", steps: []clientStep{{frames: [][]byte{registerRequest(login, 5)}}, {frames: [][]byte{ping(hostileClient, 1, 0)}}}},
		{Name: "hostile/ping-one-byte-writes", Rule: "WIRE.md §5 frame", steps: []clientStep{{frames: [][]byte{ping(hostileClient, 3, 0)}, chunk: 1}}},
		{Name: "hostile/ping-with-body", Rule: "WIRE.md §7 lifecycle.3", steps: []clientStep{{frames: [][]byte{request(codec.RequestHeader{Client: hostileClient, Request: 1, Operation: codec.OperationNonReplicated, Code: codec.CodePing}, []byte("body"))}}}},
		{Name: "hostile/frames-pipelined-behind-an-eviction", Rule: "WIRE.md §7 lifecycle.1.evict", steps: []clientStep{{frames: [][]byte{login, legacy, ping(hostileClient, 1, 1)}}}},
	}
	for i := range defs {
		id, err := reg.id("client", defs[i].Name)
		if err != nil {
			return nil, err
		}
		defs[i].ID, defs[i].server = id, &def
	}
	return defs, nil
}
