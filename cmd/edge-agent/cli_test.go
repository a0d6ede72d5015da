package main

import (
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Every command shows an example in --help, and the flags that must not be left behind in a
// unit's environment (destructive, per-run, or revealing) have no environment twin.
func TestCLIHelp(t *testing.T) {
	noEnv := map[string]bool{"insecure-no-auth": true, "model": true, "max-tokens": true, "no-stream": true,
		"tenant": true, "class": true, "scope": true, "note": true, "show-values": true, "eval": true, "lines": true}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Example == "" {
			t.Errorf("%q has no Example", c.CommandPath())
		}
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if noEnv[f.Name] && f.Annotations["envflag/no-env"] == nil {
				t.Errorf("%s --%s has an environment twin", c.CommandPath(), f.Name)
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd())
}
