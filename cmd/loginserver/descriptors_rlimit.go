//go:build linux || darwin

package main

import "syscall"

// processFDLimit reads RLIMIT_NOFILE. (The Go runtime raises the soft
// limit to the hard one at start-up on most systems; this does not count
// on it.)
func processFDLimit() (fdLimit, bool) {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err != nil {
		return fdLimit{}, false
	}
	return fdLimit{soft: uint64(r.Cur), hard: uint64(r.Max), raise: func(soft uint64) error {
		return syscall.Setrlimit(syscall.RLIMIT_NOFILE, &syscall.Rlimit{Cur: soft, Max: r.Max})
	}}, true
}
