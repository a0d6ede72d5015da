package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/sucursal/sucursal/internal/pki"
)

const day = 24 * time.Hour

func newPKICommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "pki",
		Short: "Create and inspect the fleet PKI (CA, dc-gateway and edge certificates)",
		Long: `The fleet PKI authenticates both ends of the edge-to-datacenter QUIC link.
Layout of --dir: ca.crt ca.key dc-gateway.crt dc-gateway.key edges/<id>.crt edges/<id>.key.
Keep ca.key on the operator machine only; copy ca.crt plus one edge's pair to that edge.`,
	}
	cmd.AddCommand(newPKIInitCommand(), newPKIAddEdgeCommand(), newPKIShowCommand())
	return cmd
}

// pkiFlags are the flags every pki subcommand shares.
type pkiFlags struct {
	dir          string
	validityDays int
}

func (f *pkiFlags) register(cmd *cobra.Command, validity bool) {
	cmd.Flags().StringVar(&f.dir, "dir", "", "PKI directory (required)")
	if validity {
		cmd.Flags().IntVar(&f.validityDays, "validity-days", int(pki.DefaultValidity/day),
			"lifetime of new dc-gateway and edge certificates, in days (the CA lives 10 years)")
	}
}

func (f *pkiFlags) check() error {
	if f.dir == "" {
		return errors.New("--dir (or FLEETCTL_DIR) is required")
	}
	if f.validityDays < 0 {
		return fmt.Errorf("--validity-days %d is negative", f.validityDays)
	}
	return nil
}

func newPKIInitCommand() *cobra.Command {
	var (
		f      pkiFlags
		edges  []string
		dcSANs []string
		force  bool
	)
	cmd := &cobra.Command{
		Use:   "init --dir DIR [--edge ID]... [--dc-san NAME]... [--force]",
		Short: "Create the CA, the dc-gateway certificate and edge certificates; re-run to enrol more edges",
		Long: `Creates whatever is missing in --dir. An existing CA and existing certificates are kept,
so re-running with new --edge ids enrols new branches under the same CA.
--force replaces the CA and re-issues every certificate it signed: every edge then needs its new files.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.check(); err != nil {
				return err
			}
			res, err := pki.Init(pki.Options{Dir: f.dir, Edges: edges, DCSANs: dcSANs, Force: force,
				Validity: time.Duration(f.validityDays) * day})
			if err != nil {
				return err
			}
			printResult(cmd.OutOrStdout(), cmd.ErrOrStderr(), res)
			return nil
		},
	}
	f.register(cmd, true)
	cmd.Flags().StringSliceVar(&edges, "edge", nil, "edge id to enrol, [a-z0-9][a-z0-9._-]{0,62}; repeat or comma-separate")
	cmd.Flags().StringSliceVar(&dcSANs, "dc-san", nil, "extra DNS name or IP for the dc-gateway certificate (localhost, 127.0.0.1, ::1 are always in)")
	cmd.Flags().BoolVar(&force, "force", false, "replace the CA and re-issue everything it signed")
	return cmd
}

func newPKIAddEdgeCommand() *cobra.Command {
	var f pkiFlags
	cmd := &cobra.Command{
		Use:   "add-edge --dir DIR ID...",
		Short: "Enrol new edges under the existing CA (never creates a CA)",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, ids []string) error {
			if err := f.check(); err != nil {
				return err
			}
			res, err := pki.AddEdges(f.dir, ids, time.Duration(f.validityDays)*day, nil)
			if err != nil {
				return err
			}
			printResult(cmd.OutOrStdout(), cmd.ErrOrStderr(), res)
			return nil
		},
	}
	f.register(cmd, true)
	return cmd
}

func newPKIShowCommand() *cobra.Command {
	var f pkiFlags
	cmd := &cobra.Command{
		Use:   "show --dir DIR",
		Short: "List the certificates in DIR with their expiry dates and any problems",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.check(); err != nil {
				return err
			}
			infos, err := pki.Inspect(f.dir, time.Now())
			if err != nil {
				return err
			}
			w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "PATH\tROLE\tNAME\tEXPIRES\tSTATUS\tSANS")
			for _, in := range infos {
				status := "ok"
				if len(in.Problems) > 0 {
					status = strings.Join(in.Problems, "; ")
				}
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\n", in.Path, in.Role, in.Name,
					in.NotAfter.UTC().Format(time.DateOnly), status, strings.Join(in.SANs, ","))
			}
			return w.Flush()
		},
	}
	f.register(cmd, false)
	return cmd
}

func printResult(out, errOut io.Writer, res pki.Result) {
	for _, p := range res.Created {
		fmt.Fprintf(out, "created  %s\n", p)
	}
	for _, p := range res.Replaced {
		fmt.Fprintf(out, "replaced %s\n", p)
	}
	for _, p := range res.Kept {
		fmt.Fprintf(out, "kept     %s\n", p)
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(errOut, "warning: %s\n", w)
	}
}
