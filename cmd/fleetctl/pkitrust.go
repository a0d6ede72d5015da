package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/sucursal/sucursal/internal/envflag"
	"github.com/sucursal/sucursal/internal/fleet"
	"github.com/sucursal/sucursal/internal/pki"
	"github.com/sucursal/sucursal/internal/trust"
)

// trustFlags publish the signed enrolment/revocation list after a pki command changed it.
type trustFlags struct {
	nf     natsFlags
	bucket string
}

func (f *trustFlags) register(cmd *cobra.Command) {
	f.nf.registerWith(cmd, "", "NATS URL of the fleet to publish the trust list to (empty: only write DIR/trust.json; publish later with 'fleetctl pki publish')")
	cmd.Flags().StringVar(&f.bucket, "trust-bucket", trust.DefaultBucket, "KV bucket the gateways watch")
}

// editTrust loads DIR/trust.json, lets edit change it, then seals, writes and (with --nats)
// publishes it. edit returning false means nothing changed.
func editTrust(ctx context.Context, out io.Writer, dir string, tf trustFlags, edit func(l *trust.List, now time.Time) (bool, error)) error {
	return editTrustFrom(ctx, out, dir, tf, false, edit)
}

// editTrustFrom with reset starts from an empty list (a new CA cannot verify the old one) whose
// version still continues the old one's, so gateways holding it take the new list.
func editTrustFrom(ctx context.Context, out io.Writer, dir string, tf trustFlags, reset bool, edit func(l *trust.List, now time.Time) (bool, error)) error {
	ca, err := pki.LoadCA(dir)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, trust.FileName)
	var l *trust.List
	if reset {
		l = &trust.List{}
		if data, err := os.ReadFile(path); err == nil {
			l.Version = trust.PeekVersion(data)
		}
	} else if l, err = trust.ReadFile(path, ca.Cert); err != nil {
		return err
	}
	now := time.Now()
	changed, err := edit(l, now)
	if err != nil {
		return err
	}
	if !changed && tf.nf.url == "" {
		return nil
	}
	var data []byte
	if changed {
		l.Prune(now)
		if data, err = l.Seal(ca, now); err != nil {
			return err
		}
		if err := trust.WriteFile(path, data); err != nil {
			return err
		}
		fmt.Fprintf(out, "trust list version %d written to %s (%d enrolled, %d revoked)\n", l.Version, path, len(l.Enrolled), len(l.Revoked))
	}
	return publishTrust(ctx, out, path, data, tf)
}

func publishTrust(ctx context.Context, out io.Writer, path string, data []byte, tf trustFlags) error {
	if tf.nf.url == "" {
		fmt.Fprintf(out, "not published (no --nats): gateways enforce it once it is published with 'fleetctl pki publish', or copied to their --trust-file\n")
		return nil
	}
	if data == nil {
		var err error
		if data, err = os.ReadFile(path); err != nil {
			return err
		}
	}
	js, closeConn, err := tf.nf.connect("pki")
	if err != nil {
		return err
	}
	defer closeConn()
	if err := trust.Publish(ctx, js, tf.bucket, data); err != nil {
		return err
	}
	fmt.Fprintf(out, "published to bucket %s on %s\n", tf.bucket, tf.nf.url)
	return nil
}

// enrolIDs enrols the edges of dir/edges/<id>.crt (or updates their entries); it reports a change.
func enrolIDs(l *trust.List, dir string, ids []string, labels map[string]string, now time.Time) (bool, error) {
	before := fmt.Sprint(l.Enrolled)
	for _, id := range ids {
		cert, err := pki.ReadEdgeCert(dir, id)
		if err != nil {
			return false, err
		}
		if err := l.Enrol(cert, labels, now); err != nil {
			return false, err
		}
	}
	return fmt.Sprint(l.Enrolled) != before, nil
}

func parseLabels(values []string) (map[string]string, error) {
	if len(values) == 0 {
		return nil, nil
	}
	m := map[string]string{}
	for _, v := range values {
		k, val, ok := strings.Cut(v, "=")
		if !ok || k == "" || val == "" {
			return nil, fmt.Errorf("--label %q: want key=value", v)
		}
		m[k] = val
	}
	return m, nil
}

