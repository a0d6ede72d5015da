package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/sucursal/sucursal/internal/envflag"
	"github.com/sucursal/sucursal/internal/fleet"
	"github.com/sucursal/sucursal/internal/pki"
	"github.com/sucursal/sucursal/internal/trust"
)

const day = 24 * time.Hour

func newPKICommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "pki",
		Short: "Create and inspect the fleet PKI (CA, dc-gateway and edge certificates)",
		Example: `  fleetctl pki init --dir pki --edge branch-0001 --dc-san dc-gateway.example.internal
  fleetctl pki show --dir pki`,
		Long: `The fleet PKI authenticates both ends of the edge-to-datacenter QUIC link.
Layout of --dir: ca.crt ca.key dc-gateway.crt dc-gateway.key edges/<id>.crt edges/<id>.key.
Keep ca.key on the operator machine only; copy ca.crt plus one edge's pair to that edge.
DIR/trust.json is the signed enrolment and revocation list dc-gateways enforce (init, add-edge,
renew and revoke keep it up to date; with --nats they publish it to the gateways' bucket).`,
	}
	cmd.AddCommand(newPKIInitCommand(), newPKIAddEdgeCommand(), newPKIShowCommand(),
		newPKIRevokeCommand(), newPKIRenewCommand(), newPKIListCommand(), newPKIPublishCommand())
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
		f       pkiFlags
		edges   []string
		dcSANs  []string
		force   bool
		tf      trustFlags
		hubSANs []string
	)
	cmd := &cobra.Command{
		Use:   "init --dir DIR [--edge ID]... [--dc-san NAME]... [--force] [--nats URL]",
		Short: "Create the CA, the dc-gateway certificate and edge certificates; re-run to enrol more edges",
		Example: `  fleetctl pki init --dir pki --edge branch-0001,branch-0002 --dc-san dc-gateway.example.internal
  fleetctl pki init --dir pki --force   # a new CA: every certificate is re-issued`,
		Long: `Creates whatever is missing in --dir. An existing CA and existing certificates are kept,
so re-running with new --edge ids enrols new branches under the same CA.
--force replaces the CA and re-issues every certificate it signed: every edge then needs its new files.
The --edge ids (with --force: every edge) are enrolled in DIR/trust.json. NATS credentials
(nkey seeds: nats/controller.nk, operator.nk, gateway.nk, edges/<id>.nk) and the hub's TLS
certificate (nats/hub.crt) are created when missing, for 'fleetctl hub --pki DIR'.`,
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
			if err := printCredentials(cmd.OutOrStdout(), f.dir, edges); err != nil {
				return err
			}
			if issued, err := pki.EnsureHubCert(f.dir, hubSANs, time.Now()); err != nil {
				return err
			} else if issued {
				fmt.Fprintf(cmd.OutOrStdout(), "created  %s\n", pki.HubCertFile)
			}
			enrol := edges
			if force {
				if enrol, err = pki.Edges(f.dir); err != nil {
					return err
				}
			}
			// A new CA (--force): the old list can no longer be verified, and nothing it held is valid.
			return editTrustFrom(cmd.Context(), cmd.OutOrStdout(), f.dir, tf, force, func(l *trust.List, now time.Time) (bool, error) {
				changed, err := enrolIDs(l, f.dir, enrol, nil, now)
				return changed || l.Version == 0, err
			})
		},
	}
	f.register(cmd, true)
	cmd.Flags().StringSliceVar(&edges, "edge", nil, "edge id to enrol, [a-z0-9][a-z0-9._-]{0,62}; repeat or comma-separate")
	cmd.Flags().StringSliceVar(&dcSANs, "dc-san", nil, "extra DNS name or IP for the dc-gateway certificate (localhost, 127.0.0.1, ::1 are always in)")
	cmd.Flags().BoolVar(&force, "force", false, "replace the CA and re-issue everything it signed")
	cmd.Flags().StringSliceVar(&hubSANs, "hub-san", nil, "extra DNS name or IP for the NATS hub's certificate, nats/hub.crt (localhost, 127.0.0.1, ::1 are always in)")
	tf.register(cmd)
	return cmd
}

func newPKIAddEdgeCommand() *cobra.Command {
	var (
		f      pkiFlags
		tf     trustFlags
		labels []string
	)
	cmd := &cobra.Command{
		Use:     "add-edge --dir DIR ID... [--label KEY=VALUE]... [--nats URL]",
		Short:   "Enrol new edges under the existing CA (never creates a CA)",
		Example: `  fleetctl pki add-edge --dir pki branch-0003 --label site=madrid-centro`,
		Long: `Issues a certificate for each new ID (an existing one is kept) and enrols it in DIR/trust.json,
the list dc-gateways enforce; with --nats the list is published to them at once. Running it for an
edge whose certificate predates the list enrols that certificate.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, ids []string) error {
			if err := f.check(); err != nil {
				return err
			}
			lm, err := parseLabels(labels)
			if err != nil {
				return err
			}
			res, err := pki.AddEdges(f.dir, ids, time.Duration(f.validityDays)*day, nil)
			if err != nil {
				return err
			}
			printResult(cmd.OutOrStdout(), cmd.ErrOrStderr(), res)
			if err := printCredentials(cmd.OutOrStdout(), f.dir, ids); err != nil {
				return err
			}
			return editTrust(cmd.Context(), cmd.OutOrStdout(), f.dir, tf, func(l *trust.List, now time.Time) (bool, error) {
				return enrolIDs(l, f.dir, ids, lm, now)
			})
		},
	}
	f.register(cmd, true)
	tf.register(cmd)
	cmd.Flags().StringSliceVar(&labels, "label", nil, "site label kept with the enrolment, KEY=VALUE; repeat or comma-separate; per run, no environment twin")
	envflag.NoEnv(cmd.Flags(), "label")
	return cmd
}

func newPKIShowCommand() *cobra.Command {
	var f pkiFlags
	cmd := &cobra.Command{
		Use:     "show --dir DIR",
		Short:   "List the certificates in DIR with their expiry dates and any problems",
		Example: `  fleetctl pki show --dir /etc/sucursal/pki`,
		Args:    cobra.NoArgs,
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

// printCredentials creates the NATS nkey seeds that are missing (the roles', and one per edge) and
// lists them like certificates.
func printCredentials(out io.Writer, dir string, edges []string) error {
	created, err := fleet.EnsureCredentials(dir, edges)
	for _, p := range created {
		fmt.Fprintf(out, "created  %s\n", p)
	}
	return err
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
