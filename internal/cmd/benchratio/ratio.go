package main

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// path is one measured benchmark, the floor it is compared with and the
// goal for their ratio (0: shown, not held).
type path struct {
	Name, Floor string
	Goal        float64
}

// paths lists the table in the order it is printed: the typical inputs with
// the goals of the speed work, then the maximal inputs (every text field 255
// bytes of multi-byte UTF-8, a 64 KiB context), then paths shown for
// reference.
var paths = []path{
	{"Decode/Eviction", "Floor/Equal256", 2.0},
	{"Decode/EvictionInPlace", "Floor/Equal256", 2.0},
	{"Decode/RequestHeader", "Floor/Equal256", 2.5},
	{"Decode/RequestHeaderInPlace", "Floor/Equal256", 2.5},
	{"Decode/ReplyHeader", "Floor/Equal256", 2.5},
	{"Decode/ReplyHeaderInPlace", "Floor/Equal256", 2.5},
	{"Encode/RequestHeader", "Floor/Copy256", 2.5},
	{"Encode/Eviction", "Floor/Copy256", 2.5},
	{"Decode/ClientVersionInfo", "Floor/UTF8/ClientVersionInfo", 1.5},
	{"Decode/LoginRegister", "Floor/UTF8/LoginRegister", 1.5},
	{"Encode/LoginRegister", "Floor/UTF8/LoginRegister", 1.5},
	{"Decode/LoginReply", "Floor/UTF8/LoginReply", 1.5},
	{"Decode/ClientVersionInfoMax", "Floor/UTF8/ClientVersionInfoMax", 1.5},
	{"Encode/ClientVersionInfoMax", "Floor/UTF8/ClientVersionInfoMax", 1.5},
	{"Decode/LoginRegisterMax", "Floor/UTF8/LoginRegisterMax", 1.5},
	{"Encode/LoginRegisterMax", "Floor/UTF8/LoginRegisterMax", 1.5},
	{"Decode/LoginRegisterPATMax", "Floor/UTF8/LoginRegisterPATMax", 1.5},
	{"Encode/LoginRegisterPATMax", "Floor/UTF8/LoginRegisterPATMax", 1.5},
	{"Decode/LoginReplyMax", "Floor/UTF8/LoginReplyMax", 1.5},
	{"Encode/LoginReplyMax", "Floor/UTF8/LoginReplyMax", 1.5},
	// Protocol 0.11.1 (WIRE.md section 10): the login body with its
	// 32-byte bind secret, whose raw bytes the fast path skips in its
	// ASCII test, and BIND_SESSION, whose floor is its 11 text bytes
	// only (its 64 fixed bytes are loads no floor counts).
	{"Decode/LoginRegister0111", "Floor/UTF8/LoginRegister0111", 2.0},
	{"Encode/LoginRegister0111", "Floor/UTF8/LoginRegister0111", 2.0},
	{"Decode/BindSession", "Floor/UTF8/BindSession", 3.0},
	{"Encode/BindSession", "Floor/UTF8/BindSession", 3.5},
	{"Decode/LoginRegisterPAT", "Floor/UTF8/LoginRegisterPAT", 0},
	{"Encode/ClientVersionInfo", "Floor/UTF8/ClientVersionInfo", 0},
	{"Encode/LoginRegisterPAT", "Floor/UTF8/LoginRegisterPAT", 0},
	{"Encode/LoginReply", "Floor/UTF8/LoginReply", 0},
	{"Encode/ReplyHeader", "Floor/Copy256", 0},
	// An SDK's per-request lookup: no slower than the map it would keep.
	{"Frame/OperationForCode", "Floor/MapLookup", 1.0},
	// A client reading a 1 MiB reply header then body at its exact
	// size: shown beside a copy of 1 MiB; memGoals holds what it
	// allocates, the goal of this path.
	{"Frame/ReadFrameBody1MiB", "Floor/Copy1MiB", 0},
	// lifecycle: an SDK's stamp of a request header in front of its
	// payload and the correlation of the answer, beside a copy of a
	// header; shown, not held.
	{"SequencerStamp", "Floor/Copy256", 0},
}

// memGoal caps what one call of a path allocates: at most Allocs
// allocations and Bytes bytes (the median of -benchmem's allocs/op and
// B/op over the rounds).
type memGoal struct {
	Name          string
	Allocs, Bytes float64
}