func newPKIRevokeCommand() *cobra.Command {
	var (
		f      pkiFlags
		tf     trustFlags
		reason string
	)
	cmd := &cobra.Command{
		Use:     "revoke --dir DIR ID... [--reason TEXT] [--nats URL]",
		Short:   "Revoke edges: gateways refuse their certificates at the handshake and close their live connections",
		Example: `  fleetctl pki revoke --dir pki branch-0042 --reason "NUC stolen" --nats tls://fleet.dc:4222`,
		Long: `Revokes every certificate the trust list knows for each ID (the enrolled one and any a renewal
superseded) and drops the enrolment. With --nats the list is published at once: gateways watching
the bucket refuse the edge within a second or two and close its live connection. To bring a
branch back (a replacement NUC), issue a new certificate: fleetctl pki renew ID.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, ids []string) error {
			if err := f.check(); err != nil {
				return err
			}
			return editTrust(cmd.Context(), cmd.OutOrStdout(), f.dir, tf, func(l *trust.List, now time.Time) (bool, error) {
				for _, id := range ids {
					revs, err := l.Revoke(id, reason, now)
					if err != nil {
						return false, err
					}
					for _, r := range revs {
						fmt.Fprintf(cmd.OutOrStdout(), "revoked  %s serial %s (%s)\n", r.EdgeID, r.Serial, r.Reason)
					}
				}
				return true, nil
			})
		},
	}
	f.register(cmd, false)
	tf.register(cmd)
	cmd.Flags().StringVar(&reason, "reason", "unspecified", "why (kept in the list and shown by 'pki list'), e.g. stolen, decommissioned; per run, no environment twin")
	envflag.NoEnv(cmd.Flags(), "reason")
	return cmd
}

func newPKIRenewCommand() *cobra.Command {
	var (
		f     pkiFlags
		tf    trustFlags
		grace time.Duration
	)
	cmd := &cobra.Command{
		Use:     "renew --dir DIR ID... [--grace 168h] [--nats URL]",
		Short:   "Issue a new key and certificate for an edge under the same CA (no fleet re-key); the old one is superseded",
		Example: `  fleetctl pki renew --dir pki branch-0042 --grace 168h --nats tls://fleet.dc:4222`,
		Long: `Writes new edges/ID.crt and edges/ID.key and enrols the new certificate. The certificate it
replaces stays accepted for --grace (0: refused at once), so the edge keeps its link while the new
files are copied to it. A revoked edge gets a fresh certificate this way (its old ones stay
revoked), and a fresh NATS seed edges/ID.nk (the old one may be on the stolen NUC).`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, ids []string) error {
			if err := f.check(); err != nil {
				return err
			}
			if grace < 0 {
				return fmt.Errorf("--grace %s is negative", grace)
			}
			return editTrust(cmd.Context(), cmd.OutOrStdout(), f.dir, tf, func(l *trust.List, now time.Time) (bool, error) {
				for _, id := range ids {
					_, renewed, err := pki.RenewEdge(f.dir, id, time.Duration(f.validityDays)*day, nil)
					if err != nil {
						return false, err
					}
					if l.Find(id) == nil {
						// Not enrolled (revoked, or never): a replacement NUC. The old NATS seed may
						// be on the stolen one, so it is replaced too.
						if err := fleet.RotateEdgeSeed(f.dir, id); err != nil {
							return false, err
						}
						fmt.Fprintf(cmd.OutOrStdout(), "created  edges/%s.nk (a new NATS seed: the old one is no longer accepted)\n", id)
						err = l.Enrol(renewed, nil, now)
					} else {
						err = l.Renew(renewed, grace, now)
					}
					if err != nil {
						return false, err
					}
					fmt.Fprintf(cmd.OutOrStdout(), "renewed  %s serial %s, expires %s; copy %s and %s to the edge\n", id, trust.Serial(renewed),
						renewed.NotAfter.UTC().Format(time.DateOnly), pki.EdgeCertPath(f.dir, id), pki.EdgeKeyPath(f.dir, id))
				}
				return true, nil
			})
		},
	}
	f.register(cmd, true)
	tf.register(cmd)
	cmd.Flags().DurationVar(&grace, "grace", trust.DefaultRenewGrace, "how long the replaced certificate stays accepted; per run, no environment twin")
	envflag.NoEnv(cmd.Flags(), "grace")
	return cmd
}

