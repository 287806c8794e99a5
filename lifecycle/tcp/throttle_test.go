package tcp

import (
	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestThrottleBucket: a burst, then the refill rate, with successes given
// back and the bucket never above its burst.
func TestThrottleBucket(t *testing.T) {
	th := newThrottle(3, 2)
	key := netip.MustParseAddr("192.0.2.1")
	t0 := time.Unix(1000, 0)
	for i := range 3 {
		require.True(t, th.take(key, t0), "burst token %d", i)
	}
	require.False(t, th.take(key, t0), "the burst is spent")
	require.False(t, th.take(key, t0.Add(400*time.Millisecond)), "0.8 tokens refilled")
	require.True(t, th.take(key, t0.Add(500*time.Millisecond)), "one token per 1/rate")
	require.False(t, th.take(key, t0.Add(500*time.Millisecond)))
	th.refund(key, t0.Add(500*time.Millisecond))
	require.True(t, th.take(key, t0.Add(500*time.Millisecond)), "a success gives its token back")
	later := t0.Add(time.Hour)
	for range 3 {
		require.True(t, th.take(key, later))
	}
	require.False(t, th.take(key, later), "refilled to the burst, not beyond")
	require.True(t, th.take(netip.MustParseAddr("192.0.2.2"), t0), "other addresses have their own")
}

func TestThrottleKey(t *testing.T) {
	for _, c := range []struct {
		addr net.Addr
		want string
	}{
		{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 2), Port: 9}, "127.0.0.2"},
		{&net.TCPAddr{IP: net.ParseIP("::ffff:10.1.2.3"), Port: 9}, "10.1.2.3"},
		{&net.TCPAddr{IP: net.ParseIP("2001:db8:1:2:3:4:5:6"), Port: 9}, "2001:db8:1:2::"},
		{&net.UDPAddr{IP: net.IPv4(192, 0, 2, 7), Port: 9}, "192.0.2.7"},
		{nil, "invalid IP"},
	} {
		require.Equal(t, c.want, throttleKey(c.addr).String(), "%v", c.addr)
	}
}

// TestThrottlePrune: the addresses remembered stay bounded.
func TestThrottlePrune(t *testing.T) {
	th := newThrottle(1, 1)
	t0 := time.Unix(1000, 0)
	for i := range maxThrottled + 10 {
		key := netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)})
		require.True(t, th.take(key, t0))
		require.LessOrEqual(t, len(th.buckets), maxThrottled)
	}
}

// countAuth fails every password and counts the calls.
type countAuth struct{ calls int }

func (c *countAuth) Password(_ []byte, p codec.Secret) (uint32, error) {
	c.calls++
	if p.Equal([]byte("right")) {
		return 1, nil
	}
	return 0, lifecycle.ErrInvalidCredentials
}

func (c *countAuth) Token(codec.Secret) (uint32, error) {
	c.calls++
	return 0, lifecycle.ErrUserInactive
}

// TestThrottledAuth: over budget nothing reaches the Authenticator, the
// refusal is the one a wrong credential gets, and successes cost nothing.
func TestThrottledAuth(t *testing.T) {
	inner := &countAuth{}
	a := &throttledAuth{inner: inner, t: newThrottle(2, 0.001), key: netip.MustParseAddr("192.0.2.1")}
	for range 5 {
		id, err := a.Password(nil, codec.NewSecret([]byte("right")))
		require.NoError(t, err)
		require.EqualValues(t, 1, id)
	}
	require.False(t, a.refused)
	_, err := a.Token(codec.Secret{})
	require.ErrorIs(t, err, lifecycle.ErrUserInactive, "the real answer while under budget")
	_, err = a.Password(nil, codec.NewSecret([]byte("wrong")))
	require.ErrorIs(t, err, lifecycle.ErrInvalidCredentials)
	require.Equal(t, 7, inner.calls)
	_, err = a.Password(nil, codec.NewSecret([]byte("right")))
	require.ErrorIs(t, err, lifecycle.ErrInvalidCredentials, "over budget even the right password fails")
	_, err = a.Token(codec.Secret{})
	require.ErrorIs(t, err, lifecycle.ErrInvalidToken)
	require.True(t, a.refused)
	require.Equal(t, 7, inner.calls, "without asking the Authenticator")
}

// TestThrottlePad: a throttled refusal takes about as long as the checks
// did (a lower bound only: a loaded machine may take longer).
func TestThrottlePad(t *testing.T) {
	th := newThrottle(1, 1)
	th.observe(20 * time.Millisecond)
	start := time.Now()
	th.pad()
	require.GreaterOrEqual(t, time.Since(start), 20*time.Millisecond)
	th.observe(10 * time.Microsecond) // an average: 20ms + (10µs-20ms)/8
	require.InDelta(t, float64(17500*time.Microsecond), float64(th.checkNanos.Load()), float64(10*time.Microsecond))
}
