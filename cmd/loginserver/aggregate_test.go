package main

import (
	"fmt"
	"log/slog"
	"net"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// fakeClock is a clock the test moves.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func newTestAggregator() (*aggregator, *syncBuffer, *fakeClock) {
	var buf syncBuffer
	clock := &fakeClock{t: time.Unix(1_700_000_000, 0)}
	return newAggregator(slog.New(slog.NewTextHandler(&buf, nil)), 10*time.Second, clock.now), &buf, clock
}

func tcpAddr(s string) net.Addr {
	a, err := net.ResolveTCPAddr("tcp", s)
	if err != nil {
		panic(err)
	}
	return a
}

func attrsOf(kv ...any) func() []any { return func() []any { return kv } }

// TestAggregatorFirstThenSummary: the first event from an address is
// written in full, the next 1,233 are one summary line at the flush, with
// the accounts they named; another address and another label are each a
// first occurrence of their own.
func TestAggregatorFirstThenSummary(t *testing.T) {
	a, buf, clock := newTestAggregator()
	from := tcpAddr("127.0.0.3:40000")
	for i := range 1234 {
		a.note(kindLogin, "outcome=Throttled", from, account{name: []string{"iggy", "bob"}[i%2]}, attrsOf("n", i))
	}
	a.note(kindLogin, "outcome=Throttled", tcpAddr("127.0.0.4:1"), account{}, attrsOf("n", "other address"))
	a.note(kindLogin, "outcome=OK", from, account{}, attrsOf("n", "other label"))
	out := buf.String()
	require.Equal(t, 3, strings.Count(out, "\n"), out)
	require.Contains(t, out, "msg=login n=0\n")
	clock.t = clock.t.Add(10 * time.Second)
	require.Contains(t, out, `msg=login n="other address"`)
	require.Contains(t, out, `msg=login n="other label"`)
	a.flush()
	out = buf.String()
	require.Contains(t, out, `level=INFO msg="1,233 logins (outcome=Throttled) from 127.0.0.3 in the last 10s" event=login outcome=Throttled remote=127.0.0.3 count=1233 users=bob,iggy`)
	require.Equal(t, 4, strings.Count(out, "\n"), "the keys with only their first event need no summary:\n%s", out)
	require.Equal(t, 1233, loggedEvents(out, "login", "outcome=Throttled"), "this test's lines one by one carry no label: the summary's count")

	// A key that saw an event in the last interval is remembered: its next
	// event is counted, not written again.
	a.note(kindLogin, "outcome=Throttled", from, account{}, attrsOf("n", "again"))
	require.NotContains(t, buf.String(), `n=again`)
	a.flush()
	a.flush() // an interval with nothing from the .4 key, and now none from .3: both forgotten
	a.note(kindLogin, "outcome=Throttled", from, account{}, attrsOf("n", "after a quiet interval"))
	require.Contains(t, buf.String(), `n="after a quiet interval"`)
}

// TestAggregatorLineBudget: 1,000 addresses, 100 events each, write at
// most the line budget one by one plus a bounded summary, however many
// the addresses; the counts still add up to every event.
func TestAggregatorLineBudget(t *testing.T) {
	a, buf, clock := newTestAggregator()
	for range 100 {
		for host := range 1000 {
			a.note(kindClose, "cause=prelogin-cap", tcpAddr(fmt.Sprintf("10.0.%d.%d:5", host/250, host%250)), account{}, attrsOf("host", host))
		}
		clock.t = clock.t.Add(10 * time.Millisecond) // 1 s in all: lineRate more lines
	}
	firsts := strings.Count(buf.String(), "\n")
	require.LessOrEqual(t, firsts, lineBurst+int(lineRate)+1)
	require.GreaterOrEqual(t, firsts, lineBurst)
	a.flush()
	out := buf.String()
	require.LessOrEqual(t, strings.Count(out, "\n"), firsts+maxSummaryLines+1, out)
	require.Contains(t, out, "other addresses in the last 1s", "the events came over one second")
	total := 0
	for _, m := range regexp.MustCompile(` count=(\d+)`).FindAllStringSubmatch(out, -1) {
		n, err := strconv.Atoi(m[1])
		require.NoError(t, err)
		total += n
	}
	require.Equal(t, 100*1000, total+firsts, "every event is written or counted")
}

// TestAggregatorKeysBounded: past maxKeys addresses, new ones are counted
// together as "others", so memory does not grow with the addresses.
func TestAggregatorKeysBounded(t *testing.T) {
	a, buf, clock := newTestAggregator()
	for i := range maxKeys + 500 {
		a.note(kindOpen, "", tcpAddr(fmt.Sprintf("[2001:db8:%x::1]:1", i)), account{}, attrsOf())
	}
	require.Len(t, a.entries, maxKeys+1)
	clock.t = clock.t.Add(9600 * time.Millisecond)
	a.flush()
	out := buf.String()
	n := maxKeys + 500 - lineBurst - maxSummaryLines
	require.Contains(t, out, fmt.Sprintf(`msg="%s connections opened from more than %d other addresses in the last 10s" event=summary count=%d`,
		commas(n), maxKeys-lineBurst-maxSummaryLines, n))
}

func TestAddrKey(t *testing.T) {
	require.Equal(t, "127.0.0.3", addrKey(tcpAddr("127.0.0.3:4000")))
	require.Equal(t, "2001:db8:1:2::/64", addrKey(tcpAddr("[2001:db8:1:2:3:4:5:6]:4000")))
	require.Equal(t, "2001:db8:1:2::/64", addrKey(tcpAddr("[2001:db8:1:2::9]:1")), "one /64, one key")
	require.Equal(t, "192.0.2.1", addrKey(tcpAddr("[::ffff:192.0.2.1]:1")))
	require.Equal(t, "<nil>", addrKey(nil))
	require.Equal(t, "listener", addrKey(listenerAddr{}))
}

func TestCommas(t *testing.T) {
	for n, want := range map[int]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 1234: "1,234", 1234567: "1,234,567"} {
		require.Equal(t, want, commas(n))
	}
}
