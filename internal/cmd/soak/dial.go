package main

import (
	"net"
	"slices"
	"syscall"
	"time"

	"github.com/iggywire/iggywire/internal/attack"
)

// ioTimeout bounds every dial of a peer or probe.
const ioTimeout = 10 * time.Second

// attackBuffer is the kernel buffer, each way, of an attacker's socket.
// Attacker and server share the machine's kernel here, and the soak
// measures the server's share of it: a remote attacker's own buffers
// would be on its machine, so they are kept small.
const attackBuffer = 16 << 10

// dialer dials addr from the loopback address it is given (any if nil)
// within timeout, with kernel buffers of bufs bytes each way (the
// system's if 0: a legitimate client's).
func dialer(addr string, bufs int, timeout time.Duration) attack.Dial {
	return func(local net.IP) (net.Conn, error) {
		d := &net.Dialer{Timeout: timeout}
		if local != nil {
			d.LocalAddr = &net.TCPAddr{IP: local}
		}
		if bufs > 0 {
			d.Control = func(_, _ string, c syscall.RawConn) error {
				return c.Control(func(fd uintptr) {
					_ = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, bufs)
					_ = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_SNDBUF, bufs)
				})
			}
		}
		return d.Dial("tcp", addr)
	}
}

// loopbackIPs are n source addresses 127.0.b.10, 127.0.b.11, ...
func loopbackIPs(b byte, n int) []net.IP {
	ips := make([]net.IP, n)
	for i := range ips {
		ips[i] = net.IPv4(127, 0, b+byte((10+i)/250), byte((10+i)%250))
	}
	return ips
}

// percentile of durations, nearest rank; 0 for none.
func percentile(d []time.Duration, q float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	i := int(q*float64(len(s))+0.999999) - 1
	return s[min(max(i, 0), len(s)-1)]
}
