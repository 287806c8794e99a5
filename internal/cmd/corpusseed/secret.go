package main

import (
	"fmt"
	"strings"
)

// The seeds of FuzzSecretPrinting, one per holder kind and printer family:
// the input layout is the one documented at FuzzSecretPrinting in
// fuzz/secret_test.go (kind, family, variant, flags, secret length, three
// wrappers, then the other fields). Keep the two in step.

// secretHolders and secretFamilies name the choices of the first two
// bytes, in the target's order.
var (
	secretHolders  = []string{"secret", "loginregister", "loginregisterpat", "user", "token", "staticauth", "config", "server", "exchange", "loginregister-0.11.1", "bindsession", "loginregisterpat-0.11.1", "server-0.11.1"}
	secretFamilies = []string{"fmt", "json", "slog", "spew", "pretty", "cmp", "prettydiff", "testify"}
	secretWraps    = []string{"", "ptr", "slice", "map", "hidden", "ptr-hidden", "field", "array"}
	secretLengths  = []int{32, 255, 0, 8, 100}
)

// secretPrinter returns the variant and flags bytes of seed i of family
// and what they choose, in words.
func secretPrinter(family string, i int) (variant, flags byte, name string) {
	switch family {
	case "fmt":
		const verbs = "vsqxXdobcUeEfFgGtpTw"
		v := (i * 3) % len(verbs)
		flagSets := []struct {
			b    byte
			name string
		}{{0, ""}, {0x01, "plus-"}, {0x04, "sharp-"}, {0x21, "plus-width-"}, {0x48, "space-prec-"}, {0x12, "minus-zero-"}}
		fs := flagSets[i%len(flagSets)]
		verb := string(verbs[v])
		if lower := strings.ToLower(verb); lower != verb {
			verb = "upper-" + lower // seed names are lower case
		}
		return byte(v + 3*23), fs.b, fs.name + verb // the same verb (mod 23), width 18 when asked
	case "json":
		return byte(i % 2), 0, []string{"marshal", "indent"}[i%2]
	case "slog":
		return byte(i % 4), 0, []string{"text", "json", "text-group", "json-group"}[i%4]
	case "spew":
		modes := []string{"sdump", "v", "plus-v", "sharp-v", "sharp-plus-v", "sprint"}
		opts := []struct {
			b    byte
			name string
		}{{0, "default"}, {0x01, "nomethods"}, {0x2d, "testify"}, {0x10, "continue"}, {0x42, "nopointermethods-spewkeys"}}
		o := opts[i%len(opts)]
		return byte(i % len(modes)), o.b, modes[i%len(modes)] + "-" + o.name
	case "pretty":
		names := []string{"sprint", "v", "plus-v", "sharp-space-v", "sharp-v", "s"}
		return byte(i % 6), 0, names[i%6]
	case "cmp":
		return byte(i % 2), 0, []string{"allowunexported", "exporter"}[i%2]
	case "prettydiff":
		return 0, 0, "diff"
	default:
		names := []string{"equal", "equalvalues", "exactly", "notequal"}
		return byte(i % 4), 0, names[i%4]
	}
}

// secretText writes a text field of mode m (see text in the target).
func secretText(t tape, m int) tape {
	switch m {
	case 4: // a prefix of the marker
		return t.b(4, 5)
	case 5: // literal bytes
		return t.b(5, 3, 'c', 't', 'x')
	}
	return t.b(byte(m))
}

func secretSeeds() []Seed {
	var out []Seed
	for k, holder := range secretHolders {
		for f, family := range secretFamilies {
			i := k*len(secretFamilies) + f
			variant, flags, pname := secretPrinter(family, i)
			n := secretLengths[i%len(secretLengths)]
			w1, w2 := (k+f)%len(secretWraps), 0 // every family gets every wrapper
			if w1 != 0 && i%3 == 0 {
				w2 = (i/3)%7 + 1
			}
			t := tape{byte(k), byte(f), variant, flags, byte(n), byte(w1), byte(w2), 0}
			t = secretText(t, (k+f)%8)                               // username
			t = secretText(t, (i/2)%8)                               // context
			t = t.text("go-sdk").text("0.1.0").b(1)                  // SDK name and version; server version "iggy"
			t = t.u32(uint32(i + 1)).u32(0x2C00).b(byte(i*5) & 0x3f) // id, protocol, flags
			t = secretText(t, (i/3)%8)                               // out
			name := holder
			if w1 != 0 {
				name += "-" + secretWraps[w1]
				if w2 != 0 {
					name += "-in-" + secretWraps[w2]
				}
			}
			name += fmt.Sprintf("-%s-%s-len%d", family, pname, n)
			out = append(out, Seed{Name: name, Data: t})
		}
	}
	// A bare Secret, unwrapped, through every family: the printers then
	// reach the Secret's own methods (LogValue under slog, MarshalText
	// under JSON, Format under fmt), not a holder's.
	for f, family := range secretFamilies {
		variant, flags, pname := secretPrinter(family, f)
		t := tape{0, byte(f), variant, flags, 32, 0, 0, 0}
		t = secretText(t, 0)
		t = secretText(t, 0)
		t = t.text("go-sdk").text("0.1.0").b(1)
		t = t.u32(1).u32(0x2C00).b(0)
		t = secretText(t, 0)
		out = append(out, Seed{Name: fmt.Sprintf("secret-bare-%s-%s-len32", family, pname), Data: t})
	}
	return out
}
