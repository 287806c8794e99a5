package main

import (
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// The expectations of client mode come from lifecycle.Conn configured as
// the server under test. Configured as a vector's own server, with its own
// accounts, it must give back every answer the vector holds: the kit's
// expectations are the vectors'.
func TestModelAnswersAsTheVectors(t *testing.T) {
	vs, _ := loadAll(t)
	f := vs.Files["lifecycle"]
	checked := 0
	for _, v := range f.Cases {
		if strings.HasPrefix(v.Section, "10") {
			// Protocol 0.11.1's cases (WIRE.md section 10) need a window
			// that counts patch and several connections to one server:
			// the kit's 0.11.1 support plays them, not this 0.11.0 model.
			continue
		}
		srv := f.Servers[v.Server]
		var a accounts
		for _, u := range srv.Users {
			require.NoError(t, a.add(u.Name+":"+u.Password))
		}
		for _, tk := range srv.Tokens {
			require.NoError(t, a.add(tk.Token+"="+tk.User))
		}
		for i, u := range srv.Users {
			a.users[i].ID, a.users[i].Inactive = u.ID, u.Inactive
		}
		min, err := codec.ParseVersion(srv.Window.Min)
		require.NoError(t, err)
		max, err := codec.ParseVersion(srv.Window.Max)
		require.NoError(t, err)
		model, err := lifecycle.NewServer(lifecycle.Config{Window: codec.Window{Min: min, Max: max}, Version: srv.Version, Auth: a.auth()})
		require.NoError(t, err)
		conn := model.NewConn()
		for i, s := range v.Steps {
			in := rewriteCredentials(unhex(s.In), &srv, &a)
			assert.Equal(t, s.In, hex.EncodeToString(in), "v%d step %d: the vector's own accounts change nothing", v.ID, i+1)
			out, o, err := conn.Handle(in, nil)
			what := outcome(o, err)
			switch s.Out {
			case "dropped":
				assert.True(t, errors.Is(err, lifecycle.ErrDropped), "v%d step %d: %s", v.ID, i+1, what)
			case "closed":
				assert.Equal(t, "closed", what, "v%d step %d", v.ID, i+1)
			default:
				assert.Equal(t, s.Out, hex.EncodeToString(out), "v"+strconv.Itoa(v.ID))
			}
			checked++
		}
	}
	assert.Greater(t, checked, len(f.Cases))
}
