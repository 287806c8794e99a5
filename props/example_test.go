package props_test

import (
	"bytes"
	"errors"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/props"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"
)

// Example property-tests a decoder of the login handshake with the
// generators of this package. Here the decoder under test is this module's
// codec; another project puts its own decoder where codec.ParseLoginRegister
// and codec.ParseLoginRegisterPAT stand. It must read back every valid
// Register body the generators make (edge lengths and 4-byte runes
// included), and meet every damaged body with an error that says where it
// broke, never a panic.
func Example() {
	params := gopter.DefaultTestParametersWithSeed(1) // fixed, so the output is pinned
	params.MinSuccessfulTests = 300
	properties := gopter.NewProperties(params)

	properties.Property("the decoder reads back every valid login", prop.ForAll(
		func(l codec.LoginRegister) bool {
			enc, err := l.AppendBinary(nil)
			if err != nil {
				return false
			}
			got, err := codec.ParseLoginRegister(enc)
			return err == nil && got.Info.Protocol == l.Info.Protocol &&
				bytes.Equal(got.Username, l.Username) && got.Password.Equal(l.Password) &&
				bytes.Equal(got.Context, l.Context)
		},
		props.GenLoginRegister(),
	))

	properties.Property("a damaged token body decodes or names its field", prop.ForAll(
		func(h props.Hostile[codec.LoginRegisterPAT]) bool {
			_, err := codec.ParseLoginRegisterPAT(h.Bytes())
			var ce *codec.Error
			return err == nil || errors.As(err, &ce) && ce.Field != ""
		},
		props.GenHostile[codec.LoginRegisterPAT](props.GenLoginRegisterPAT()),
	))

	// In a test, use properties.TestingRun(t). A failing Hostile case
	// prints through props.Describe, which shows secrets by length only.
	properties.Run(gopter.ConsoleReporter(false))
	// Output:
	// + the decoder reads back every valid login: OK, passed 300 tests.
	// + a damaged token body decodes or names its field: OK, passed 300 tests.
}
