package main

import (
	"github.com/spf13/cobra"

	"github.com/sucursal/sucursal/internal/fleet"
	"github.com/sucursal/sucursal/internal/manifest"
)

func newRollbackCommand() *cobra.Command {
	var nf natsFlags
	var role, keyFile string
	cmd := &cobra.Command{
		Use:     "rollback",
		Short:   "Send every edge of a role back to the version before its last rollout (signed directive)",
		Example: `  fleetctl rollback --role drafter --key signing.key`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			key, err := manifest.ReadPrivateKeyFile(keyFile)
			if err != nil {
				return err
			}
			js, closeConn, err := nf.connect("rollback")
			if err != nil {
				return err
			}
			defer closeConn()
			r, err := fleet.Rollback(cmd.Context(), js, fleet.Config{}, role, key)
			if err != nil {
				return err
			}
			return printRollout(cmd.OutOrStdout(), r, false)
		},
	}
	nf.register(cmd)
	cmd.Flags().StringVar(&role, "role", "", "model role")
	cmd.Flags().StringVar(&keyFile, "key", "", "signing key (signs the rollback directive)")
	return cmd
}
