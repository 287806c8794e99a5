package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const sample = `goos: linux
BenchmarkFloor/Equal256-2         	1000	         4.0 ns/op	 0 B/op	 0 allocs/op
BenchmarkFloor/Equal256-2         	1000	         6.0 ns/op	 0 B/op	 0 allocs/op
BenchmarkFloor/Equal256-2         	1000	         5.0 ns/op	 0 B/op	 0 allocs/op
BenchmarkDecode/Eviction-2        	1000	         9.0 ns/op	28000 MB/s
BenchmarkDecode/Eviction-2        	1000	        11.0 ns/op	28000 MB/s
BenchmarkDecode/RequestHeader-2   	1000	        20.0 ns/op
PASS
`

func TestParseAndMedian(t *testing.T) {
	runs, err := parse(strings.NewReader(sample))
	require.NoError(t, err)
	assert.Equal(t, []float64{4, 6, 5}, runs["Floor/Equal256"])
	assert.InDelta(t, 5.0, median(runs["Floor/Equal256"]), 1e-9)
	assert.InDelta(t, 10.0, median(runs["Decode/Eviction"]), 1e-9)
	assert.Zero(t, median(nil))
}

func TestTableVerdicts(t *testing.T) {
	runs, err := parse(strings.NewReader(sample))
	require.NoError(t, err)
	ps := []path{
		{"Decode/Eviction", "Floor/Equal256", 2.0},      // 10/5 = 2.0: holds
		{"Decode/RequestHeader", "Floor/Equal256", 2.5}, // 20/5 = 4.0: misses
	}
	rows, ok := table(runs, ps)
	assert.False(t, ok)
	assert.Equal(t, "| Decode/Eviction | 10.0 | Floor/Equal256 | 5.0 | 2.00x | <= 2.0x | ok |", rows[2])
	assert.Equal(t, "| Decode/RequestHeader | 20.0 | Floor/Equal256 | 5.0 | 4.00x | <= 2.5x | MISS |", rows[3])

	rows, ok = table(runs, ps[:1])
	assert.True(t, ok)
	assert.Len(t, rows, 3, "the header, its rule and one row")

	_, ok = table(runs, []path{{"Decode/ReplyHeader", "Floor/Equal256", 2.5}})
	assert.False(t, ok, "a missing benchmark with a goal is a miss")
	_, ok = table(runs, []path{{"Decode/ReplyHeader", "Floor/Equal256", 0}})
	assert.True(t, ok, "a missing benchmark without a goal is only shown")
}

func TestEveryPathNamesABenchmarkOfTheCodec(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range paths {
		assert.False(t, seen[p.Name], "duplicate %s", p.Name)
		seen[p.Name] = true
		assert.True(t, strings.HasPrefix(p.Floor, "Floor/"), p.Floor)
	}
}

func TestPairedRatioFollowsRounds(t *testing.T) {
	// The machine halves its speed in round 2: each round's ratio is 2, the
	// ratio of the medians (20/5 = 4, from different rounds) is not.
	path := []float64{10, 40, 10}
	floor := []float64{5, 20, 5}
	assert.InDelta(t, 2.0, pairedRatio(path, floor), 1e-9)
	assert.InDelta(t, 2.2, pairedRatio([]float64{10, 12}, []float64{5}), 1e-9, "unequal counts: ratio of the medians (11/5)")
	assert.Zero(t, pairedRatio(nil, floor))
}

func TestMemGoals(t *testing.T) {
	in := "BenchmarkFrame/ReadFrameBody1MiB-2 \t 100\t 2984961 ns/op\t 351.37 MB/s\t 1048577 B/op\t 1 allocs/op\n" +
		"BenchmarkFrame/OperationForCode-2 \t 100\t 26 ns/op\t 0 B/op\t 0 allocs/op\n" +
		"BenchmarkNewServer/MaxSessionsLimit-2 \t 100\t 700 ns/op\t 880 B/op\t 13 allocs/op\n"
	runs, err := parse(strings.NewReader(in))
	require.NoError(t, err)
	lines, ok := memTable(runs, memGoals)
	assert.True(t, ok, "%v", lines)
	runs["Frame/ReadFrameBody1MiB#allocs/op"] = []float64{5}
	_, ok = memTable(runs, memGoals)
	assert.False(t, ok, "5 allocations miss")
	runs["Frame/ReadFrameBody1MiB#allocs/op"] = []float64{1}
	runs["NewServer/MaxSessionsLimit#B/op"] = []float64{400 << 10}
	_, ok = memTable(runs, memGoals)
	assert.False(t, ok, "a Server that pays for its bound up front misses")
	runs["NewServer/MaxSessionsLimit#B/op"] = []float64{880}
	delete(runs, "Frame/OperationForCode#B/op")
	runs["Frame/ReadFrameBody1MiB#allocs/op"] = []float64{1}
	_, ok = memTable(runs, memGoals)
	assert.False(t, ok, "a missing figure misses")
}
