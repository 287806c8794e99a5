package main

import (
	"testing"
	"time"

	"github.com/iggywire/iggywire/internal/attack"
	"github.com/stretchr/testify/require"
)

func TestPercentile(t *testing.T) {
	var d []time.Duration
	for i := 1; i <= 100; i++ {
		d = append(d, time.Duration(101-i)*time.Millisecond)
	}
	require.Equal(t, 50*time.Millisecond, percentile(d, 0.50))
	require.Equal(t, 99*time.Millisecond, percentile(d, 0.99))
	require.Equal(t, 100*time.Millisecond, percentile(d, 1))
	require.Equal(t, time.Duration(0), percentile(nil, 0.99))
	require.Equal(t, 7*time.Millisecond, percentile([]time.Duration{7 * time.Millisecond}, 0.99))
}

func TestProcField(t *testing.T) {
	text := "Name:\tloginserver\nVmHWM:\t   51200 kB\nVmRSS:\t   20480 kB\n"
	require.EqualValues(t, 20480, procField(text, "VmRSS:"))
	require.EqualValues(t, 51200, procField(text, "VmHWM:"))
	require.EqualValues(t, -1, procField(text, "VmSwap:"))
	require.EqualValues(t, 37, procField(" inuse 1 orphan 0 tw 3 alloc 1 mem 37\nUDP: inuse 0 mem 9\n", "mem"))
	require.EqualValues(t, -1, procField(" inuse 1 mem x\n", "mem"))
	require.EqualValues(t, -1, procField(" inuse 1 mem", "mem"))
}

func TestLoopbackIPs(t *testing.T) {
	ips := loopbackIPs(5, 300)
	require.Len(t, ips, 300)
	require.Equal(t, "127.0.5.10", ips[0].String())
	require.Equal(t, "127.0.5.249", ips[239].String())
	require.Equal(t, "127.0.6.0", ips[240].String())
	seen := map[string]bool{}
	for _, ip := range ips {
		seen[ip.String()] = true
	}
	require.Len(t, seen, 300, "distinct addresses")
}

// TestCommonMisses: each must-hold that a row breaks is named, and a row
// that breaks none has no miss.
func TestCommonMisses(t *testing.T) {
	good := row{probe: attack.Result{OK: 1, Lat: []time.Duration{time.Millisecond}}, peakRSS: 20 << 20, baseRSS: 10 << 20,
		rssAfter: 12 << 20, tcpBase: 1 << 20, tcpPeak: 2 << 20, logRate: 3}
	require.Empty(t, good.commonMisses(true))
	bad := good
	bad.probe = attack.Result{OK: 1, Lat: []time.Duration{time.Second}, Ping: []time.Duration{time.Second}, Failed: 2, FirstErr: "EOF"}
	bad.peakRSS, bad.rssAfter, bad.tcpPeak, bad.logRate = 100<<20, 30<<20, 200<<20, 11000
	m := bad.commonMisses(true)
	require.Len(t, m, 7, "%q", m)
	require.Contains(t, m[1], "probe ping p99 1000.0 ms")
	require.Contains(t, m[2], "2 probe failures (first: EOF)")
	require.Empty(t, row{peakRSS: 1}.commonMisses(false), "no probe, no probe must-hold")
	require.Equal(t, []string{"no probe login ran"}, row{}.commonMisses(true))
}

func TestStatCPU(t *testing.T) {
	text := "4242 (login server) S 1 4242 4242 0 -1 4194560 9000 0 0 0 250 75 0 0 20 0 8 0 100 1000 200 18446744073709551615"
	require.Equal(t, 3250*time.Millisecond, statCPU(text), "utime 250 + stime 75 ticks")
	require.Equal(t, time.Duration(-1), statCPU("garbage"))
}
