package main

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"

	"github.com/iggywire/iggywire/codec"
)

// A server keeps state by client id beyond a connection: the logical
// sessions BIND_SESSION resumes (WIRE.md section 10.4) outlive every
// connection of the login that made them, as upstream's client table does.
// The vectors reuse a handful of client ids, each case on a fresh server;
// the kit plays them all against one long-lived server, so that a case
// binding client 0x1111 would meet the session an earlier case (or an
// earlier run) left under that id. So before a case is played, every client
// id in its frames (a request header's, and the client_id a BIND_SESSION
// body names) is made the case's own: its upper half XORed with a salt of
// the run and the case. Equal ids stay equal and distinct ones distinct
// within the case, and zero stays zero (an id the lifecycle refuses); the
// model plays the same frames as the wire, so the expectations follow.

// runSalt is the part of every case's salt that differs between runs: the
// upper 32 bits of a client id's upper half.
func runSalt() uint64 {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return uint64(binary.LittleEndian.Uint32(b[:])|1) << 32
}

// isolate returns c with every client id of its frames XORed, in its upper
// half, with salt (the run's) plus the case's number n.
func isolate(c clientCase, salt uint64, n int) clientCase {
	s := salt ^ uint64(n)<<8
	steps := make([]clientStep, len(c.steps))
	for i, st := range c.steps {
		st.frames = append([][]byte(nil), st.frames...)
		for k, f := range st.frames {
			st.frames[k] = saltClients(f, s)
		}
		steps[i] = st
	}
	c.steps = steps
	return c
}

// Where the client ids of a request sit: the header's client at 128, and a
// BIND_SESSION body's client_id right after its ClientVersionInfo.
const (
	offClient   = 128
	offCode     = 196
	offOpRegion = 176
)

// saltClients returns f with its client ids salted: the header's when f
// has a Request header, and the BIND_SESSION body's when f is one whose
// ClientVersionInfo decodes and 16 bytes follow it. A malformed frame
// stays malformed in the same way: only the id's bytes change.
func saltClients(f []byte, salt uint64) []byte {
	if len(f) < codec.HeaderSize || f[60] != byte(codec.CommandRequest) {
		return f
	}
	out := bytes.Clone(f)
	saltID(out[offClient:], salt)
	if out[offOpRegion] != byte(codec.OperationNonReplicated) || binary.LittleEndian.Uint32(out[offCode:]) != uint32(codec.CodeBindSession) {
		return out
	}
	body := out[codec.HeaderSize:]
	if _, p, err := codec.DecodeClientVersionInfo(body); err == nil && p+16 <= len(body) {
		saltID(body[p:], salt)
	}
	return out
}

// saltID XORs the upper half of the u128 at b with salt, unless it is zero.
func saltID(b []byte, salt uint64) {
	lo, hi := binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:])
	if lo == 0 && (hi == 0 || hi == salt) {
		return // zero stays zero, and nothing becomes zero
	}
	binary.LittleEndian.PutUint64(b[8:], hi^salt)
}
