package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// firstValidity returns the first id of ids whose rule is a validity rule,
// or "" when none is.
func firstValidity(ids []string, rules map[string]Rule) string {
	for _, id := range ids {
		if rules[id].Class == ClassValidity {
			return id
		}
	}
	return ""
}

// checkCodecRule runs the codec on an error case of a codec kind and
// checks that the *codec.Error it reports carries, as Rule, the first
// validity rule the case names (a crasher case names none: its expected
// rule), and that the id is a validity rule of rules.json.
func checkCodecRule(c *Case, rules map[string]Rule) error {
	got, err := observe(c)
	if err != nil {
		return err
	}
	if got.Verdict != "error" {
		return fmt.Errorf("the codec accepts the input")
	}
	want := firstValidity(c.Rules, rules)
	if want == "" && c.Source != "" {
		want = c.Expect.Rule
	}
	if want == "" {
		return fmt.Errorf("the case names no validity rule: %v", c.Rules)
	}
	if got.Rule != want {
		return fmt.Errorf("codec.Error.Rule = %q, want %q (the case's rules: %v)", got.Rule, want, c.Rules)
	}
	if r, ok := rules[got.Rule]; !ok || r.Class != ClassValidity {
		return fmt.Errorf("codec.Error.Rule %q is not a validity rule of %s", got.Rule, rulesFile)
	}
	return nil
}

// TestCodecRuleIDs: for every error case of the codec's kinds, the
// *codec.Error the codec returns names the case's first validity rule by
// its id in rules.json.
func TestCodecRuleIDs(t *testing.T) {
	rules := loadRules(t)
	n, ids := 0, map[string]bool{}
	for _, f := range loadFiles(t) {
		for i := range f.Cases {
			c := &f.Cases[i]
			if c.Kind == KindLifecycle || c.Expect == nil || c.Expect.Verdict != "error" {
				continue
			}
			n++
			ids[c.Expect.Rule] = true
			assert.NoError(t, checkCodecRule(c, rules), c.Name)
		}
	}
	assert.GreaterOrEqual(t, n, 300, "error cases checked")
	t.Logf("%d error cases, %d distinct rule ids", n, len(ids))
}

// TestCodecRuleIDsCatchWrongID: the first error case of each codec kind,
// with another validity rule planted before its own, fails the check; so
// does the same case as a crasher expecting that other id.
func TestCodecRuleIDsCatchWrongID(t *testing.T) {
	rules := loadRules(t)
	planted := map[string]bool{}
	for _, f := range loadFiles(t) {
		for i := range f.Cases {
			c := f.Cases[i]
			if c.Kind == KindLifecycle || c.Expect == nil || c.Expect.Verdict != "error" || planted[c.Kind] {
				continue
			}
			planted[c.Kind] = true
			require.NoError(t, checkCodecRule(&c, rules), c.Name)
			wrong := "request.size"
			if strings.HasPrefix(firstValidity(c.Rules, rules), "request.") {
				wrong = "cvi.sdk_name.utf8"
			}
			c.Rules = append([]string{wrong}, c.Rules...)
			assert.Error(t, checkCodecRule(&c, rules), "%s with %s planted first", c.Name, wrong)
			c.Rules, c.Source, c.Expect = nil, "crashers/planted", &Expect{Verdict: "error", Rule: wrong}
			assert.Error(t, checkCodecRule(&c, rules), "%s as a crasher expecting %s", c.Name, wrong)
		}
	}
	assert.Len(t, planted, 13, "every codec kind with error cases")
}
