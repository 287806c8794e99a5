package main

import (
	"fmt"

	"github.com/iggywire/iggywire/codec"
)

func (g *gen) versionTextCases() {
	okText := func(name, text, note string, major, minor, patch uint32) {
		g.ok(KindVersionText, "version/text/"+name, "1", note, []byte(text), map[string]any{
			"major": major, "minor": minor, "patch": patch, "value": major<<20 | minor<<10 | patch,
		}, "version.text.digits")
	}
	okText("golden-0.11.0", "0.11.0", "WIRE.md's reference value: 0.11.0 = 0x00002C00", 0, 11, 0)
	okText("zero", "0.0.0", "the lowest version", 0, 0, 0)
	okText("max", "1023.1023.1023", "every component at its maximum", 1023, 1023, 1023)
	okText("leading-zeros", "00.011.000", "leading zeros are allowed", 0, 11, 0)
	okText("prerelease", "0.11.0-edge.2", "a pre-release suffix is ignored", 0, 11, 0)
	okText("build", "1.2.3+build.5", "a build suffix is ignored", 1, 2, 3)
	okText("bare-dash", "1.2.3-", "'-' followed by nothing is still a suffix", 1, 2, 3)
	okText("suffix-anything", "1.2.3+ x.y", "anything after '+' is ignored, spaces included", 1, 2, 3)

	for _, b := range []struct {
		name, text, rule string
		at               int
		note             string
	}{
		{"empty", "", "version.text.digits", 0, "no digits at all"},
		{"v-prefix", "v1.2.3", "version.text.digits", 0, "no 'v'"},
		{"space-before", " 1.2.3", "version.text.digits", 0, "no spaces"},
		{"sign", "+1.2.3", "version.text.digits", 0, "no sign"},
		{"empty-minor", "1..3", "version.text.digits", 2, "an empty component"},
		{"empty-patch", "1.2.", "version.text.digits", 4, "an empty patch at the end"},
		{"letter-patch", "1.2.x", "version.text.digits", 4, "a letter where digits belong"},
		{"fullwidth-digit", "１.2.3", "version.text.digits", 0, "only ASCII digits"},
		{"two-components", "1.2", "version.text.dot", 3, "the patch is missing"},
		{"comma", "1,2,3", "version.text.dot", 1, "components are separated by '.'"},
		{"one-component", "7", "version.text.dot", 1, "a bare number is not a version"},
		{"four-components", "1.2.3.4", "version.text.end", 5, "a fourth component is neither the end nor a suffix"},
		{"space-after", "1.2.3 ", "version.text.end", 5, "a trailing space"},
		{"letter-after", "1.2.3x", "version.text.end", 5, "a letter after the patch"},
		{"underscore-after", "1.2.3_rc", "version.text.end", 5, "only '-' and '+' start a suffix"},
		{"major-1024", "1024.0.0", "version.text.range", 0, "a component above 1023"},
		{"minor-1024", "0.1024.0", "version.text.range", 2, "a component above 1023"},
		{"patch-1024", "0.0.1024", "version.text.range", 4, "a component above 1023"},
		{"huge", "99999999999999999999.0.0", "version.text.range", 0, "a component far above 1023 (no overflow)"},
		{"range-before-syntax", "2000.x", "version.text.range", 0, "the range is checked as soon as the digits end, before the syntax after them"},
	} {
		g.bad(KindVersionText, "version/text/"+b.name, b.note, []byte(b.text), b.rule, "version", b.at)
	}
}

// pack is major.minor.patch as a u32.
func pack(major, minor, patch uint32) uint32 { return major<<20 | minor<<10 | patch }

// countPatch is the rule of a window that counts patch.
const countPatch = "window.count_patch"

