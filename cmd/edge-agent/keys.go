package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/sucursal/sucursal/internal/apikey"
	"github.com/sucursal/sucursal/internal/envflag"
)

// defaultKeysFile is where the packaged configuration points auth.keys_file.
const defaultKeysFile = "/etc/sucursal/api-keys.yaml"

// newKeysCmd is `edge-agent keys`: the branch endpoint's API keys, one per app or user. The
// running agent re-reads the file within two seconds of a change; no restart.
func newKeysCmd() *cobra.Command {
	var file string
	cmd := &cobra.Command{
		Use:   "keys",
		Short: "Add, list and revoke the API keys branch apps use to call this endpoint",
		Long: `The key file holds one entry per app or user: an id, a tenant (a short name used in metrics
and admission limits), a priority class, scopes and the argon2id hash of the key. The key itself is
printed once by 'keys add' and stored nowhere. The running agent picks changes up within two seconds.`,
		Example: `  edge-agent keys add --tenant ventanilla
  edge-agent keys add --tenant informes --class batch
  edge-agent keys add --tenant monitor --scope metrics
  edge-agent keys list
  edge-agent keys revoke 3f9c2a7d1e0b4c5a6d7e8f90`,
	}
	cmd.PersistentFlags().StringVar(&file, "keys-file", defaultKeysFile, "the key file (auth.keys_file; the same variable as serve's --keys-file)")
	cmd.AddCommand(newKeysAddCmd(&file), newKeysListCmd(&file), newKeysRevokeCmd(&file))
	return cmd
}

func newKeysAddCmd(file *string) *cobra.Command {
	var tenant, class, note string
	var scopes []string
	cmd := &cobra.Command{
		Use:   "add",
		Short: "Create a key and print it once",
		Example: `  edge-agent keys add --tenant ventanilla --note "counter app, PC 3"
  EDGE_KEY=$(edge-agent keys add --tenant informes --class batch)`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f, err := apikey.ReadFile(*file)
			if err != nil {
				return err
			}
			k, token, err := apikey.Generate(tenant, class, scopes, note, time.Now())
			if err != nil {
				return err
			}
			f.Keys = append(f.Keys, k)
			if err := apikey.WriteFile(*file, f); err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), token)
			fmt.Fprintf(cmd.ErrOrStderr(), "key %s added for tenant %s (class %s); the key above is shown only now\n", k.ID, k.Tenant, k.Class)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&tenant, "tenant", "", "who uses the key: 1–32 of a-z 0-9 _ - (a metric label; required)")
	f.StringVar(&class, "class", apikey.ClassInteractive, "priority class: interactive or batch")
	f.StringSliceVar(&scopes, "scope", nil, "scopes: chat (default), metrics (read /metrics and /readyz details)")
	f.StringVar(&note, "note", "", "a note for the list (no personal data)")
	_ = cmd.MarkFlagRequired("tenant")
	// What one key is made of is per run: a TENANT left in the environment would give every
	// later key the same tenant.
	for _, name := range []string{"tenant", "class", "scope", "note"} {
		envflag.NoEnv(f, name)
	}
	return cmd
}

func newKeysListCmd(file *string) *cobra.Command {
	return &cobra.Command{
		Use:     "list",
		Short:   "List the keys (ids, tenants, classes, scopes; never the keys)",
		Example: `  edge-agent keys list --keys-file /etc/sucursal/api-keys.yaml`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f, err := apikey.ReadFile(*file)
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 2, 8, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tTENANT\tCLASS\tSCOPES\tCREATED\tSTATE\tNOTE")
			for _, k := range f.Keys {
				state := "active"
				if !k.Revoked.IsZero() {
					state = "revoked " + k.Revoked.Format(time.DateOnly)
				}
				sc := strings.Join(k.Scopes, ",")
				if sc == "" {
					sc = apikey.ScopeChat
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", k.ID, k.Tenant, k.Class, sc, k.Created.Format(time.DateOnly), state, k.Note)
			}
			return tw.Flush()
		},
	}
}

func newKeysRevokeCmd(file *string) *cobra.Command {
	return &cobra.Command{
		Use:     "revoke ID",
		Short:   "Revoke a key: requests with it get 403 within two seconds",
		Example: `  edge-agent keys revoke 3f9c2a7d1e0b4c5a6d7e8f90`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := apikey.ReadFile(*file)
			if err != nil {
				return err
			}
			i := slices.IndexFunc(f.Keys, func(k apikey.Key) bool { return k.ID == args[0] })
			if i < 0 {
				return errors.New("no key with id " + args[0] + " (edge-agent keys list shows the ids)")
			}
			if !f.Keys[i].Revoked.IsZero() {
				fmt.Fprintf(cmd.ErrOrStderr(), "key %s was already revoked\n", args[0])
				return nil
			}
			f.Keys[i].Revoked = time.Now().UTC().Truncate(time.Second)
			if err := apikey.WriteFile(*file, f); err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "key %s (tenant %s) revoked\n", args[0], f.Keys[i].Tenant)
			return nil
		},
	}
}
