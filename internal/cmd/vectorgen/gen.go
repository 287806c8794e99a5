package main

import (
	"fmt"
	"slices"
)

// gen collects the cases of one generation run, without ids; render
// numbers them from the registry afterwards.
type gen struct {
	rules   map[string]Rule
	cases   []Case
	servers map[string]ServerConfig
	errs    []error
}

// failf records a problem with a case; generation fails at the end with
// every problem listed.
func (g *gen) failf(format string, args ...any) { g.errs = append(g.errs, fmt.Errorf(format, args...)) }

// add appends c after checking that its name is new and that it names
// known rules.
func (g *gen) add(c Case) *Case {
	if slices.ContainsFunc(g.cases, func(o Case) bool { return o.Name == c.Name }) {
		g.failf("two cases named %q", c.Name)
	}
	for _, r := range c.Rules {
		if _, ok := g.rules[r]; !ok {
			g.failf("%s: unknown rule %q", c.Name, r)
		}
	}
	if _, ok := bodyKinds[c.Kind]; ok && c.Mode == "" {
		c.Mode = ModeStrict
	}
	g.cases = append(g.cases, c)
	return &g.cases[len(g.cases)-1]
}

// ok adds a case whose input decodes to fields.
func (g *gen) ok(kind, name, section, note string, in []byte, fields map[string]any, rules ...string) *Case {
	if len(rules) == 0 {
		g.failf("%s: an ok case names the rule it exercises", name)
	}
	c := Case{Name: name, Kind: kind, Section: section, Rules: rules, Note: note, Expect: &Expect{Verdict: "ok", Fields: fields}}
	c.setInput(in)
	return g.add(c)
}

// bad adds a case whose input breaks rule (and maybe others, listed in
// also): the decoder reports rule's sentinel at field and offset.
func (g *gen) bad(kind, name, note string, in []byte, rule, field string, offset int, also ...string) *Case {
	r, ok := g.rules[rule]
	if !ok || r.Class != ClassValidity {
		g.failf("%s: %q is not a validity rule", name, rule)
	}
	c := Case{Name: name, Kind: kind, Section: r.Section, Rules: append([]string{rule}, also...), Note: note,
		Expect: &Expect{Verdict: "error", Sentinel: r.Sentinel, Field: field, Offset: intp(offset), Rule: rule,
			Convention: conventionOf(r.Sentinel, field)}}
	c.setInput(in)
	return g.add(c)
}

// sdk sets the code an SDK surfaces for the frame of c.
func (c *Case) sdk(code uint32) *Case {
	withSDK(c.Expect, code)
	return c
}

// prefix makes c, an ok case, a prefix decode that uses consumed bytes.
func (c *Case) prefix(consumed int) *Case {
	c.Mode, c.Expect.Consumed = ModePrefix, intp(consumed)
	return c
}

// disc marks c as the case that decides a discrepancy between SDKs.
func (c *Case) disc(id string) *Case { c.Discrepancy = id; return c }

// generate builds every case, in file order within each kind, and checks
// each against the codec or a lifecycle server (verifyCase): a
// disagreement fails generation.
func generate(root string) *gen {
	g := &gen{rules: map[string]Rule{}, servers: lifecycleServers()}
	for _, r := range ruleList() {
		g.rules[r.ID] = r
	}
	for _, cases := range []func(){
		// WIRE.md section 1: the text grammar, the window rules on both sides
		// of 0.x and 1.0.0, and the default window.
		g.versionTextCases, g.windowCases, g.defaultWindowCases,
		// Sections 2 to 4, the bodies: goldens, length boundaries 0, 1 and 255,
		// every rule broken alone, and prefix decodes next to strict ones.
		g.clientInfoCases, g.loginCases, g.patCases, g.loginReplyCases, g.headerCases,
		// The result section of a Register reply and whole login reply frames
		// as an SDK reads them (sections 4, 5 and 8).
		g.resultCases, g.loginFrameCases, g.discrepancyCases,
		g.loginLifecycle, g.tokenLifecycle, g.beforeLoginLifecycle, g.afterLoginLifecycle, g.droppedLifecycle,
		g.sequenceLifecycle,
		// Protocol 0.11.1 (section 10): both login bodies with their bind
		// secret, BIND_SESSION's body, and the lifecycle of a login, a bind on
		// another connection, a wrong secret, a bind after logout and session 0.
		g.loginSecretCases, g.patSecretCases, g.bindCases, g.revisionLifecycle,
	} {
		cases()
	}
	g.crasherCases(root)
	g.addFrames()
	g.describeSteps()
	for i := range g.cases {
		if err := verifyCase(g.servers, &g.cases[i]); err != nil {
			g.failf("%s: %v", g.cases[i].Name, err)
		}
	}
	return g
}
