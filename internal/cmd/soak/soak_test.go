package main

import (
	"testing"
	"time"

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

func TestStatusField(t *testing.T) {
	text := "Name:\tloginserver\nVmHWM:\t   51200 kB\nVmRSS:\t   20480 kB\n"
	require.EqualValues(t, 20<<20, statusField(text, "VmRSS"))
	require.EqualValues(t, 50<<20, statusField(text, "VmHWM"))
	require.EqualValues(t, -1, statusField(text, "VmSwap"))
}
