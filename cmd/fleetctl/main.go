// Command fleetctl is the fleet operator's tool: it creates the fleet PKI and, through the other
// subcommands in this directory (one file each), publishes models and rolls them out.
//
// Every flag has an environment twin (FLEETCTL_<FLAG>), listed in --help.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/sucursal/sucursal/internal/envflag"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := newRootCommand().ExecuteContext(ctx)
	stop()
	if err != nil {
		os.Exit(1)
	}
}

// newRootCommand builds the command tree. Subcommands are listed here and nowhere else.
func newRootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "fleetctl",
		Short: "Operate a Sucursal fleet: PKI, model publishing and rollouts",
		Example: `  fleetctl pki init --dir pki --edge branch-0001
  fleetctl publish --role drafter --version 1.4.0 --file drafter.gguf --key signing.key
  fleetctl rollout start --role drafter --version 1.4.0 --key signing.key
  fleetctl status`,
		Version:      version,
		SilenceUsage: true, // a failed run prints its error, not a wall of usage text
	}
	root.AddCommand(
		newPKICommand(),
		newHubCommand(), newInitCommand(), newKeysCommand(), newPublishCommand(),
		newRolloutCommand(), newRollbackCommand(), newStatusCommand(), newControllerCommand(),
		newEdgePermissionsCommand(), newSizeCommand(), newEdgeCommand(),
	)
	withVersion(root)
	applyFlagRules(root) // per-run flags lose their twins, required ones are marked (flagrules.go)
	// Last, so every flag above gets its FLEETCTL_* twin.
	envflag.Cobra(root, "FLEETCTL")
	return root
}
