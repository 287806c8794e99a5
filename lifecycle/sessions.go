package lifecycle

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"hash"
	"sync"
	"sync/atomic"

	"github.com/iggywire/iggywire/codec"
)

// DefaultMaxSessions is how many logical sessions a Server keeps for
// BIND_SESSION when Config.MaxSessions is 0.
const DefaultMaxSessions = 16384

// MaxSessionsLimit is the largest Config.MaxSessions NewServer accepts:
// 4,194,304 logical sessions, some 800 MB once all are held (each costs
// about 200 bytes: its map entry, its entry with the verifier and its
// places in the lists, and its liveness). A larger bound is a
// configuration mistake, refused rather than honoured until the memory
// runs out.
const MaxSessionsLimit = 1 << 22

// sessionTable is what a Server keeps of each logical session a
// bind-secret login created (WIRE.md section 10.6), keyed by the login's
// client id: the user, the session, whether a logout or an eviction ended
// it, and a verifier of its bind secret, never the secret. It outlives the
// connections: BIND_SESSION on a new connection finds the session here.
//
// It holds at most max sessions; a new one past that forgets the oldest
// (BIND_SESSION for it is then answered as for an unknown client). With a
// per-user bound, it holds at most perUser sessions of one user, and a
// user's login past it forgets that user's oldest, never another user's.
// The sessions are linked in the order they were put, all of them and
// each user's, so that forgetting is O(1); the memory grows with the
// sessions held, so that a Server pays for them, not for its bound (a
// 0.11.0 server holds none).
type sessionTable struct {
	mu      sync.Mutex
	mac     hash.Hash // HMAC-SHA-256 under a key drawn when the Server was made
	byID    map[codec.Uint128]*logicalSession
	all     sessionList // every session, oldest first
	max     int         // 1..MaxSessionsLimit
	perUser int         // 0: no bound per user
	users   map[uint32]*sessionList
	sum     [sha256.Size]byte
}

// logicalSession is one entry of the table, linked into the table's list
// and its user's.
type logicalSession struct {
	client   codec.Uint128
	userID   uint32
	session  uint64
	live     *liveSession // shared with the connections bound to it
	verifier [sha256.Size]byte
	links    [2]sessionLinks // in the table's list, in its user's
}

// sessionLinks are an entry's neighbours in one list.
type sessionLinks struct{ prev, next *logicalSession }

// sessionList is a list of entries through links[k], oldest first.
type sessionList struct {
	k          int // which of the entries' links
	head, tail *logicalSession
	n          int
}

// push appends e to l.
func (l *sessionList) push(e *logicalSession) {
	e.links[l.k] = sessionLinks{prev: l.tail}
	if l.tail != nil {
		l.tail.links[l.k].next = e
	} else {
		l.head = e
	}
	l.tail = e
	l.n++
}

// remove takes e, which is in l, out of it.
func (l *sessionList) remove(e *logicalSession) {
	ln := e.links[l.k]
	if ln.prev != nil {
		ln.prev.links[l.k].next = ln.next
	} else {
		l.head = ln.next
	}
	if ln.next != nil {
		ln.next.links[l.k].prev = ln.prev
	} else {
		l.tail = ln.prev
	}
	e.links[l.k] = sessionLinks{}
	l.n--
}

// liveSession is what a connection bound to a logical session holds of
// it: whether a logout or an eviction, on any connection, has ended it.
// It holds nothing else, so that a Conn printed by reflection shows no
// verifier.
type liveSession struct {
	ended atomic.Bool
}

// errKey: NewServer could not draw the verifiers' key.
var errKey = errors.New("lifecycle: config: no random key for the bind verifiers")

// newSessionTable returns an empty table of at most max sessions
// (1..MaxSessionsLimit, which NewServer checks), and of at most perUser
// sessions of one user (0: no such bound), with a fresh random key.
// Nothing is allocated for the sessions until they come.
func newSessionTable(max, perUser int) (*sessionTable, error) {
	var key [32]byte
	if _, err := rand.Read(key[:]); err != nil {
		return nil, errKey
	}
	return &sessionTable{
		mac:     hmac.New(sha256.New, key[:]),
		byID:    make(map[codec.Uint128]*logicalSession),
		all:     sessionList{k: 0},
		max:     max,
		perUser: perUser,
		users:   make(map[uint32]*sessionList),
	}, nil
}

