package tcp

import (
	"net"

	"github.com/iggywire/iggywire/codec"
)

// LargeFramePeak returns the most bytes of large frames l ever held at once.
func LargeFramePeak(l *Listener) int64 { return l.budget.peakUse() }

// TrialSlots and TrialTimeout are the probation's bounds (admit.go).
const (
	TrialSlots   = trialSlots
	TrialTimeout = trialTimeout
)

// SweepEvery is how often the throttles are swept (throttle.go).
const SweepEvery = sweepEvery

// AnswerRefusal is the exchange of a connection refused at a cap, through
// buffers the test gives (refuse.go).
func AnswerRefusal(nc net.Conn, header *[codec.HeaderSize]byte, drain *[RefuseDrain]byte) {
	answerRefusal(nc, header, drain)
}

// RefuseDrain is the size of a refused frame's drain buffer.
const RefuseDrain = refuseDrain
