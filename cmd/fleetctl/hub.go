package main

import (
	"context"
	"log/slog"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/sucursal/sucursal/internal/fleet"
	"github.com/sucursal/sucursal/internal/sdnotify"
)

func newHubCommand() *cobra.Command {
	var hc fleet.HubConfig
	var cf controllerFlags
	var statusTTL time.Duration
	cmd := &cobra.Command{
		Use:   "hub",
		Short: "Run an embedded NATS server with JetStream plus the fleet controller (development, small fleets)",
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := cf.states.th.Validate(); err != nil {
				return err
			}
			log := slog.New(slog.NewJSONHandler(os.Stderr, nil))
			cfg, reg := cf.config(), metricsRegistry()
			cfg.Fleet.StatusTTL = statusTTL
			cfg.Metrics = reg
			hc.OnReady = func() { _ = sdnotify.Ready() }
			return withMetrics(cmd.Context(), cf.metrics, reg, log, func(ctx context.Context) error {
				return runNotified(ctx, func(ctx context.Context) error { return fleet.RunHub(ctx, hc, cfg, log) })
			})
		},
	}
	cmd.Flags().StringVar(&hc.StoreDir, "store", "", "JetStream storage directory (required)")
	cmd.Flags().StringVar(&hc.Listen, "listen", "127.0.0.1:4222", "client listen address")
	cmd.Flags().DurationVar(&statusTTL, "status-ttl", 30*time.Second, "an edge silent for this long counts as offline")
	cf.register(cmd)
	return cmd
}
