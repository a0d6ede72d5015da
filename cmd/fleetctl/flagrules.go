package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sucursal/sucursal/internal/envflag"
)

// perRunFlags have no FLEETCTL_* twin: they are destructive, or say what this one run acts on, so
// a value left in a shell or a unit's environment must not act again (FLEETCTL_FORCE would replace
// the CA; FLEETCTL_ROLE, shared by every command with a --role, would silently narrow a status or
// steer the wrong rollout). Keyed by command path; publish marks its own.
var perRunFlags = map[string][]string{
	"fleetctl pki init":         {"force"},
	"fleetctl hub":              {"insecure"},
	"fleetctl keys gen":         {"out"},
	"fleetctl edge-permissions": {"edge"},
	"fleetctl rollout start":    {"role", "version", "selector"},
	"fleetctl rollout status":   {"role"},
	"fleetctl rollout pause":    {"role"},
	"fleetctl rollout resume":   {"role"},
	"fleetctl rollout abort":    {"role"},
	"fleetctl rollback":         {"role"},
	"fleetctl status":           {"role", "label", "state"},
}

// requiredFlags must be given (on the command line or, where they have one, by their twin: cobra
// checks after the twins are applied). Flags whose absence their command explains better (pki's
// --dir, size's --assumptions, hub's --pki) are checked by the command.
var requiredFlags = map[string][]string{
	"fleetctl hub":              {"store"},
	"fleetctl keys gen":         {"out"},
	"fleetctl edge-permissions": {"edge"},
	"fleetctl rollout start":    {"role", "version"},
	"fleetctl rollout pause":    {"role"},
	"fleetctl rollout resume":   {"role"},
	"fleetctl rollout abort":    {"role"},
	"fleetctl rollback":         {"role", "key"},
}

// applyFlagRules marks perRunFlags and requiredFlags on root's tree; call it before envflag.Cobra.
// A rule naming a command or flag that does not exist is a bug: it panics, and TestCLIHelp runs it.
func applyFlagRules(root *cobra.Command) {
	cmds := map[string]*cobra.Command{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		cmds[c.CommandPath()] = c
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	apply := func(rules map[string][]string, what string, mark func(c *cobra.Command, flag string)) {
		for path, flags := range rules {
			c := cmds[path]
			if c == nil {
				panic(fmt.Sprintf("fleetctl: %s flag rule for unknown command %q", what, path))
			}
			for _, name := range flags {
				if c.Flags().Lookup(name) == nil {
					panic(fmt.Sprintf("fleetctl: %s flag rule for unknown flag %s --%s", what, path, name))
				}
				mark(c, name)
			}
		}
	}
	apply(perRunFlags, "per-run", func(c *cobra.Command, name string) {
		envflag.NoEnv(c.Flags(), name)
		if f := c.Flags().Lookup(name); !strings.Contains(f.Usage, "no environment twin") {
			f.Usage += " (per run: no environment twin)"
		}
	})
	apply(requiredFlags, "required", func(c *cobra.Command, name string) { _ = c.MarkFlagRequired(name) })
}
