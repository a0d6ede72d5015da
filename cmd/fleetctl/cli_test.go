package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Every command shows an example in --help; per-run and destructive flags have no environment
// twin, and required ones are marked (newRootCommand panics on a rule naming nothing).
func TestCLIHelp(t *testing.T) {
	root := newRootCommand()
	noEnv := map[string]bool{}
	for path, flags := range perRunFlags {
		for _, f := range flags {
			noEnv[path+" --"+f] = true
		}
	}
	for _, f := range []string{"role", "version", "file", "runtime", "tokenizer-fingerprint"} {
		noEnv["fleetctl publish --"+f] = true
	}
	// Marked by their own commands.
	for _, k := range []string{"edge forget --force", "pki add-edge --label", "pki renew --grace", "pki revoke --reason"} {
		noEnv["fleetctl "+k] = true
	}
	required := map[string]bool{}
	for path, flags := range requiredFlags {
		for _, f := range flags {
			required[path+" --"+f] = true
		}
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Example == "" {
			t.Errorf("%q has no Example", c.CommandPath())
		}
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			key := c.CommandPath() + " --" + f.Name
			if got := f.Annotations["envflag/no-env"] != nil; got != noEnv[key] && f.Name != "help" && f.Name != "version" {
				t.Errorf("%s: no environment twin = %v, want %v", key, got, noEnv[key])
			}
			if noEnv[key] && strings.Contains(f.Usage, "[env ") {
				t.Errorf("%s: --help shows a twin it does not have", key)
			}
			if required[key] && f.Annotations[cobra.BashCompOneRequiredFlag] == nil {
				t.Errorf("%s is not marked required", key)
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// A leftover FLEETCTL_FORCE does not replace the CA: pki init without --force keeps it.
func TestForceHasNoTwin(t *testing.T) {
	clearTwins(t)
	dir := t.TempDir()
	if out, err := run(t, "pki", "init", "--dir", dir, "--edge", "a"); err != nil {
		t.Fatalf("pki init: %v\n%s", err, out)
	}
	t.Setenv("FLEETCTL_FORCE", "true")
	out, err := run(t, "pki", "init", "--dir", dir)
	if err != nil {
		t.Fatalf("pki init again: %v\n%s", err, out)
	}
	if strings.Contains(strings.ToLower(out), "replaced") {
		t.Fatalf("FLEETCTL_FORCE replaced the CA:\n%s", out)
	}
}