func newPKIListCommand() *cobra.Command {
	var (
		f      pkiFlags
		within time.Duration
	)
	cmd := &cobra.Command{
		Use:     "list --dir DIR",
		Short:   "Show the trust list: enrolled edges (with expiry), revoked certificates, and what expires soon",
		Example: `  fleetctl pki list --dir pki --expiring-within 720h`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.check(); err != nil {
				return err
			}
			ca, err := pki.LoadCACert(f.dir)
			if err != nil {
				return err
			}
			l, err := trust.ReadFile(filepath.Join(f.dir, trust.FileName), ca)
			if err != nil {
				return err
			}
			now := time.Now()
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "trust list version %d, issued %s\n", l.Version, fmtTime(l.Issued))
			w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "EDGE\tSTATE\tSERIAL\tEXPIRES\tLABELS\tNOTE")
			for _, e := range l.Enrolled {
				state, note := "enrolled", ""
				switch {
				case now.After(e.NotAfter):
					state, note = "expired", "renew: fleetctl pki renew "+e.EdgeID
				case now.Add(within).After(e.NotAfter):
					state, note = "expiring", fmt.Sprintf("in %d days; fleetctl pki renew %s", int(e.NotAfter.Sub(now)/day), e.EdgeID)
				}
				for _, s := range e.Superseded {
					if now.Before(s.Until) {
						note = strings.TrimSpace(note + " superseded " + s.Serial + " accepted until " + fmtTime(s.Until))
					}
				}
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\n", e.EdgeID, state, e.Serial, e.NotAfter.Format(time.DateOnly), fmtLabels(e.Labels), note)
			}
			for _, r := range l.Revoked {
				fmt.Fprintf(w, "%s\trevoked\t%s\t%s\t\t%s on %s\n", r.EdgeID, r.Serial, r.NotAfter.Format(time.DateOnly), r.Reason, fmtTime(r.At))
			}
			if err := w.Flush(); err != nil {
				return err
			}
			// Certificates on disk the list does not hold: made before enrolment existed, or never enrolled.
			ids, err := pki.Edges(f.dir)
			if err != nil {
				return err
			}
			for _, id := range ids {
				if l.Find(id) != nil {
					continue
				}
				cert, err := pki.ReadEdgeCert(f.dir, id)
				if err == nil && pki.ReasonOf(l.Check(id, cert, now)) == pki.ReasonRevoked {
					fmt.Fprintf(out, "note: edges/%s.crt is revoked; to bring the branch back with a new certificate: fleetctl pki renew --dir %s %s\n", id, f.dir, id)
					continue
				}
				fmt.Fprintf(out, "note: edges/%s.crt is not enrolled (gateways enforcing the list refuse it): fleetctl pki add-edge --dir %s %s\n", id, f.dir, id)
			}
			return nil
		},
	}
	f.register(cmd, false)
	cmd.Flags().DurationVar(&within, "expiring-within", 30*day, "flag certificates that expire within this long")
	return cmd
}

func newPKIPublishCommand() *cobra.Command {
	var (
		f  pkiFlags
		tf trustFlags
	)
	cmd := &cobra.Command{
		Use:     "publish --dir DIR --nats URL",
		Short:   "Publish DIR/trust.json to the bucket the gateways watch (after editing offline)",
		Example: `  fleetctl pki publish --dir pki --nats tls://fleet.dc:4222`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.check(); err != nil {
				return err
			}
			if tf.nf.url == "" {
				return fmt.Errorf("--nats (or FLEETCTL_NATS) is required")
			}
			ca, err := pki.LoadCACert(f.dir)
			if err != nil {
				return err
			}
			path := filepath.Join(f.dir, trust.FileName)
			if _, err := trust.ReadFile(path, ca); err != nil { // never publish what a gateway would refuse
				return err
			}
			return publishTrust(cmd.Context(), cmd.OutOrStdout(), path, nil, tf)
		},
	}
	f.register(cmd, false)
	tf.register(cmd)
	return cmd
}

func fmtTime(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format(time.RFC3339)
}

func fmtLabels(m map[string]string) string {
	var parts []string
	for k, v := range m {
		parts = append(parts, k+"="+v)
	}
	slices.Sort(parts)
	return strings.Join(parts, ",")
}
