package main

// mutation is one deliberate bug: in codec/File, the text Old (which must
// occur exactly once) becomes New. Catch names the properties expected to
// fail, as a -run pattern, and Why says what rule the bug breaks.
type mutation struct {
	Name, File, Old, New, Catch, Why string
}

// mutations lists the bugs the property suite must catch.
func mutations() []mutation {
	return []mutation{
		{"skip-eviction-reserved", "eviction.go",
			`checkZero(b, offEvReserved, sizeEvReserved, "reserved")`, `error(nil)`,
			"Canonical|Reject|Differential|Eviction", "an eviction's reserved bytes 152..255 are never checked"},
		{"skip-utf8", "reader.go",
			`if i := invalidUTF8(b); i >= 0 {`, `if i := invalidUTF8(b); i > len(b) {`,
			"Reject|Differential|Canonical|Overlap", "decoded text fields are not checked for UTF-8"},
		{"need-off-by-one", "reader.go",
			`if n > int64(r.left()) {`, `if n > int64(r.left())+1 {`,
			"Reject|Differential", "a field may claim one byte more than is present"},
		{"text-min-off-by-one", "reader.go",
			`if r.err == nil && int(n) < minLen {`, `if r.err == nil && int(n) < minLen-1 {`,
			"Differential|Canonical", "an empty sdk_name, username or server_version decodes"},
		{"window-patch-at-0x-bound", "version.go",
			`return v>>versionBits <= w.Max>>versionBits`, `return v <= w.Max`,
			"Window|Lifecycle", "under 0.x the upper bound compares the patch too"},
		{"swap-eviction-reserved-order", "eviction.go",
			`	if err := checkZero(b, offReservedFrame, sizeReservedFrame, "reserved_frame"); err != nil {
		return Eviction{}, err
	}
	if err := checkZero(b, offEvReserved, sizeEvReserved, "reserved"); err != nil {
		return Eviction{}, err
	}`,
			`	if err := checkZero(b, offEvReserved, sizeEvReserved, "reserved"); err != nil {
		return Eviction{}, err
	}
	if err := checkZero(b, offReservedFrame, sizeReservedFrame, "reserved_frame"); err != nil {
		return Eviction{}, err
	}`,
			"EvictionRules", "reserved is checked before reserved_frame, against the reference's order"},
		{"secret-format-leaks", "secret.go",
			"\t_, _ = f.Write([]byte(redacted))\n}", "\t_, _ = f.Write(s)\n}",
			"Secret", "Secret.Format prints the bytes under %s, %v, %x, %q"},
		{"eviction-window-ignores-min", "eviction.go",
			`if e.Window != (Window{}) {`, `if e.Window.Max != 0 {`,
			"Eviction|Differential|Canonical", "a non-14 eviction with only min set is accepted"},
		{"default-window-1x-keeps-minor", "version.go",
			`lowBits = 1<<(2*versionBits) - 1 // >= 1.0: drop minor and patch`, `lowBits = versionMaxPart`,
			"Window", "DefaultWindow past 1.0.0 zeroes only the patch"},
		{"nonreplicated-code-reserved", "request.go",
			"\t\treserved += sizeReqCode\n", "",
			"RoundTrip|Canonical|Differential|Lifecycle", "a NonReplicated code is also checked as reserved"},
		{"login-reply-session-zero", "loginreply.go",
			`if r.err == nil && l.Session == 0 {`, `if r.err == nil && l.Session == 0 && false {`,
			"Differential|Canonical", "a login reply with session 0 decodes"},
		{"parse-ignores-one-trailing-byte", "text.go",
			`if n < len(src) {`, `if n < len(src)-1 {`,
			"Prefix|Reject|Differential", "Parse accepts one byte after the last field"},
	}
}
