package main

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/sucursal/sucursal/internal/manifest"
)

func newKeysCommand() *cobra.Command {
	cmd := &cobra.Command{Use: "keys", Short: "Manage the ed25519 keys that sign model manifests",
		Example: "  fleetctl keys gen --out signing"}
	cmd.AddCommand(newKeysGenCommand())
	return cmd
}

func newKeysGenCommand() *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:     "gen",
		Short:   "Generate a signing key: OUT.key (keep on the operator machine) and OUT.pub (give to edges)",
		Example: `  fleetctl keys gen --out signing   # writes signing.key and signing.pub`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out == "" {
				return errors.New("--out is required")
			}
			priv, err := manifest.GenerateKey()
			if err != nil {
				return err
			}
			privPEM, err := manifest.MarshalPrivateKey(priv)
			if err != nil {
				return err
			}
			pub := priv.Public().(ed25519.PublicKey)
			pubPEM, err := manifest.MarshalPublicKey(pub)
			if err != nil {
				return err
			}
			// O_EXCL: never overwrite a signing key by accident.
			f, err := os.OpenFile(out+".key", os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
			if err != nil {
				return fmt.Errorf("write key: %w", err)
			}
			if _, err := f.Write(privPEM); err != nil {
				f.Close()
				return err
			}
			if err := f.Close(); err != nil {
				return err
			}
			if err := os.WriteFile(out+".pub", pubPEM, 0o644); err != nil {
				return fmt.Errorf("write public key: %w", err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "key id %s: %s.key, %s.pub\n", manifest.KeyID(pub), out, out)
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "path prefix for the key files (required)")
	return cmd
}
