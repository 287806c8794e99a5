package tcp

// SetFreeAfterDrop replaces what l calls to hand memory back after its
// connections dropped; call it before Serve.
func SetFreeAfterDrop(l *Listener, free func()) { l.drop.free = free }
