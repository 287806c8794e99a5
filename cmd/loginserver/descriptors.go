package main

import (
	"fmt"
)

// fdSpare is what the budget keeps for descriptors besides connections:
// standard streams, the two listeners, the poller, a users file being
// read, the runtime's own, and an accept or two in flight.
const fdSpare = 64

// fdLimit is the process's descriptor limit (RLIMIT_NOFILE), soft and
// hard, and how to raise the soft one.
type fdLimit struct {
	soft, hard uint64
	raise      func(soft uint64) error // nil: the limit cannot be changed
}

// fdFit is what fitDescriptors decided.
type fdFit struct {
	maxConns, maxPreLogin int
	soft                  uint64 // the soft limit now
	note                  string // one log line's message, "" when all fits
	lowered               bool   // the budget was lowered: a warning
}

// fitDescriptors makes the login port's budget fit the descriptor limit:
// connections, the metrics endpoint's cap and fdSpare. It raises the soft
// limit as far as needed and the hard one allows; if that is not enough,
// it lowers maxConns (and maxPreLogin with it) to what fits. The metrics
// endpoint keeps its cap, which is small and counted in, so scraping can
// never take the login port's descriptors.
func fitDescriptors(maxConns, maxPreLogin, metricsConns int, lim fdLimit) (fdFit, error) {
	fit := fdFit{maxConns: maxConns, maxPreLogin: maxPreLogin, soft: lim.soft}
	need := uint64(maxConns + metricsConns + fdSpare)
	if lim.soft >= need {
		return fit, nil
	}
	if target := min(need, lim.hard); target > lim.soft && lim.raise != nil && lim.raise(target) == nil {
		fit.soft = target
	}
	budget := fmt.Sprintf("max_conns %d + metrics %d + %d spare = %d", maxConns, metricsConns, fdSpare, need)
	if fit.soft >= need {
		fit.note = fmt.Sprintf("descriptor limit raised from %d to %d for the budget (%s)", lim.soft, fit.soft, budget)
		return fit, nil
	}
	room := int(fit.soft) - metricsConns - fdSpare
	if room < 1 {
		return fdFit{}, fmt.Errorf("descriptor limit %d (hard %d) leaves no room for connections beside metrics %d + %d spare; raise it (ulimit -n, systemd LimitNOFILE=)",
			fit.soft, lim.hard, metricsConns, fdSpare)
	}
	fit.maxConns, fit.maxPreLogin, fit.lowered = room, min(maxPreLogin, room), true
	fit.note = fmt.Sprintf("descriptor limit %d (hard %d) is below the budget (%s): max_conns lowered to %d, max_prelogin %d; raise the limit (ulimit -n, systemd LimitNOFILE=) or lower -max-conns",
		fit.soft, lim.hard, budget, fit.maxConns, fit.maxPreLogin)
	return fit, nil
}
