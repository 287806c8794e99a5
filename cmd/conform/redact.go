package main

import (
	"bytes"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/iggywire/iggywire/codec"
)

// hexLimit bounds the bytes of one frame shown in a report.
const hexLimit = 4096

// redactor turns frames into report hex with every secret hidden: the
// password or token field of any login body, found by its layout (WIRE.md
// sections 2 and 3), and any occurrence of a configured secret anywhere.
type redactor struct {
	secrets [][]byte // the configured passwords and tokens
}

// minScan is the shortest configured secret searched for anywhere in a
// frame; shorter ones are hidden where the login layout puts them.
const minScan = 3

// hex renders b with each secret byte as "**".
func (r *redactor) hex(b []byte) string {
	hide := make([]bool, len(b))
	markLoginSecret(b, hide)
	for _, s := range r.secrets {
		if len(s) < minScan {
			continue
		}
		for at := 0; ; {
			i := bytes.Index(b[at:], s)
			if i < 0 {
				break
			}
			for k := at + i; k < at+i+len(s); k++ {
				hide[k] = true
			}
			at += i + 1
		}
	}
	n := min(len(b), hexLimit)
	var out strings.Builder
	out.Grow(2*n + 32)
	for i := range n {
		if hide[i] {
			out.WriteString("**")
			continue
		}
		out.WriteString(hex.EncodeToString(b[i : i+1]))
	}
	if len(b) > n {
		out.WriteString("...(" + strconv.Itoa(len(b)-n) + " more bytes)")
	}
	return out.String()
}

// markLoginSecret marks the credential of a Register request's body: the
// password when the body reads as a LOGIN_REGISTER, otherwise the first
// and second length-prefixed fields after the ClientVersionInfo (a token,
// or what might be one).
func markLoginSecret(frame []byte, hide []bool) {
	if len(frame) <= codec.HeaderSize || frame[60] != byte(codec.CommandRequest) || frame[176] != byte(codec.OperationRegister) {
		return
	}
	body := frame[codec.HeaderSize:]
	_, p, err := codec.DecodeClientVersionInfo(body)
	if err != nil {
		p = cviEnd(body)
	}
	first, second := field(body, p), -1
	if first >= 0 {
		second = field(body, first)
	}
	mark := func(start, end int) {
		for k := start; k < end && codec.HeaderSize+k < len(hide); k++ {
			hide[codec.HeaderSize+k] = true
		}
	}
	if _, _, err := codec.DecodeLoginRegister(body); err == nil && first >= 0 {
		mark(first+1, second) // the password
		return
	}
	if first >= 0 {
		mark(p+1, first)
	}
	if second >= 0 {
		mark(first+1, second)
	}
}

// cviEnd finds where a ClientVersionInfo ends by its lengths alone, for a
// body whose prefix does not decode (a text that is not UTF-8, say).
func cviEnd(body []byte) int {
	p := 4
	for range 2 {
		if p >= len(body) {
			return len(body)
		}
		p += 1 + int(body[p])
	}
	return min(p, len(body))
}

// field returns the end of the u8-length-prefixed field at p, clipped to
// body, or -1 when there is none.
func field(body []byte, p int) int {
	if p < 0 || p >= len(body) {
		return -1
	}
	return min(p+1+int(body[p]), len(body))
}
