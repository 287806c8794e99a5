package leakcheck_test

import (
	"testing"

	"github.com/iggywire/iggywire/internal/leakcheck"
)

// TestMatcherFindsFirstByte checks the forms in which printers that follow
// pointers show a secret's first byte ('Q', 81, 0x51), and that near
// misses (another byte, a longer number) are not taken for it.
func TestMatcherFindsFirstByte(t *testing.T) {
	m := leakcheck.NewMatcher([]byte("Qsecret-Qsecret"))
	for _, text := range []string{
		"  p: (*uint8)(81),",                     // go-spew Sdump, addresses off (testify's diff)
		"  p: (*uint8)(0xc000012345)(81),",       // go-spew Sdump
		"{p:(*uint8)(0xc000012345)81 n:(int)15}", // go-spew %#v
		"{p:<*>(0xc000012345)81 n:15}",           // go-spew %+v
		"{p:<*>81 n:15}",                         // go-spew %+v, addresses off
		"p:  &uint8(0x51),",                      // kr/pretty
		"[]any{uint8(81)}",
		"- \t\tp: &81,",        // go-cmp
		"\t\tp: &81\n",         // go-cmp, last
		"Password.p: 81 != 82", // kr/pretty Diff
		"Password.p: 80 != 81",
		"Qsecret-Qsecret", "517365637265742d51736563726574", "517365637265742D51736563726574",
		"51 73 65 63 72 65 74 2d 51 73 65 63 72 65 74", "81 115 101 99 114 101 116 45 81 115 101 99 114 101 116",
		"81,115,101,99,114,101,116,45,81,115,101,99,114,101,116", "UXNlY3JldC1Rc2VjcmV0",
		"0x51, 0x73, 0x65, 0x63, 0x72, 0x65, 0x74, 0x2d, 0x51, 0x73, 0x65, 0x63, 0x72, 0x65, 0x74",
		"00000000  51 73 65 63 72 65 74 2d  51 73 65 63 72 65 74     |Qsecret.Qsecret|", // a hex dump (go-spew's []byte)
	} {
		if m.Find(text) == "" {
			t.Errorf("Find(%q) found nothing", text)
		}
	}
	for _, text := range []string{
		"p: (*uint8)(82),", "p: (*uint8)(810),", "(*uint8)(0xc000012345)(810)", "&uint8(0x52)", "uint8(0x510)",
		"p: &82,", "p: &810,", "p: &81.5,", "p: 810 != 82", "p: 82 != 810", "<*>(0xc0)810", "(unsafe.Pointer) 0xc000081081",
		"p: ⟪0x0c2b88d96b10⟫,", "81",
	} {
		if f := m.Find(text); f != "" {
			t.Errorf("Find(%q) = %q, want nothing", text, f)
		}
	}
	if f := leakcheck.NewMatcher(nil).Find("(*uint8)(0) &0 uint8(0x0)"); f != "" {
		t.Errorf("the empty secret's Matcher found %q", f)
	}
}

// TestLeakAndShows runs the standard library's printers: no secret shows,
// and plain bytes do.
func TestLeakAndShows(t *testing.T) {
	for _, secret := range []string{"hunter2-hunter2", "\x01pw:hunter2", "sécret-ü-€-𝄞"} {
		where, err := leakcheck.Leak([]byte(secret))
		if err != nil {
			t.Fatal(err)
		}
		if where != "" {
			t.Errorf("%q: %s", secret, where)
		}
	}
	if !leakcheck.Shows([]byte("visible-bytes")) {
		t.Error("bytes held plainly in an unexported field do not show: the check is blind")
	}
}
