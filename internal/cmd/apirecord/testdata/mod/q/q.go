// Package q is imported by p, so that p's record names a type of another
// package.
package q

// Token is a type of another package.
type Token struct{ V string }

// Len is a method p's types get by embedding.
func (t *Token) Len() int { return len(t.V) }
