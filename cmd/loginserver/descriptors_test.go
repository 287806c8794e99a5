package main

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFitDescriptors: a limit that holds the budget is left alone; a soft
// limit below it is raised as far as the hard one allows; what still does
// not fit lowers max-conns (and max-prelogin with it) and says so; a limit
// with no room at all is an error.
func TestFitDescriptors(t *testing.T) {
	var raisedTo uint64
	raise := func(soft uint64) error { raisedTo = soft; return nil }

	fit, err := fitDescriptors(8192, 256, 16, fdLimit{soft: 20000, hard: 20000, raise: raise})
	require.NoError(t, err)
	require.Equal(t, fdFit{maxConns: 8192, maxPreLogin: 256, soft: 20000}, fit)
	require.Zero(t, raisedTo)

	fit, err = fitDescriptors(8192, 256, 16, fdLimit{soft: 1024, hard: 1 << 20, raise: raise})
	require.NoError(t, err)
	require.EqualValues(t, 8192+16+fdSpare, raisedTo, "raised to the budget, not to the hard limit")
	require.Equal(t, 8192, fit.maxConns)
	require.False(t, fit.lowered)
	require.Contains(t, fit.note, "raised from 1024 to 8272")

	raisedTo = 0
	fit, err = fitDescriptors(8192, 256, 16, fdLimit{soft: 1024, hard: 4096, raise: raise})
	require.NoError(t, err)
	require.EqualValues(t, 4096, raisedTo)
	require.Equal(t, fdFit{maxConns: 4096 - 16 - fdSpare, maxPreLogin: 256, soft: 4096, lowered: true, note: fit.note}, fit)
	require.Contains(t, fit.note, "descriptor limit 4096 (hard 4096) is below the budget (max_conns 8192 + metrics 16 + 64 spare = 8272): max_conns lowered to 4016")

	fit, err = fitDescriptors(8192, 256, 16, fdLimit{soft: 300, hard: 300, raise: func(uint64) error { return errors.New("EPERM") }})
	require.NoError(t, err)
	require.Equal(t, 300-16-fdSpare, fit.maxConns)
	require.Equal(t, 300-16-fdSpare, fit.maxPreLogin, "max-prelogin never above max-conns")

	fit, err = fitDescriptors(100, 10, 0, fdLimit{soft: 100, hard: 1 << 20, raise: func(uint64) error { return errors.New("EPERM") }})
	require.NoError(t, err, "a refused raise lowers the budget")
	require.True(t, fit.lowered)

	_, err = fitDescriptors(100, 10, 16, fdLimit{soft: 80, hard: 80})
	require.ErrorContains(t, err, "leaves no room for connections")
}

// TestProcessFDLimit: the process's own limit is read, and the budget is
// fitted to it at start-up.
func TestProcessFDLimit(t *testing.T) {
	lim, ok := processFDLimit()
	if !ok {
		t.Skip("no descriptor limit on this system")
	}
	require.NotZero(t, lim.soft)
	require.GreaterOrEqual(t, lim.hard, lim.soft)
}
