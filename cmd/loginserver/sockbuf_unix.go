//go:build linux || darwin

package main

import "syscall"

// setSockBuffers sets a listening socket's receive and send buffers before
// it listens; Linux gives the connections it accepts the same sizes, also
// to those still in the listen queue.
func setSockBuffers(c syscall.RawConn, rcv, snd int) error {
	var serr error
	err := c.Control(func(fd uintptr) {
		if serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, rcv); serr == nil {
			serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_SNDBUF, snd)
		}
	})
	if err != nil {
		return err
	}
	return serr
}
