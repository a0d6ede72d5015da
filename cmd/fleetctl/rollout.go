package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"

	"github.com/sucursal/sucursal/internal/fleet"
	"github.com/sucursal/sucursal/internal/manifest"
)

func newRolloutCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "rollout",
		Short: "Start and steer wave rollouts (the fleet controller carries them out)",
		Example: `  fleetctl rollout start --role drafter --version 1.4.0 --key signing.key --waves 5%,25%,100%
  fleetctl rollout status --role drafter --watch
  fleetctl rollout pause --role drafter`,
	}
	cmd.AddCommand(newRolloutStartCommand(), newRolloutListCommand(), newRolloutStatusCommand(),
		newRolloutStateCommand("pause", fleet.StatePaused, "Stop advancing waves; edges keep what they have"),
		newRolloutStateCommand("resume", fleet.StateRunning, "Continue a paused rollout"),
		newRolloutStateCommand("abort", fleet.StateAborted, "End the rollout where it is (use rollback to undo it)"))
	return cmd
}

func newRolloutStartCommand() *cobra.Command {
	var nf natsFlags
	var role, version, waves, keyFile string
	var selectors, gates []string
	var req fleet.StartRequest
	cmd := &cobra.Command{
		Use:   "start",
		Short: "Write a rollout spec; returns at once, the controller executes it",
		Example: `  fleetctl rollout start --role drafter --version 1.4.0 --key signing.key
  fleetctl rollout start --role guard --version 2.0.0 --key signing.key --selector site=madrid --gate "error_rate<0.02" --soak 30m`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var errs []error
			w, err := fleet.ParseWaves(waves)
			errs = append(errs, err)
			req.Role, req.Version, req.Waves = role, version, w
			req.Selector = map[string]string{}
			for _, s := range selectors {
				k, v, ok := strings.Cut(s, "=")
				if !ok || k == "" || v == "" {
					errs = append(errs, fmt.Errorf("--selector %q: want label=value", s))
				}
				req.Selector[k] = v
			}
			for _, g := range gates {
				p, err := fleet.ParseGate(g)
				errs = append(errs, err)
				req.Gates = append(req.Gates, p)
			}
			if keyFile == "" {
				errs = append(errs, errors.New("--key is required (it signs the rollback directive)"))
			}
			if err := errors.Join(errs...); err != nil {
				return err
			}
			if req.Key, err = manifest.ReadPrivateKeyFile(keyFile); err != nil {
				return err
			}
			js, closeConn, err := nf.connect("rollout")
			if err != nil {
				return err
			}
			defer closeConn()
			r, err := fleet.StartRollout(cmd.Context(), js, fleet.Config{}, req)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "rollout %s written; the controller will carry it out\n", r.Spec.ID)
			return nil
		},
	}
	nf.register(cmd)
	fl := cmd.Flags()
	fl.StringVar(&role, "role", "", "model role")
	fl.StringVar(&version, "version", "", "published version to roll out")
	fl.StringVar(&waves, "waves", "5%,25%,100%", "cumulative share of edges per wave (by hash of edge id)")
	fl.StringArrayVar(&selectors, "selector", nil, "only edges with label=value (repeatable)")
	fl.StringArrayVar(&gates, "gate", nil, "condition each wave must hold, e.g. error_rate<0.02, ttft_p95_ratio<1.3 (repeatable; default install_failures==0)")
	fl.Int64Var(&req.WaveBytesLimit, "wave-bytes-limit", 0, "at most this many artifact bytes downloading at once in a wave (0 = no limit)")
	fl.Uint64Var(&req.MinRequests, "min-requests", 0, "read the gates only once the wave's edges reported this many requests on the new version (0 = read them on whatever was reported)")
	fl.DurationVar(&req.Soak, "soak", 10*time.Minute, "how long a wave runs the new version before its gates are read")
	fl.DurationVar(&req.WaveTimeout, "wave-timeout", time.Hour, "a wave that has not installed (or not seen --min-requests) by then is rolled back")
	fl.StringVar(&keyFile, "key", "", "signing key (signs the directive that allows rolling back)")
	return cmd
}

