package main

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/iggywire/iggywire/codec"
)

// Seed is one corpus file.
type Seed struct {
	Name string
	Data []byte
}

// Seeds returns every target's seeds.
func Seeds() map[string][]Seed {
	bodies := map[string][]Seed{
		"FuzzClientVersionInfo":      clientInfoSeeds(),
		"FuzzLoginRegister":          loginSeeds(),
		"FuzzLoginRegisterPAT":       patSeeds(),
		"FuzzLoginReply":             loginReplySeeds(),
		"FuzzRequestHeader":          requestSeeds(),
		"FuzzReplyHeader":            replySeeds(),
		"FuzzEviction":               evictionSeeds(),
		"FuzzParseVersion":           versionSeeds(),
		"FuzzSplitResult":            splitSeeds(),
		"FuzzBindSession":            bindSessionSeeds(),
		"FuzzLoginRegisterSecret":    loginSecretSeeds(),
		"FuzzLoginRegisterPATSecret": patSecretSeeds(),
	}
	all := map[string][]Seed{
		"FuzzFrame":          frameSeeds(),
		"FuzzBuildBodies":    buildBodySeeds(),
		"FuzzBuildHeaders":   buildHeaderSeeds(),
		"FuzzDifferential":   union(bodies),
		"FuzzConn":           connSeeds(),
		"FuzzClient":         clientSeeds(),
		"FuzzSecretPrinting": secretSeeds(),
	}
	for t, s := range bodies {
		all[t] = s
	}
	return all
}

// union names every seed of every target after its target, so the
// differential target starts from all of them.
func union(targets map[string][]Seed) []Seed {
	var out []Seed
	for _, t := range sortedKeys(targets) {
		for _, s := range targets[t] {
			out = append(out, Seed{Name: strings.ToLower(t[len("Fuzz"):]) + "-" + s.Name, Data: s.Data})
		}
	}
	return out
}

func sortedKeys(m map[string][]Seed) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := range keys { // insertion sort: a handful of keys
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

// must panics on an encoder error: every value encoded here is a constant
// of this program, so an error is a bug in it, never in its input.
func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// patch returns a copy of b with the bytes at off replaced by v.
func patch(b []byte, off int, v ...byte) []byte {
	c := append([]byte(nil), b...)
	copy(c[off:], v)
	return c
}

func u32(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }

func cat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// randomSeeds are inputs for the structured targets, whose bytes are read
// by a field generator rather than as a wire layout: the first byte picks
// the message kind, the rest is a fixed pseudo-random stream.
func randomSeeds(prefix string, kinds []string, stream uint64) []Seed {
	r := rand.New(rand.NewPCG(0x1994, stream))
	var out []Seed
	for k, kind := range kinds {
		for i := range 2 {
			b := make([]byte, 16+32*i)
			for j := range b {
				b[j] = byte(r.Uint32())
			}
			b[0] = byte(k)
			out = append(out, Seed{Name: fmt.Sprintf("%s-%s-random-%d", prefix, kind, i), Data: b})
		}
	}
	return out
}

// Values every seed starts from.
var (
	protocol = codec.Version(0x0000_2C00) // 0.11.0
	info     = codec.ClientVersionInfo{Protocol: protocol, SDKName: []byte("rust-sdk"), SDKVersion: []byte("0.11.0")}
	client   = codec.Uint128{Lo: 0x0123456789abcdef, Hi: 0xfedcba9876543210}
)
