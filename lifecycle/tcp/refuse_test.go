package tcp_test

import (
	"bytes"
	"encoding/binary"
	"io"
	"net"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle/tcp"
)

// TestRefusedConnectionLeavesNoSecret: a connection refused at a cap reads
// its first frame through two buffers; whatever arrived (a login with its
// password, a pre-VSR login, a frame cut inside its body) is gone from both
// once the exchange returns, and a login still gets its answer.
func TestRefusedConnectionLeavesNoSecret(t *testing.T) {
	const secret = "refused-S3cret-password-0123456789"
	login := refusedLogin(t, secret)
	legacy := make([]byte, 8, 8+len(secret))
	binary.LittleEndian.PutUint32(legacy[0:], uint32(4+len(secret)))
	binary.LittleEndian.PutUint32(legacy[4:], 38) // the pre-VSR login code
	legacy = append(legacy, secret...)
	legacy = append(legacy, make([]byte, codec.HeaderSize)...)
	for _, c := range []struct {
		name   string
		sent   []byte
		answer bool
	}{
		{"login", login, true},
		{"login cut in its body", login[:len(login)-3], false},
		{"pre-VSR login", legacy, false},
		{"header cut", login[:100], false},
	} {
		t.Run(c.name, func(t *testing.T) {
			server, client := net.Pipe()
			defer client.Close()
			go func() {
				_, _ = client.Write(c.sent)
				if c.answer {
					return // the server answers; the reader below takes it
				}
				_ = client.Close()
			}()
			var header [codec.HeaderSize]byte
			var drain [tcp.RefuseDrain]byte
			answered := make(chan []byte, 1)
			if c.answer {
				go func() {
					b := make([]byte, codec.HeaderSize+12)
					n, _ := io.ReadFull(client, b)
					answered <- b[:n]
				}()
			}
			tcp.AnswerRefusal(server, &header, &drain)
			_ = server.Close()
			if !isZero(header[:]) || !isZero(drain[:]) {
				t.Errorf("after the exchange: header zero %t, drain zero %t", isZero(header[:]), isZero(drain[:]))
			}
			if c.answer {
				got := <-answered
				if _, err := codec.DecodeReplyHeader(got); err != nil {
					t.Errorf("a refused login got no reply: %v (%x)", err, got)
				}
				if bytes.Contains(got, []byte(secret)) {
					t.Error("the answer holds the password")
				}
			}
		})
	}
}

// refusedLogin is a LOGIN_REGISTER frame with password.
func refusedLogin(t *testing.T, password string) []byte {
	t.Helper()
	body, err := codec.LoginRegister{
		Info:     codec.ClientVersionInfo{Protocol: codec.MustPack(0, 11, 0), SDKName: []byte("test"), SDKVersion: []byte("1")},
		Username: []byte("iggy"), Password: codec.NewSecret([]byte(password)),
	}.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	frame, err := codec.AppendRequestFrame(nil, codec.RequestHeader{Client: codec.Uint128From(7), Operation: codec.OperationRegister}, body)
	if err != nil {
		t.Fatal(err)
	}
	return frame
}

func isZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}
