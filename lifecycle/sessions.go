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

// sessionTable is what a Server keeps of each logical session a
// bind-secret login created (WIRE.md section 10.6), keyed by the login's
// client id: the user, the session, whether a logout or an eviction ended it, and a
// verifier of its bind secret, never the secret. It outlives the
// connections: BIND_SESSION on a new connection finds the session here.
//
// It holds at most max sessions; a new one past that forgets the oldest
// (BIND_SESSION for it is then answered as for an unknown client). order
// is a ring of the (client, session) pairs in the order they were put;
// an entry of the ring whose client was put again since is stale and is
// skipped when its turn to be forgotten comes.
type sessionTable struct {
	mu    sync.Mutex
	mac   hash.Hash // HMAC-SHA-256 under a key drawn when the Server was made
	byID  map[codec.Uint128]logicalSession
	order []sessionRef
	head  int // the oldest entry of order
	n     int // the entries of order in use
	sum   [sha256.Size]byte
}

// logicalSession is one entry of the table.
type logicalSession struct {
	userID   uint32
	session  uint64
	live     *liveSession // shared with the connections bound to it
	verifier [sha256.Size]byte
}

// liveSession is what a connection bound to a logical session holds of
// it: whether a logout or an eviction, on any connection, has ended it. It holds nothing
// else, so that a Conn printed by reflection shows no verifier.
type liveSession struct {
	ended atomic.Bool
}

// sessionRef names one put of the table, in order.
type sessionRef struct {
	client  codec.Uint128
	session uint64
}

// errKey: NewServer could not draw the verifiers' key.
var errKey = errors.New("lifecycle: config: no random key for the bind verifiers")

// newSessionTable returns an empty table of at most max sessions with a
// fresh random key.
func newSessionTable(max int) (*sessionTable, error) {
	var key [32]byte
	if _, err := rand.Read(key[:]); err != nil {
		return nil, errKey
	}
	return &sessionTable{
		mac:   hmac.New(sha256.New, key[:]),
		byID:  make(map[codec.Uint128]logicalSession),
		order: make([]sessionRef, max),
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

// put records the logical session a bind-secret login created, replacing
// any earlier one of the same client id, and returns what the connection
// bound to it holds.
func (t *sessionTable) put(client codec.Uint128, userID uint32, session uint64, secret codec.Secret) *liveSession {
	t.mu.Lock()
	defer t.mu.Unlock()
	e := logicalSession{userID: userID, session: session, live: new(liveSession)}
	copy(e.verifier[:], t.verifier(client, userID, secret))
	if t.n == len(t.order) {
		old := t.order[t.head]
		if cur, ok := t.byID[old.client]; ok && cur.session == old.session {
			delete(t.byID, old.client)
		}
		t.head = (t.head + 1) % len(t.order)
		t.n--
	}
	t.order[(t.head+t.n)%len(t.order)] = sessionRef{client, session}
	t.n++
	t.byID[client] = e
	return e.live
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
