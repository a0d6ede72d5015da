package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/sucursal/sucursal/internal/envflag"
	"github.com/sucursal/sucursal/internal/fleet"
	"github.com/sucursal/sucursal/internal/fleetapi"
)

func newEdgeCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "edge",
		Short:   "Manage the fleet's record of edges",
		Example: `  fleetctl edge forget branch-0042`,
	}
	cmd.AddCommand(newEdgeForgetCommand())
	return cmd
}

func newEdgeForgetCommand() *cobra.Command {
	var nf natsFlags
	var tf thresholdFlags
	var force bool
	cmd := &cobra.Command{
		Use:   "forget ID",
		Short: "Remove an edge's last-known state, so a decommissioned edge stops showing as OFFLINE",
		Long: `The fleet keeps every edge's last heartbeat after it stops reporting, so that a dead edge shows
as OFFLINE in 'fleetctl status' and the fleet metrics. Forgetting is the only way to remove it.
An edge that is not OFFLINE (see --offline-after) is refused unless --force: it would come back
with its next heartbeat.`,
		Example: "  fleetctl edge forget branch-0042",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := tf.th.Validate(); err != nil {
				return err
			}
			return forgetEdge(cmd.Context(), cmd.OutOrStdout(), nf, tf.th, args[0], force)
		},
	}
	nf.register(cmd)
	tf.register(cmd)
	cmd.Flags().BoolVar(&force, "force", false, "forget an edge that is not OFFLINE")
	envflag.NoEnv(cmd.Flags(), "force")
	return cmd
}

// forgetEdge is `fleetctl edge forget`: refuse to forget an edge that still reports unless forced.
func forgetEdge(ctx context.Context, w io.Writer, nf natsFlags, th fleet.Thresholds, id string, force bool) error {
	if !fleetapi.ValidToken(id) {
		return fmt.Errorf("edge id %q is not a valid token", id)
	}
	js, closeConn, err := nf.connect("edge")
	if err != nil {
		return err
	}
	defer closeConn()
	edges, err := fleet.ReadFleet(ctx, js, fleet.Config{}, th, time.Now())
	if err != nil {
		return err
	}
	for _, e := range edges {
		if e.EdgeID == id && e.State != fleet.EdgeOffline && !force {
			return fmt.Errorf("edge %s is %s (heard %s ago): it would come back with its next heartbeat; stop it first, or pass --force",
				id, e.State, e.Age.Round(time.Second))
		}
	}
	if err := fleet.ForgetEdge(ctx, js, fleet.Config{}, id); err != nil {
		return err
	}
	fmt.Fprintf(w, "edge %s forgotten\n", id)
	return nil
}