// memGoals lists the paths held to an allocation budget: reading a 1 MiB
// reply body costs one allocation of at most 1.1x its size.
var memGoals = []memGoal{
	{"Frame/ReadFrameBody1MiB", 1, 1.1 * (1 << 20)},
	{"Frame/OperationForCode", 0, 0},
	// A Server's logical sessions cost memory as they are held, not
	// as its bound (MaxSessions) allows.
	{"NewServer/MaxSessionsLimit", 16, 16 << 10},
}

// memTable writes the Markdown table of gs, and reports whether every
// goal holds (a missing figure is a miss).
func memTable(runs map[string][]float64, gs []memGoal) ([]string, bool) {
	ok := true
	out := []string{"| path | allocations | bytes | |", "|---|---:|---:|---|"}
	for _, g := range gs {
		a, ab := runs[g.Name+"#allocs/op"], runs[g.Name+"#B/op"]
		verdict := "ok"
		switch {
		case len(a) == 0 || len(ab) == 0:
			verdict, ok = "not measured (run with -benchmem)", false
		case median(a) > g.Allocs || median(ab) > g.Bytes:
			verdict, ok = "MISS", false
		}
		out = append(out, fmt.Sprintf("| %s | %s allocs/op (<= %.0f) | %s B/op (<= %.0f) | %s |",
			g.Name, ns(median(a)), g.Allocs, ns(median(ab)), g.Bytes, verdict))
	}
	return out, ok
}

// parse collects the figures of every benchmark line by name, without the
// "Benchmark" prefix and the -GOMAXPROCS suffix: ns/op under the name, the
// others (-benchmem's B/op and allocs/op) under name#unit.
func parse(r io.Reader) (map[string][]float64, error) {
	runs := map[string][]float64{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") || f[3] != "ns/op" {
			continue
		}
		name := strings.TrimPrefix(f[0], "Benchmark")
		if i := strings.LastIndexByte(name, '-'); i > 0 {
			if _, err := strconv.Atoi(name[i+1:]); err == nil {
				name = name[:i]
			}
		}
		for i := 2; i+1 < len(f); i += 2 { // value unit, value unit, ...
			key := strings.TrimSuffix(name+"#"+f[i+1], "#ns/op")
			if v, err := strconv.ParseFloat(f[i], 64); err == nil {
				runs[key] = append(runs[key], v)
			}
		}
	}
	return runs, sc.Err()
}

// median of the runs of one benchmark; 0 when there are none.
func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return (s[(len(s)-1)/2] + s[len(s)/2]) / 2 // one figure twice when the count is odd
}

// pairedRatio is the median of the per-round ratios path[i]/floor[i]: make
// bench runs every benchmark once per round, so the i-th figures of a path
// and of its floor were measured seconds apart, and a machine whose speed
// drifts over a run moves both. With unequal counts (runs not in rounds) it
// is the ratio of the medians.
func pairedRatio(path, floor []float64) float64 {
	if len(path) == 0 || len(floor) == 0 {
		return 0
	}
	if len(path) != len(floor) {
		return median(path) / median(floor)
	}
	rs := make([]float64, len(path))
	for i := range path {
		rs[i] = path[i] / floor[i]
	}
	return median(rs)
}

// table writes the Markdown table of ps, and reports whether every goal
// holds (a missing benchmark is a miss).
func table(runs map[string][]float64, ps []path) ([]string, bool) {
	ok := true
	out := []string{"| path | ns/op | floor | floor ns/op | ratio | goal | |", "|---|---:|---|---:|---:|---:|---|"}
	for _, p := range ps {
		ratio, verdict := pairedRatio(runs[p.Name], runs[p.Floor]), ""
		switch {
		case ratio == 0:
			verdict, ok = "not measured", ok && p.Goal == 0
		case p.Goal == 0:
		case ratio <= p.Goal:
			verdict = "ok"
		default:
			verdict, ok = "MISS", false
		}
		out = append(out, fmt.Sprintf("| %s | %s | %s | %s | %s | %s | %s |", p.Name, ns(median(runs[p.Name])), p.Floor,
			ns(median(runs[p.Floor])), orDash("%.2fx", ratio), orDash("<= %.1fx", p.Goal), verdict))
	}
	return out, ok
}
