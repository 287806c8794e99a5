package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The aggregated log's bounds. Any peer can make the events of a
// connection (open, login, close...) as fast as it can connect, so each
// event is written in full only the first time it comes from an address
// (within an interval), and only while the server-wide line budget lasts;
// the rest are counted and summed up once an interval, the busiest keys
// first. Under any attack that is at most lineBurst lines at once, then
// lineRate a second plus the summary, whatever the number of addresses.
const (
	defaultLogEvery = 10 * time.Second
	lineBurst       = 50   // lines for first occurrences at once
	lineRate        = 4.0  // and per second after
	maxSummaryLines = 20   // summary lines naming one address, per interval
	maxKeys         = 4096 // keys remembered; further addresses count as "others"
	maxUsers        = 3    // account names kept per key for its summary line
)

// kind is one kind of event an attacker can cause at will. A new kind is
// one line in the list below and one call of note in its Observer hook.
type kind struct {
	msg   string // the message of the line for one event ("login")
	noun  string // its plural, for a summary ("logins")
	level slog.Level
}

var (
	kindOpen         = kind{"open", "connections opened", slog.LevelInfo}
	kindClose        = kind{"close", "connections closed", slog.LevelInfo}
	kindLogin        = kind{"login", "logins", slog.LevelInfo}
	kindLogout       = kind{"logout", "logouts", slog.LevelInfo}
	kindDropped      = kind{"dropped", "frames dropped", slog.LevelInfo}
	kindAnswerFailed = kind{"answer not encodable, denied with status 1", "answers not encodable", slog.LevelError}
	kindAcceptFailed = kind{"accept failed", "accept errors", slog.LevelWarn}
	kindLimited      = kind{"limited", "connections and logins refused by an admission limit", slog.LevelWarn}
)

// aggKey is what events are counted under: the kind, one label of a small
// fixed set (a close cause, a login outcome; "" for none) and the address.
type aggKey struct {
	kind  kind
	label string // "cause=prelogin-cap"
	addr  string // addrKey of the remote
}

// aggEntry is what a key has seen since the last summary.
type aggEntry struct {
	count     int      // events not written one by one
	active    bool     // an event came in this interval
	users     []string // the first few accounts named
	moreUsers bool     // and others
	unknown   int      // events naming no account of the server
}

// account is what an event says of the username it names: an account
// of the server by its name, or that the name is none of them, never the
// name itself, which may be a password typed in the wrong field. The zero
// account names none.
type account struct {
	name    string
	unknown bool
}

func (e *aggEntry) addUser(u account) {
	switch {
	case u.unknown:
		e.unknown++
	case u.name == "" || slices.Contains(e.users, u.name):
	case len(e.users) == maxUsers:
		e.moreUsers = true
	default:
		e.users = append(e.users, u.name)
	}
}

// aggregator writes the events of connections to log, bounded as said
// above. It is safe for concurrent use; the log is written outside its
// lock.
type aggregator struct {
	log   *slog.Logger
	every time.Duration
	now   func() time.Time

	mu      sync.Mutex
	entries map[aggKey]*aggEntry
	tokens  float64
	last    time.Time // of the line budget's refill
	flushed time.Time // the last summary
}

func newAggregator(log *slog.Logger, every time.Duration, now func() time.Time) *aggregator {
	return &aggregator{log: log, every: every, now: now, entries: make(map[aggKey]*aggEntry),
		tokens: lineBurst, last: now(), flushed: now()}
}

// note records one event from remote. attrs builds the full line's
// attributes; it is called only when the line is written. user is the
// account the event names, if any (never a secret).
func (a *aggregator) note(k kind, label string, remote net.Addr, user account, attrs func() []any) {
	key := aggKey{kind: k, label: label, addr: addrKey(remote)}
	a.mu.Lock()
	e, seen := a.entries[key]
	if !seen && len(a.entries) >= maxKeys {
		key.addr = "others"
		e, seen = a.entries[key]
	}
	if !seen {
		e = &aggEntry{}
		a.entries[key] = e
	}
	e.active = true
	write := !seen && a.take()
	if !write {
		e.count++
		e.addUser(user)
	}
	a.mu.Unlock()
	if write {
		a.log.Log(context.Background(), k.level, k.msg, attrs()...)
	}
}