func (g *gen) windowCases() {
	for _, w := range []struct {
		name, min, max string
		v              uint32
		accepts        bool
		rule, note     string
	}{
		{"0x/below-min", "0.11.0", "0.11.3", pack(0, 10, 1023), false, "window.0x", "one below min"},
		{"0x/at-min", "0.11.0", "0.11.3", pack(0, 11, 0), true, "window.0x", "min itself"},
		{"0x/at-max", "0.11.0", "0.11.3", pack(0, 11, 3), true, "window.0x", "max itself"},
		{"0x/patch-above-max", "0.11.0", "0.11.3", pack(0, 11, 4), true, "window.0x", "a higher patch of the same minor: the upper bound ignores patch"},
		{"0x/last-patch", "0.11.0", "0.11.3", pack(0, 11, 1023), true, "window.0x", "the highest patch of the server's minor"},
		{"0x/next-minor", "0.11.0", "0.11.3", pack(0, 12, 0), false, "window.0x", "the next minor is above max"},
		{"0x/next-major", "0.11.0", "0.11.3", pack(1, 0, 0), false, "window.0x", "1.0.0 against a 0.x server"},
		{"0x/zero", "0.0.1", "0.11.0", 0, false, "window.0x", "0.0.0 is below every well-formed min"},
		{"0x/top-minor", "0.0.1", "0.1023.1023", pack(0, 1023, 1023), true, "window.0x", "the top of the 0.x range"},
		{"1x/below-min", "1.0.0", "1.2.3", pack(0, 1023, 1023), false, "window.1x", "the last 0.x version against a 1.x server"},
		{"1x/at-min", "1.0.0", "1.2.3", pack(1, 0, 0), true, "window.1x", "min itself"},
		{"1x/at-max", "1.0.0", "1.2.3", pack(1, 2, 3), true, "window.1x", "max itself"},
		{"1x/patch-above-max", "1.0.0", "1.2.3", pack(1, 2, 4), true, "window.1x", "strict semver: a higher patch of the same major"},
		{"1x/minor-above-max", "1.0.0", "1.2.3", pack(1, 1023, 1023), true, "window.1x", "strict semver: any minor of the same major"},
		{"1x/next-major", "1.0.0", "1.2.3", pack(2, 0, 0), false, "window.1x", "a major bump is incompatible"},
		{"1x/max-is-1.0.0", "0.11.0", "1.0.0", pack(0, 11, 0), false, "window.1x", "max 1.0.0 switches to strict semver: a 0.x client above min is refused"},
		{"1x/top", "1023.0.0", "1023.1023.1023", pack(1023, 1023, 1023), true, "window.1x", "the highest version"},
		{"reserved-bits/high", "0.11.0", "0.11.3", 0xC000_0000 | pack(0, 11, 0), false, "version.reserved_bits", "bits 31..30 set: not a version, no window accepts it"},
		{"reserved-bits/bit30", "0.11.0", "0.11.3", 0x4000_0000 | pack(0, 11, 1), false, "version.reserved_bits", "bit 30 alone"},
		{"reserved-bits/bit31-1x", "1.0.0", "1.2.3", 0x8000_0000 | pack(1, 0, 0), false, "version.reserved_bits", "bit 31 against a 1.x server"},
		{"ill-formed/min-zero", "0.0.0", "0.11.0", pack(0, 5, 0), false, "window.well_formed", "min 0: the window accepts nothing"},
		{"ill-formed/min-above-max", "0.12.0", "0.11.0", pack(0, 11, 5), false, "window.well_formed", "min > max: the window accepts nothing"},
		{"ill-formed/zero", "0.0.0", "0.0.0", pack(0, 0, 0), false, "window.well_formed", "the zero window"},
		{"well-formed/min-is-max", "0.0.1", "0.0.1", pack(0, 0, 1), true, "window.well_formed", "1 <= min == max"},
		// Windows that count patch, as protocol 0.11.1's gate does (WIRE.md
		// section 10.5).
		{"count-patch/0.11.1/at", "0.11.1", "0.11.1", 0x2C01, true, countPatch, "upstream's 0.11.1 gate: the one version"},
		{"count-patch/0.11.1/0.11.0", "0.11.1", "0.11.1", 0x2C00, false, countPatch, "0.11.0 has no bind secret: incompatible"},
		{"count-patch/0.11.1/next-patch", "0.11.1", "0.11.1", 0x2C02, false, countPatch, "a patch increment does not imply wire compatibility"},
		{"count-patch/both/0.11.0", "0.11.0", "0.11.1", 0x2C00, true, countPatch, "a server of both revisions accepts 0.11.0"},
		{"count-patch/both/0.11.1", "0.11.0", "0.11.1", 0x2C01, true, countPatch, "and 0.11.1"},
		{"count-patch/both/0.11.2", "0.11.0", "0.11.1", 0x2C02, false, countPatch, "and nothing above"},
		{"count-patch/1x/patch-above-max", "1.0.0", "1.2.3", pack(1, 2, 4), false, countPatch, "counting patch applies past 1.0 too: no strict-semver widening"},
		{"count-patch/reserved-bits", "0.11.1", "0.11.1", 0xC000_2C01, false, countPatch, "a value with reserved bits is not a version"},
	} {
		minV, _ := codec.ParseVersion(w.min)
		maxV, _ := codec.ParseVersion(w.max)
		c := g.ok(KindWindow, "window/"+w.name, g.rules[w.rule].Section, w.note, u32b(w.v), map[string]any{
			"version_valid": w.v&0xC000_0000 == 0, "well_formed": 1 <= minV && minV <= maxV, "accepts": w.accepts,
		}, w.rule)
		c.Window = &TextRange{Min: w.min, Max: w.max, CountPatch: w.rule == countPatch}
	}
}

func (g *gen) defaultWindowCases() {
	for _, d := range []struct {
		name        string
		server, min uint32
		wellForm    bool
		note        string
	}{
		{"0x", pack(0, 11, 3), pack(0, 11, 0), true, "0.x: patch zeroed"},
		{"0x-patch-zero", pack(0, 11, 0), pack(0, 11, 0), true, "min == max"},
		{"0.0.x", pack(0, 0, 5), 0, false, "0.0.x: min is 0.0.0, which is not well-formed, so such a server accepts nothing"},
		{"1.0.0", pack(1, 0, 0), pack(1, 0, 0), true, ">= 1.0: minor and patch zeroed"},
		{"1x", pack(1, 2, 3), pack(1, 0, 0), true, ">= 1.0: minor and patch zeroed"},
		{"max", pack(1023, 1023, 1023), pack(1023, 0, 0), true, "the highest version"},
	} {
		note := fmt.Sprintf("%s (server %d.%d.%d)", d.note, d.server>>20, d.server>>10&1023, d.server&1023)
		g.ok(KindDefaultWindow, "default-window/"+d.name, "1", note, u32b(d.server),
			map[string]any{"min": d.min, "max": d.server, "well_formed": d.wellForm}, "window.default")
	}
}
