package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/sucursal/sucursal/internal/fleet"
	"github.com/sucursal/sucursal/internal/sdnotify"
)

// controllerFlags are shared by `controller` and `hub`.
type controllerFlags struct {
	id       string
	leaseTTL time.Duration
	metrics  string         // --metrics-listen (metrics.go)
	states   thresholdFlags // the exporter's edge states
	certDir  string
}

func (f *controllerFlags) register(cmd *cobra.Command) {
	host, _ := os.Hostname()
	cmd.Flags().StringVar(&f.id, "id", fmt.Sprintf("%s-%d", host, os.Getpid()), "controller id, unique per process")
	cmd.Flags().DurationVar(&f.leaseTTL, "lease-ttl", 15*time.Second, "a standby takes over this long after the leader stops renewing")
	cmd.Flags().StringVar(&f.metrics, "metrics-listen", "", "serve /metrics here: the fleet exporter (every edge, rollout and this controller), build info (empty: off)")
	cmd.Flags().StringVar(&f.certDir, "metrics-pki", "", "fleet PKI directory (fleetctl pki init) whose certificates' expiry /metrics reports: CA, gateway, every edge")
	f.states.register(cmd)
}

func (f *controllerFlags) config() fleet.ControllerConfig {
	return fleet.ControllerConfig{ID: f.id, LeaseTTL: f.leaseTTL, States: f.states.th, CertDir: f.certDir}
}

func newControllerCommand() *cobra.Command {
	var nf natsFlags
	var cf controllerFlags
	cmd := &cobra.Command{
		Use:   "controller",
		Short: "Run the fleet controller: executes rollouts while it holds the KV lease, stands by otherwise",
		Example: `  fleetctl controller --nats tls://fleet.dc:4222 --nkey /etc/sucursal/pki/nats/controller.nk --nats-ca /etc/sucursal/pki/ca.crt
  fleetctl controller --nats nats://127.0.0.1:4222 --id controller-b --metrics-listen 127.0.0.1:9465`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			js, closeConn, err := nf.connect("controller")
			if err != nil {
				return err
			}
			defer closeConn()
			if err := cf.states.th.Validate(); err != nil {
				return err
			}
			log := slog.New(slog.NewJSONHandler(os.Stderr, nil))
			cfg, reg := cf.config(), metricsRegistry()
			cfg.Metrics = reg
			c, err := fleet.NewController(js, cfg, log)
			if err != nil {
				return err
			}
			return withMetrics(cmd.Context(), cf.metrics, reg, log, func(ctx context.Context) error {
				_ = sdnotify.Ready() // connected to NATS; the lease decides whether it acts
				return runNotified(ctx, c.Run)
			})
		},
	}
	nf.register(cmd)
	cf.register(cmd)
	return cmd
}
