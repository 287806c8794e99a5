package codec

import (
	"testing"
)

// TestWellFormedAgreesWithValidate walks every operation byte against the
// edges of each rule: the one-boolean fast checks the encoders and decoders
// use must accept exactly what validate accepts, or AppendBinary would return
// dst unwritten with a nil error.
func TestWellFormedAgreesWithValidate(t *testing.T) {
	// One regression breaks thousands of combinations: report the first
	// few and stop, so the cause is not buried.
	const most = 5
	failures := 0
	fail := func(format string, args ...any) {
		t.Helper()
		if failures++; failures <= most {
			t.Errorf(format, args...)
		}
		if failures == most {
			t.Fatalf("stopping after %d disagreements", most)
		}
	}
	sizes := []uint32{0, HeaderSize - 1, HeaderSize, HeaderSize + 1, MaxFrameSize, MaxFrameSize + 1}
	clients := []Uint128{{}, {Lo: 1}, {Hi: 1}}
	words := []uint64{0, 1}
	for op := range 256 {
		for _, size := range sizes {
			for _, client := range clients {
				for _, session := range words {
					for _, request := range words {
						for _, code := range []Code{0, CodePing} {
							h := RequestHeader{
								Size: size, Client: client, Operation: Operation(op),
								Session: session, Request: request, Code: code,
							}
							if err := h.validate(); h.wellFormed() != (err == nil) {
								fail("%+v: wellFormed() = %v, validate() = %v", h, h.wellFormed(), err)
							}
						}
					}
				}
			}
			for _, status := range []Status{StatusOK, StatusInvalidCommand} {
				h := ReplyHeader{Size: size, Client: Uint128From(7), Operation: Operation(op), Status: status}
				if err := h.validate(); h.wellFormed() != (err == nil) {
					fail("%+v: wellFormed() = %v, validate() = %v", h, h.wellFormed(), err)
				}
			}
		}
	}
}
