package main

import "bytes"

// Sequences first written as hostile cases of the conformance kit's client
// mode (cmd/conform), kept here so that every runner plays them. A runner
// may write the steps of the last two at once, as the kit does: the
// answers are the same.
func (g *gen) sequenceLifecycle() {
	garbage := bytes.Repeat([]byte{0xa5}, 256)
	le.PutUint32(garbage[48:], 256) // a usable size: the frame is whole, its header not a valid Request
	garbage[60] = cmdRequest
	g.life("8/dropped-garbage-header", "default", "a header of 0xa5 bytes with a usable size and the Request command is dropped; a ping after it is answered", "lifecycle.8.dropped").
		dropped(garbage, "dropped").
		answer(nonReplicated(cA, 1, 0, 1), replyFrame(cA, 1, opNonReplicated, 0), "still open")
	s := g.life("7/unknown-code-after-login", "default", "a NonReplicated code no command has, after login, is the application's: denied with 3", "lifecycle.7.deny")
	s.loggedIn(passwordLogin(cA, "iggy", "iggy"), 1, "session 1").
		answer(nonReplicated(cA, 1, 1, 9999), replyFrame(cA, 1, opNonReplicated, 3), "code 9999: status 3, request 1 echoed")
	g.life("9/ping-request-zero", "default", "a ping with request number 0 is answered, the number echoed", "lifecycle.9", "lifecycle.3").
		answer(nonReplicated(cA, 0, 0, 1), replyFrame(cA, 0, opNonReplicated, 0), "status 0, request 0 echoed")
	s = g.life("1.sessions/two-logins-at-once", "default", "a login, then a second under another client id right behind it (a runner may write both at once)", "lifecycle.1.sessions", "lifecycle.7.relogin")
	s.loggedIn(passwordLogin(cA, "iggy", "iggy"), 1, "session 1").
		loggedIn(passwordLogin(cB, "iggy", "iggy"), 1, "session 2 under the second client id")
	g.life("8/dropped-register-request", "default", "a Register with request number 5 is not a valid Request: dropped, no login", "lifecycle.8.dropped", "request.register.request").
		dropped(frame(request(opRegister).u64(128, cA).u64(168, 5), loginBody(goInfo(), "iggy", "iggy", "")), "dropped").
		answer(nonReplicated(cA, 1, 0, 1), replyFrame(cA, 1, opNonReplicated, 0), "still open, not logged in")
	g.life("3/ping-with-body", "default", "a ping carrying a body is still a ping: answered with status 0 and an empty body", "lifecycle.3").
		answer(frame(request(opNonReplicated).u64(128, cA), []byte("body")), replyFrame(cA, 1, opNonReplicated, 0), "status 0, empty body")
	s = g.life("1.evict/frames-behind-eviction", "default", "frames right behind one that evicts are never answered (a runner may write all three at once)", "lifecycle.1.evict", "lifecycle.2")
	s.loggedIn(passwordLogin(cA, "iggy", "iggy"), 1, "session 1").
		evicted(nonReplicated(cA, 1, 0, 38), evictFrame(cA, 15), "a legacy login: eviction 15").
		closed(nonReplicated(cA, 1, 1, 1), "the ping behind it is not answered")
}
