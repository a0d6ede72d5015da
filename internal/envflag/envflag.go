// Package envflag gives every command-line flag an environment-variable twin, so that an operator
// can configure a binary from a systemd unit's Environment= lines as easily as from flags.
//
// The precedence is: a flag given on the command line wins over its environment variable, which
// wins over the configuration file (for binaries that have one), which wins over the default.
// This package must never read variables other than the twins of declared flags.
package envflag

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Name returns the environment variable that twins the flag: PREFIX_FLAG_NAME.
func Name(prefix, flag string) string {
	return prefix + "_" + strings.ToUpper(strings.ReplaceAll(flag, "-", "_"))
}

// noEnv marks a flag that has no environment twin (see NoEnv).
const noEnv = "envflag/no-env"

// NoEnv gives the flag no environment twin: a destructive or per-run switch (--force,
// --insecure-no-auth) must be typed each time, never left behind in a unit's Environment= lines.
func NoEnv(fs *pflag.FlagSet, name string) {
	if f := fs.Lookup(name); f != nil {
		if f.Annotations == nil {
			f.Annotations = map[string][]string{}
		}
		f.Annotations[noEnv] = []string{"true"}
	}
}

// Annotate appends "[env PREFIX_NAME]" to the usage of every flag in fs, so --help lists the twin.
func Annotate(fs *pflag.FlagSet, prefix string) {
	fs.VisitAll(func(f *pflag.Flag) {
		if builtin(f) {
			return
		}
		tag := "[env " + Name(prefix, f.Name) + "]"
		if !strings.Contains(f.Usage, tag) {
			f.Usage = strings.TrimSpace(f.Usage + " " + tag)
		}
	})
}

// Apply sets every flag that was not given on the command line from its environment twin, if that
// is set. Every bad value is reported, not just the first.
func Apply(fs *pflag.FlagSet, prefix string) error {
	var errs []error
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Changed || builtin(f) {
			return
		}
		name := Name(prefix, f.Name)
		v, ok := os.LookupEnv(name)
		if !ok {
			return
		}
		if err := fs.Set(f.Name, v); err != nil {
			errs = append(errs, fmt.Errorf("environment variable %s: %w", name, err))
		}
	})
	return errors.Join(errs...)
}

// builtin reports cobra's own --help and --version switches, which have no twin (a stray
// FLEETCTL_VERSION in the environment must not turn a command into a version print). A
// command's own --version (a string, such as a model version) does get one.
func builtin(f *pflag.Flag) bool {
	return f.Name == "help" || (f.Name == "version" && f.Value.Type() == "bool") || f.Annotations[noEnv] != nil
}

// Cobra annotates the flags of root and of every subcommand below it, and installs a persistent
// pre-run hook on root that applies the environment twins before any command runs. Call it once,
// after every subcommand and flag has been added. Subcommands must not set PersistentPreRunE.
func Cobra(root *cobra.Command, prefix string) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		Annotate(c.LocalFlags(), prefix)
		Annotate(c.PersistentFlags(), prefix)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	prev := root.PersistentPreRunE
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		if err := Apply(cmd.Flags(), prefix); err != nil {
			return err
		}
		if prev != nil {
			return prev(cmd, args)
		}
		return nil
	}
}

// Changed reports whether the flag was set on the command line or by its environment twin. Use it
// to decide whether a flag overrides a value from a configuration file.
func Changed(fs *pflag.FlagSet, name string) bool {
	f := fs.Lookup(name)
	return f != nil && f.Changed
}
