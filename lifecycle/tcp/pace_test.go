package tcp

import (
	"testing"
	"time"
)

// TestActivity: connections count once per epoch; the count is the more
// of this epoch's so far and the last one's, and an older epoch counts
// for nothing.
func TestActivity(t *testing.T) {
	var a activity
	if n := a.active(10); n != 1 {
		t.Fatalf("no connection: active = %d, want 1 (a share is never divided by 0)", n)
	}
	for i := range uint64(3) {
		if n := a.mark(10); n != i+1 {
			t.Fatalf("mark %d in epoch 10: active = %d, want %d", i, n, i+1)
		}
	}
	if n := a.mark(11); n != 3 {
		t.Fatalf("first mark of epoch 11: active = %d, want the last epoch's 3", n)
	}
	if n := a.active(13); n != 1 {
		t.Fatalf("two epochs later: active = %d, want 1", n)
	}
	if n := a.mark(10); n != 1 {
		t.Fatalf("a mark of an epoch gone by: active = %d, want epoch 10's 1 (counts nothing now)", n)
	}
}

// TestPacer: a connection alone has the whole rate with a tenth of a
// second of it in hand; with others active its share shrinks with them;
// waits are never 0 and cover at least a quantum of the share.
func TestPacer(t *testing.T) {
	var a activity
	p := newPacer(&a, 1000)
	t0 := time.Unix(1000, 0)
	p.at = t0
	for i := range paceStart {
		if d := p.take(t0); d != 0 {
			t.Fatalf("token %d of a new connection: wait %v, want 0", i, d)
		}
	}
	d := p.take(t0)
	if d != paceQuantum {
		t.Fatalf("spent: wait %v, want a quantum %v (10 tokens at 1000/s)", d, paceQuantum)
	}
	t1 := t0.Add(time.Second)
	for i := range 100 {
		if d := p.take(t1); d != 0 {
			t.Fatalf("a second later, token %d of a tenth of a second: wait %v", i, d)
		}
	}
	if d := p.take(t1); d == 0 {
		t.Fatalf("a tenth of a second is all a connection keeps in hand: the 101st token came at once")
	}
	for range 9 {
		a.mark(uint64(t1.UnixNano()) / uint64(paceEpoch))
	}
	t2 := t1.Add(10 * time.Millisecond) // same epoch: 10 active, 100/s each
	if d := p.take(t2); d != 0 {
		t.Fatalf("10 ms at the share of 100/s: one token, got a wait %v", d)
	}
	if d := p.take(t2); d != 10*time.Millisecond {
		t.Fatalf("then a wait of a token at 100/s: %v, want 10ms", d)
	}
	var off pacer
	if d := off.take(t0); d != 0 {
		t.Fatalf("pacing off: wait %v", d)
	}
}
