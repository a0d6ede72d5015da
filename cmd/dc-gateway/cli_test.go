package main

import (
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Every command shows an example in --help; the experiment-only flag has no environment twin.
func TestCLIHelp(t *testing.T) {
	noEnv := map[string]bool{"draft-pass-cost": true}
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
