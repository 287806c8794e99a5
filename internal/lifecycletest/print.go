package lifecycletest

import (
	"strings"
	"testing"

	"github.com/iggywire/iggywire/internal/leakcheck"
)

// EachShownSecret prints v every way leakcheck.PrintForms knows, failing
// the test at once if none of the forms is JSON (v must marshal), and
// calls shown for each form (how it was printed, and the text) that
// contains one of secrets.
func EachShownSecret(t testing.TB, v any, secrets []string, shown func(how, secret, s string)) {
	t.Helper()
	forms := leakcheck.PrintForms(v)
	if _, ok := forms["json"]; !ok {
		t.Fatalf("%T marshals: no json form among the %d printed forms", v, len(forms))
	}
	for how, s := range forms {
		for _, secret := range secrets {
			if strings.Contains(s, secret) {
				shown(how, secret, s)
			}
		}
	}
}
