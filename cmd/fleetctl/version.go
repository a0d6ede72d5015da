package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/sucursal/sucursal/internal/buildinfo"
)

// version is this build's version (cobra's Version, and wherever the binary reports itself).
// `make build` stamps it through internal/buildinfo; see the Makefile's LDFLAGS.
var version = buildinfo.Read().Version

// withVersion adds the `version` subcommand and makes --version print the same lines: version,
// commit, build date and Go version.
func withVersion(root *cobra.Command) {
	text := buildinfo.Read().String(root.Name())
	root.SetVersionTemplate(text) // a template without actions: printed as it is
	root.AddCommand(&cobra.Command{
		Use:     "version",
		Short:   "Print the version, commit, build date and Go version",
		Example: "  fleetctl version\n  fleetctl --version",
		Args:    cobra.NoArgs,
		Run:     func(cmd *cobra.Command, _ []string) { fmt.Fprint(cmd.OutOrStdout(), text) },
	})
}
