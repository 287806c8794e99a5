package props_test

import (
	"bytes"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/refcodec"
	"github.com/iggywire/iggywire/props"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"
)

// Example property-tests a decoder that is not this module's codec with the
// generators of this package. The reference codec stands in for another
// project's decoder of the login handshake: it must read back every valid
// Register body the generators make, edge lengths and 4-byte runes
// included, and accept exactly the damaged bodies the codec accepts.
func Example() {
	params := gopter.DefaultTestParametersWithSeed(1) // fixed, so the output is pinned
	params.MinSuccessfulTests = 300
	properties := gopter.NewProperties(params)

	properties.Property("the decoder reads back every valid login", prop.ForAll(
		func(l codec.LoginRegister) bool {
			enc, err := l.AppendTo(nil)
			if err != nil {
				return false
			}
			got, err := refcodec.ParseLoginRegister(enc)
			return err == nil && got.Info.Protocol == uint32(l.Info.Protocol) &&
				bytes.Equal(got.Username, l.Username) && bytes.Equal(got.Password, l.Password.Bytes()) &&
				bytes.Equal(got.Context, l.Context)
		},
		props.GenLoginRegister(),
	))

	properties.Property("it agrees with the codec on damaged tokens", prop.ForAll(
		func(h props.Hostile[codec.LoginRegisterPAT]) bool {
			b := h.Bytes()
			_, err := codec.ParseLoginRegisterPAT(b)
			_, refErr := refcodec.ParseLoginRegisterPAT(b)
			return (err == nil) == (refErr == nil)
		},
		props.GenHostile[codec.LoginRegisterPAT](props.GenLoginRegisterPAT()),
	))

	// In a test, use properties.TestingRun(t). A failing Hostile case
	// prints through props.Describe, which shows secrets by length only.
	properties.Run(gopter.ConsoleReporter(false))
	// Output:
	// + the decoder reads back every valid login: OK, passed 300 tests.
	// + it agrees with the codec on damaged tokens: OK, passed 300 tests.
}
