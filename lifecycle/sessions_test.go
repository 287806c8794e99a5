package lifecycle

import (
	"math/rand/v2"
	"testing"

	"github.com/iggywire/iggywire/codec"
)

// TestSessionTableInvariants puts random logins (few client ids, so that
// many replace each other, and a few users) into tables of several bounds
// and checks after each put: the session just put binds; the table holds
// at most max sessions and each user at most perUser; each user's count
// is the number of sessions it holds; and the lists link exactly the
// sessions held, oldest first. The package's other tests check which session goes;
// this one, that no sequence breaks the bookkeeping.
func TestSessionTableInvariants(t *testing.T) {
	secret := codec.NewSecret(make([]byte, codec.BindSecretLen))
	for _, bounds := range [][2]int{{1, 0}, {3, 0}, {8, 2}, {8, 3}, {5, 5}, {4, 9}, {64, 4}} {
		max, perUser := bounds[0], bounds[1]
		table, err := newSessionTable(max, perUser)
		if err != nil {
			t.Fatal(err)
		}
		rnd := rand.New(rand.NewPCG(uint64(max), uint64(perUser)))
		owner := map[uint64]uint32{} // a client id stays one user's, as owned makes it
		for i := 1; i <= 5000; i++ {
			id := rnd.Uint64N(24) + 1
			user, ok := owner[id]
			if !ok {
				user = uint32(rnd.IntN(3) + 1)
				owner[id] = user
			}
			client := codec.Uint128{Lo: id}
			if table.owned(client, user) {
				t.Fatalf("bounds %v put %d: client %d owned by another user", bounds, i, id)
			}
			if _, ok := table.put(client, user, uint64(i), secret); !ok {
				t.Fatalf("bounds %v put %d: refused", bounds, i)
			}
			if u, s, _, st := table.bind(client, uint64(i), secret); st != codec.StatusOK || u != user || s != uint64(i) {
				t.Fatalf("bounds %v put %d: the session just put does not bind: %v", bounds, i, st)
			}
			if len(table.byID) > max {
				t.Fatalf("bounds %v put %d: %d sessions held", bounds, i, len(table.byID))
			}
			held := map[uint32]int{}
			for _, e := range table.byID {
				held[e.userID]++
			}
			for u, n := range held {
				if perUser > 0 && n > perUser {
					t.Fatalf("bounds %v put %d: user %d holds %d", bounds, i, u, n)
				}
				if l := table.users[u]; l == nil || l.n != n {
					t.Fatalf("bounds %v put %d: user %d holds %d, its list says otherwise", bounds, i, u, n)
				}
			}
			checkLists(t, table)
			// Owned ids: another user cannot put over one of them.
			if _, ok := table.put(client, user+10, uint64(i), secret); ok {
				t.Fatalf("bounds %v put %d: another user took client %d", bounds, i, id)
			}
		}
	}
}

// checkLists checks that the table's list and each user's link exactly
// the sessions the table holds, in the order they were put (sessions
// grow with each put in TestSessionTableInvariants).
func checkLists(t *testing.T, table *sessionTable) {
	t.Helper()
	walk := func(l *sessionList, what string) map[codec.Uint128]bool {
		seen := map[codec.Uint128]bool{}
		var prev *logicalSession
		for e := l.head; e != nil; e = e.links[l.k].next {
			if e.links[l.k].prev != prev {
				t.Fatalf("%s: broken back link at session %d", what, e.session)
			}
			if prev != nil && prev.session >= e.session {
				t.Fatalf("%s: session %d after %d", what, e.session, prev.session)
			}
			if table.byID[e.client] != e {
				t.Fatalf("%s: session %d is not held", what, e.session)
			}
			seen[e.client] = true
			prev = e
		}
		if prev != l.tail || len(seen) != l.n {
			t.Fatalf("%s: tail or count wrong (%d linked, n %d)", what, len(seen), l.n)
		}
		return seen
	}
	if all := walk(&table.all, "all"); len(all) != len(table.byID) {
		t.Fatalf("all: %d linked, %d held", len(all), len(table.byID))
	}
	users := 0
	for u, l := range table.users {
		if l.n == 0 {
			t.Fatalf("user %d: an empty list kept", u)
		}
		for c := range walk(l, "user") {
			if table.byID[c].userID != u {
				t.Fatalf("user %d: holds another user's session", u)
			}
		}
		users += l.n
	}
	if users != len(table.byID) {
		t.Fatalf("users' lists link %d sessions, %d held", users, len(table.byID))
	}
}