// take spends a line of the budget, if one is left.
func (a *aggregator) take() bool {
	now := a.now()
	a.tokens = min(lineBurst, a.tokens+now.Sub(a.last).Seconds()*lineRate)
	a.last = now
	if a.tokens < 1 {
		return false
	}
	a.tokens--
	return true
}

// summary is one key's count for the interval.
type summary struct {
	aggKey
	aggEntry
}

// flush writes the counts of the events not written one by one since the
// last flush: a line for each of the busiest maxSummaryLines keys, then one
// for the other addresses of each kind and label. A key with no event in a
// whole interval is forgotten, so its next event is written in full again.
func (a *aggregator) flush() {
	a.mu.Lock()
	now := a.now()
	// The last summary at shutdown covers less than an interval.
	span := max(now.Sub(a.flushed).Round(time.Second), time.Second)
	a.flushed = now
	var sums []summary
	for k, e := range a.entries {
		switch {
		case !e.active:
			delete(a.entries, k)
		case e.count > 0:
			sums = append(sums, summary{k, *e})
		}
		*e = aggEntry{}
	}
	a.mu.Unlock()
	slices.SortFunc(sums, func(x, y summary) int {
		if x.count != y.count {
			return y.count - x.count
		}
		return strings.Compare(x.addr, y.addr)
	})
	type rest struct {
		addrs, count int
		others       bool // and addresses past maxKeys, not told apart
	}
	others := map[[2]string]*rest{}
	var order [][2]string
	lines := 0
	for _, s := range sums {
		if lines < maxSummaryLines && s.addr != "others" {
			a.summarise(s, span)
			lines++
			continue
		}
		g := [2]string{s.kind.noun, s.label}
		if others[g] == nil {
			others[g] = &rest{}
			order = append(order, g)
		}
		others[g].count += s.count
		if s.addr == "others" {
			others[g].others = true
		} else {
			others[g].addrs++
		}
	}
	for _, g := range order {
		r := others[g]
		from := strconv.Itoa(r.addrs) + " other addresses"
		if r.others {
			from = "more than " + from
		}
		a.log.Info(fmt.Sprintf("%s %s from %s in the last %s", commas(r.count), nounOf(g[0], g[1]), from, span),
			"event", "summary", "count", r.count)
	}
}

// summarise writes the line of one key.
func (a *aggregator) summarise(s summary, span time.Duration) {
	attrs := []any{"event", s.kind.msg}
	if name, value, ok := strings.Cut(s.label, "="); ok {
		attrs = append(attrs, name, value)
	}
	attrs = append(attrs, "remote", s.addr, "count", s.count)
	if len(s.users) > 0 {
		users := strings.Join(s.users, ",")
		if s.moreUsers {
			users += ",..."
		}
		attrs = append(attrs, "users", users)
	}
	if s.unknown > 0 {
		attrs = append(attrs, "unknown_users", s.unknown)
	}
	a.log.Log(context.Background(), s.kind.level,
		fmt.Sprintf("%s %s from %s in the last %s", commas(s.count), nounOf(s.kind.noun, s.label), s.addr, span), attrs...)
}

// run flushes every interval until ctx is done.
func (a *aggregator) run(ctx context.Context) {
	t := time.NewTicker(a.every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			a.flush()
		}
	}
}

// nounOf is "logins (outcome=Throttled)".
func nounOf(noun, label string) string {
	if label == "" {
		return noun
	}
	return noun + " (" + label + ")"
}

// addrKey is what a remote address is counted under: its IP, the /64 of
// an IPv6 address (one host's share, as the login throttle counts it).
func addrKey(a net.Addr) string {
	ta, ok := a.(*net.TCPAddr)
	if !ok {
		if a == nil {
			return "<nil>"
		}
		return a.String()
	}
	if ip4 := ta.IP.To4(); ip4 != nil {
		return ip4.String()
	}
	return (&net.IPNet{IP: ta.IP.Mask(net.CIDRMask(64, 128)), Mask: net.CIDRMask(64, 128)}).String()
}

// commas writes n with thousands separators: 1,234.
func commas(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
