package tcp

import "testing"

// TestBudgetShare: a frame larger than the budget takes the whole of it.
func TestBudgetShare(t *testing.T) {
	b := newMemBudget(100)
	if s := b.share(40); s != 40 {
		t.Fatalf("share(40) = %d, want 40", s)
	}
	if s := b.share(1000); s != 100 {
		t.Fatalf("share(1000) = %d, want 100", s)
	}
}
