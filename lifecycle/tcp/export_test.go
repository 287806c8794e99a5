package tcp

// LargeFramePeak returns the most bytes of large frames l ever held at once.
func LargeFramePeak(l *Listener) int64 { return l.budget.peakUse() }

// TrialSlots and TrialTimeout are the probation's bounds (admit.go).
const (
	TrialSlots   = trialSlots
	TrialTimeout = trialTimeout
)

// SweepEvery is how often the throttles are swept (throttle.go).
const SweepEvery = sweepEvery
