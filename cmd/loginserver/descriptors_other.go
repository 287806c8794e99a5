//go:build !linux && !darwin

package main

// processFDLimit: no descriptor limit to compare with on this system.
func processFDLimit() (fdLimit, bool) { return fdLimit{}, false }
