package main

import (
	"fmt"
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
	// free is every free-field list the vectors hold, by the shape of the
	// answer it belongs to: the rules for an answer no vector step gives
	// (the kit's own frames, or a vector's frame that the server under
	// test answers otherwise than the vector's server).
	free freeTable
	// secrets are the bind secrets the kit drew for the case, which every
	// report hides.
	secrets [][]byte
}

// clientStep is frames written at once (pipelined) and how.
type clientStep struct {
	frames    [][]byte
	vec       []*vectorStep // the vector step of each frame, nil for the kit's own
	sessions  []*sessionRef // the session each frame carries (Step counts the case's frames from 0), nil for none
	chunk     int           // write in pieces of this many bytes
	stall     bool          // stall between header and body
	halfClose bool          // end the kit's side after writing (a frame cut short)
	// conn is the connection of the case the step is written on: 0 for
	// the first, 1 for a second one opened by this step (a session
	// resumed elsewhere), and so on.
	conn int
	// close: the step writes nothing and closes its connection, as a
	// client whose socket broke; the case goes on on another.
	close bool
}

// clientCases builds the client-mode catalogue: every lifecycle vector,
// then the kit's hostile sequences. A vector that holds one of the kit's
// own sequences is played under the own case's id (ids.json).
func clientCases(vs *vectorSet, reg *registry) ([]clientCase, error) {
	f := vs.Files["lifecycle"]
	table := newFreeTable(f.Cases)
	own := reg.fromVectors("client")
	var cs []clientCase
	for _, v := range f.Cases {
		srv := f.Servers[v.Server]
		c := clientCase{ID: "v" + strconv.Itoa(v.ID), Vector: v.ID, Name: v.Name, Rule: ruleText(v.Section, v.Rules), server: &srv, free: table}
		e, isOwn := own[v.ID]
		if isOwn {
			c.ID, c.Name = e.ID, e.Name
			delete(own, v.ID)
		}
		c.steps = vectorSteps(v.Steps, e.Pipelined)
		cs = append(cs, c)
	}
	for id, e := range own {
		return nil, fmt.Errorf("ids.json: client case %s names vector %d, which lifecycle.json does not hold", e.ID, id)
	}
	kit, err := hostileCases(vs, reg, table)
	if err != nil {
		return nil, err
	}
	bind, err := bindCases(vs, reg, table)
	return append(append(cs, kit...), bind...), err
}

// vectorSteps are a lifecycle vector's steps as the kit writes them: one
// frame a step, on the connection the step names, or every frame of a
// connection at once when pipelined. The kit ends its side after a step
// whose end says so (a frame cut short).
func vectorSteps(steps []vectorStep, pipelined bool) []clientStep {
	var out []clientStep
	for i := range steps {
		s := &steps[i]
		st := clientStep{frames: [][]byte{unhex(s.In)}, vec: []*vectorStep{s}, sessions: []*sessionRef{s.InSession}, halfClose: s.End, conn: s.Conn}
		if pipelined && len(out) > 0 && out[len(out)-1].conn == s.Conn {
			last := &out[len(out)-1]
			last.frames, last.vec, last.sessions = append(last.frames, st.frames...), append(last.vec, s), append(last.sessions, s.InSession)
			last.halfClose = last.halfClose || s.End
			continue
		}
		out = append(out, st)
	}
	return out
}

// Frames the hostile sequences build. The client ids are fixed here; a
// run makes them the run's and the case's own (isolate).
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
		Username: []byte("iggy"), Password: codec.NewSecret([]byte("iggy"))}.AppendBinary(nil)
	return request(codec.RequestHeader{Client: client, Operation: codec.OperationRegister}, body)
}

// hostileCases are sequences no vector holds: pipelining, frames split or
// stalled, a frame above the server's cap, sessions from nowhere.
func hostileCases(vs *vectorSet, reg *registry, table freeTable) ([]clientCase, error) {
	def := vs.Files["lifecycle"].Servers["default"]
	login := vectorLogin(hostileClient)
	var pings [][]byte
	for i := range 8 {
		pings = append(pings, ping(hostileClient, uint64(i+1), 0))
	}
	overCap := ping(hostileClient, 1, 0)
	overCap = withSize(overCap, codec.MaxFrameSize)
	ahead := request(codec.RequestHeader{Client: hostileClient, Request: 1, Session: 1001, Operation: codec.Operation(128)}, []byte{0})
	// The session of the login at frame 0, plus n.
	bound := func(n int) *sessionRef { return &sessionRef{Offset: 184, Step: 0, Plus: n} }
	defs := []clientCase{
		{Name: "hostile/pipelined-pings", Rule: "WIRE.md §7 lifecycle.3", steps: []clientStep{{frames: pings}}},
		{Name: "hostile/login-split-across-writes", Rule: "WIRE.md §5 frame", steps: []clientStep{{frames: [][]byte{login}, chunk: 3},
			{frames: [][]byte{ping(hostileClient, 1, 1)}, sessions: []*sessionRef{bound(0)}}}},
		{Name: "hostile/login-stalled-after-header", Rule: "WIRE.md §5 frame", steps: []clientStep{{frames: [][]byte{login}, stall: true}}},
		// The ping's session cannot be the server's: it is written before
		// the login's answer arrives.
		{Name: "hostile/login-and-ping-pipelined", Rule: "WIRE.md §7 lifecycle.1c", steps: []clientStep{{frames: [][]byte{login, ping(hostileClient, 1, 1)}}}},
		{Name: "hostile/frame-above-cap", Rule: "WIRE.md §7 lifecycle.8", overCap: true, steps: []clientStep{{frames: [][]byte{overCap}}}},
		{Name: "hostile/replicated-under-session-from-nowhere", Rule: "WIRE.md §7 lifecycle.7.ahead", steps: []clientStep{{frames: [][]byte{login}},
			{frames: [][]byte{ahead}, sessions: []*sessionRef{bound(1000)}}, {frames: [][]byte{ping(hostileClient, 1, 1)}, sessions: []*sessionRef{bound(0)}}}},
		{Name: "hostile/ping-one-byte-writes", Rule: "WIRE.md §5 frame", steps: []clientStep{{frames: [][]byte{ping(hostileClient, 3, 0)}, chunk: 1}}},
	}
	for i := range defs {
		id, err := reg.id("client", defs[i].Name)
		if err != nil {
			return nil, err
		}
		defs[i].ID, defs[i].server, defs[i].free = id, &def, table
	}
	return defs, nil
}