// verifier computes the verifier of (client, user, secret) into t.sum:
// HMAC-SHA-256 over client (u128 LE) ‖ user (u32 LE) ‖ secret, the bytes
// upstream's BLAKE3 verifier covers, in its order. t.mu is held.
func (t *sessionTable) verifier(client codec.Uint128, userID uint32, secret codec.Secret) []byte {
	var b [20]byte
	binary.LittleEndian.PutUint64(b[0:], client.Lo)
	binary.LittleEndian.PutUint64(b[8:], client.Hi)
	binary.LittleEndian.PutUint32(b[16:], userID)
	t.mac.Reset()
	t.mac.Write(b[:])
	t.mac.Write(secret.Bytes())
	return t.mac.Sum(t.sum[:0])
}

// owned reports whether client holds a logical session, live or ended, of
// another user than userID: a login of userID must not take that client
// id (WIRE.md section 10.6).
func (t *sessionTable) owned(client codec.Uint128, userID uint32) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	e, ok := t.byID[client]
	return ok && e.userID != userID
}

// put records the logical session a bind-secret login created, replacing
// any earlier one of the same client id and user, and returns what the
// connection bound to it holds. It refuses (nil, false) a client id that
// holds another user's logical session, which owned told the login
// already; only a login racing it gets here so. At the user's bound it
// forgets the user's oldest session, at the table's the oldest of all.
func (t *sessionTable) put(client codec.Uint128, userID uint32, session uint64, secret codec.Secret) (*liveSession, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if cur, ok := t.byID[client]; ok {
		if cur.userID != userID {
			return nil, false
		}
		t.forget(cur)
	}
	if user := t.users[userID]; t.perUser > 0 && user != nil && user.n >= t.perUser {
		t.forget(user.head)
	}
	if t.all.n >= t.max {
		t.forget(t.all.head)
	}
	user := t.users[userID] // after the forgetting, which drops an emptied list
	if user == nil {
		user = &sessionList{k: 1}
		t.users[userID] = user
	}
	e := &logicalSession{client: client, userID: userID, session: session, live: new(liveSession)}
	copy(e.verifier[:], t.verifier(client, userID, secret))
	t.byID[client] = e
	t.all.push(e)
	user.push(e)
	return e.live, true
}

// forget drops e, which the table holds, from it and from its lists. A
// user's list that empties goes too, so that the table holds nothing of a
// user without sessions.
func (t *sessionTable) forget(e *logicalSession) {
	delete(t.byID, e.client)
	t.all.remove(e)
	if user := t.users[e.userID]; user != nil {
		user.remove(e)
		if user.n == 0 {
			delete(t.users, e.userID)
		}
	}
}

// bind decides cases e to g of WIRE.md section 10.4 for BIND_SESSION of
// (client, session) with secret: the user and session to bind, or the
// status to refuse with. The secret is compared through its verifier, in
// constant time; ended and unknown sessions are not secret and are told
// apart first. On success it also returns what the bound connection holds
// of the session.
func (t *sessionTable) bind(client codec.Uint128, session uint64, secret codec.Secret) (uint32, uint64, *liveSession, codec.Status) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e, ok := t.byID[client]
	switch {
	case !ok:
		// 40 whatever the session: a login here is decided before its
		// reply is written, so an unknown client id is never a login not
		// visible yet (upstream's 58 for session 0), but one that never
		// arrived, was refused, made no logical session (0.11.0) or was
		// forgotten (WIRE.md section 10.4, case e).
		return 0, 0, nil, codec.StatusUnauthenticated
	case e.live.ended.Load() || !hmac.Equal(e.verifier[:], t.verifier(client, e.userID, secret)):
		return 0, 0, nil, codec.StatusUnauthenticated
	case session != 0 && session != e.session:
		return 0, 0, nil, codec.StatusInvalidSession
	}
	return e.userID, e.session, e.live, codec.StatusOK
}