// printRollout is one rollout in the spirit of `kubectl argo rollouts get rollout`: a header,
// the waves with the current one marked, the members, then the events.
func printRollout(w io.Writer, r fleet.Rollout, asJSON bool) error {
	v := r.View()
	if asJSON {
		return writeDoc(w, "json", v)
	}
	fmt.Fprintf(w, "Rollout:   %s\n", v.ID)
	fmt.Fprintf(w, "Role:      %s → %s", v.Role, v.Version)
	if v.Previous != "" {
		fmt.Fprintf(w, " (back to %s if a gate fails)", v.Previous)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "State:     %s\n", strings.ToUpper(v.State))
	if v.Message != "" {
		fmt.Fprintf(w, "Message:   %s\n", v.Message)
	}
	fmt.Fprintf(w, "Gates:     %s (soak %s, wave timeout %s", strings.Join(v.Gates, ", "), v.Soak, v.WaveTimeout)
	if v.MinRequests > 0 {
		fmt.Fprintf(w, ", min %d requests", v.MinRequests)
	}
	fmt.Fprintln(w, ")")
	if len(v.Selector) > 0 {
		var sel []string
		for _, k := range slices.Sorted(maps.Keys(v.Selector)) {
			sel = append(sel, k+"="+v.Selector[k])
		}
		fmt.Fprintf(w, "Selector:  %s\n", strings.Join(sel, ","))
	}
	fmt.Fprintln(w, "Waves:")
	for i, p := range v.Waves {
		mark := "  "
		switch {
		case i+1 < v.Wave || (i+1 == v.Wave && v.State == fleet.StateSucceeded):
			mark = "✔ "
		case i+1 == v.Wave:
			mark = "▶ "
		}
		fmt.Fprintf(w, "  %s%d  %g%%\n", mark, i+1, p)
	}
	fmt.Fprintf(w, "Members:   %d", len(v.Members))
	if n := len(v.Members); n > 0 {
		const shown = 10 // the whole list is in -o json
		if n > shown {
			fmt.Fprintf(w, " (%s, … %d more)", strings.Join(v.Members[:shown], ", "), n-shown)
		} else {
			fmt.Fprintf(w, " (%s)", strings.Join(v.Members, ", "))
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Updated:   %s ago\n", time.Since(v.Updated).Round(time.Second))
	if len(v.Events) > 0 {
		fmt.Fprintln(w, "Events:")
		for _, e := range v.Events {
			fmt.Fprintln(w, "  "+e)
		}
	}
	return nil
}

func views(rs []fleet.Rollout) []fleet.RolloutView {
	out := make([]fleet.RolloutView, 0, len(rs))
	for _, r := range rs {
		out = append(out, r.View())
	}
	return out
}

// readRollouts returns the role's rollout, or every rollout when role is empty.
func readRollouts(ctx context.Context, js jetstream.JetStream, role string) ([]fleet.Rollout, error) {
	if role == "" {
		return fleet.ListRollouts(ctx, js, fleet.Config{})
	}
	r, err := fleet.GetRollout(ctx, js, fleet.Config{}, role)
	if errors.Is(err, fleet.ErrNoRollout) {
		return nil, fmt.Errorf("no rollout for role %q (fleetctl rollout list shows them all)", role)
	}
	if err != nil {
		return nil, err
	}
	return []fleet.Rollout{r}, nil
}

func newRolloutStatusCommand() *cobra.Command {
	var nf natsFlags
	var wf watchFlags
	var role, output string
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show a role's rollout in detail (every rollout without --role); --watch follows it",
		Example: `  fleetctl rollout status --role drafter --watch
  fleetctl rollout status -o json`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkOutput(output); err != nil {
				return err
			}
			js, closeConn, err := nf.connect("rollout")
			if err != nil {
				return err
			}
			defer closeConn()
			return wf.run(cmd.Context(), cmd.OutOrStdout(), output, func(w io.Writer) error {
				rs, err := readRollouts(cmd.Context(), js, role)
				if err != nil {
					return err
				}
				if output != "text" {
					if role != "" {
						return writeDoc(w, output, rs[0].View())
					}
					return writeDoc(w, output, views(rs))
				}
				if len(rs) == 0 {
					fmt.Fprintln(w, "no rollouts")
				}
				for i, r := range rs {
					if i > 0 {
						fmt.Fprintln(w)
					}
					if err := printRollout(w, r, false); err != nil {
						return err
					}
				}
				return nil
			})
		},
	}
	nf.register(cmd)
	wf.register(cmd)
	cmd.Flags().StringVar(&role, "role", "", "model role (default: every rollout)")
	cmd.Flags().StringVarP(&output, "output", "o", "text", "output format: "+strings.Join(outputFormats, ", "))
	return cmd
}

func newRolloutListCommand() *cobra.Command {
	var nf natsFlags
	var wf watchFlags
	var output string
	cmd := &cobra.Command{
		Use:   "list",
		Short: "One line per role's rollout: version, state, wave, members, last message",
		Example: `  fleetctl rollout list
  fleetctl rollout list -o json`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkOutput(output); err != nil {
				return err
			}
			js, closeConn, err := nf.connect("rollout")
			if err != nil {
				return err
			}
			defer closeConn()
			return wf.run(cmd.Context(), cmd.OutOrStdout(), output, func(w io.Writer) error {
				rs, err := fleet.ListRollouts(cmd.Context(), js, fleet.Config{})
				if err != nil {
					return err
				}
				if output != "text" {
					return writeDoc(w, output, views(rs))
				}
				tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "ROLE\tVERSION\tSTATE\tWAVE\tMEMBERS\tUPDATED\tROLLOUT\tMESSAGE")
				for _, r := range rs {
					v := r.View()
					fmt.Fprintf(tw, "%s\t%s\t%s\t%d/%d\t%d\t%s ago\t%s\t%s\n", v.Role, v.Version, strings.ToUpper(v.State),
						v.Wave, len(v.Waves), len(v.Members), time.Since(v.Updated).Round(time.Second), v.ID, dash(v.Message))
				}
				return tw.Flush()
			})
		},
	}
	nf.register(cmd)
	wf.register(cmd)
	cmd.Flags().StringVarP(&output, "output", "o", "text", "output format: "+strings.Join(outputFormats, ", "))
	return cmd
}

func newRolloutStateCommand(use, state, short string) *cobra.Command {
	var nf natsFlags
	var role string
	cmd := &cobra.Command{
		Use:     use,
		Short:   short,
		Example: "  fleetctl rollout " + use + " --role drafter",
		RunE: func(cmd *cobra.Command, _ []string) error {
			js, closeConn, err := nf.connect("rollout")
			if err != nil {
				return err
			}
			defer closeConn()
			r, err := fleet.SetRolloutState(cmd.Context(), js, fleet.Config{}, role, state)
			if err != nil {
				return err
			}
			return printRollout(cmd.OutOrStdout(), r, false)
		},
	}
	nf.register(cmd)
	cmd.Flags().StringVar(&role, "role", "", "model role")
	return cmd
}
