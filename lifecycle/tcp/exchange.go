package tcp

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net"

	"github.com/iggywire/iggywire/codec"
)

// Exchange is one frame a Listener read and what it answered, for the
// Observer's Frame hook.
// In and Out are valid only during the call. In is a raw frame and may hold
// a password or a token, so it is a codec.Secret (read it with In.Bytes())
// and an Exchange prints (under every fmt verb, also inside another value)
// only sizes and the error, never its bytes.
type Exchange struct {
	Remote net.Addr     // the peer's address
	In     codec.Secret // the frame read; for a frame above MaxFrame, its header only
	Out    []byte       // the answer written, nil if none
	Err    error        // what lifecycle.Conn.Handle returned, or codec.ErrFrameTooLarge above MaxFrame
	Closed bool         // the connection is closed after this frame
}

// Format implements fmt.Formatter: every verb prints a summary without the
// frame bytes.
func (e Exchange) Format(f fmt.State, _ rune) {
	fmt.Fprintf(f, "Exchange{remote %s, in %d bytes, out %d bytes, err %v, closed %t}",
		e.remote(), e.In.Len(), len(e.Out), e.Err, e.Closed)
}

// MarshalJSON writes the same summary as Format, as an object of sizes:
// the frame bytes never reach an encoder.
func (e Exchange) MarshalJSON() ([]byte, error) {
	errText := ""
	if e.Err != nil {
		errText = e.Err.Error()
	}
	return json.Marshal(struct {
		Remote   string `json:"remote"`
		InBytes  int    `json:"in_bytes"`
		OutBytes int    `json:"out_bytes"`
		Err      string `json:"err,omitempty"`
		Closed   bool   `json:"closed"`
	}{e.remote(), e.In.Len(), len(e.Out), errText, e.Closed})
}

// LogValue implements slog.LogValuer with the same summary, so a structured
// logger never walks the frame bytes either.
func (e Exchange) LogValue() slog.Value {
	attrs := []slog.Attr{
		slog.String("remote", e.remote()),
		slog.Int("in_bytes", e.In.Len()),
		slog.Int("out_bytes", len(e.Out)),
		slog.Bool("closed", e.Closed),
	}
	if e.Err != nil {
		attrs = append(attrs, slog.String("err", e.Err.Error()))
	}
	return slog.GroupValue(attrs...)
}

func (e Exchange) remote() string {
	if e.Remote == nil {
		return "<nil>"
	}
	return e.Remote.String()
}
