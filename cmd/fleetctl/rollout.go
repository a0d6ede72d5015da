package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/sucursal/sucursal/internal/fleet"
	"github.com/sucursal/sucursal/internal/manifest"
)

func newRolloutCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "rollout",
		Short: "Start and steer wave rollouts (the fleet controller carries them out)",
	}
	cmd.AddCommand(newRolloutStartCommand(), newRolloutStatusCommand(),
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

func printRollout(w io.Writer, r fleet.Rollout, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	fmt.Fprintf(w, "rollout %s: %s %s, state %s, wave %d/%d (%v), %d edges assigned\n",
		r.Spec.ID, r.Spec.Role, r.Spec.Version, r.State, r.Wave+1, len(r.Spec.Waves), r.Spec.Waves, len(r.Members))
	for _, e := range r.Events {
		fmt.Fprintln(w, "  "+e)
	}
	return nil
}

func newRolloutStatusCommand() *cobra.Command {
	var nf natsFlags
	var role, output string
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show a role's rollout",
		RunE: func(cmd *cobra.Command, _ []string) error {
			js, closeConn, err := nf.connect("rollout")
			if err != nil {
				return err
			}
			defer closeConn()
			r, err := fleet.GetRollout(cmd.Context(), js, fleet.Config{}, role)
			if err != nil {
				return err
			}
			return printRollout(cmd.OutOrStdout(), r, output == "json")
		},
	}
	nf.register(cmd)
	cmd.Flags().StringVar(&role, "role", "", "model role")
	cmd.Flags().StringVarP(&output, "output", "o", "text", "text or json")
	return cmd
}

func newRolloutStateCommand(use, state, short string) *cobra.Command {
	var nf natsFlags
	var role string
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
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
