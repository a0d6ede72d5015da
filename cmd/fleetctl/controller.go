package main

import (
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
}

func (f *controllerFlags) register(cmd *cobra.Command) {
	host, _ := os.Hostname()
	cmd.Flags().StringVar(&f.id, "id", fmt.Sprintf("%s-%d", host, os.Getpid()), "controller id, unique per process")
	cmd.Flags().DurationVar(&f.leaseTTL, "lease-ttl", 15*time.Second, "a standby takes over this long after the leader stops renewing")
}

func (f *controllerFlags) config() fleet.ControllerConfig {
	return fleet.ControllerConfig{ID: f.id, LeaseTTL: f.leaseTTL}
}

func newControllerCommand() *cobra.Command {
	var nf natsFlags
	var cf controllerFlags
	cmd := &cobra.Command{
		Use:   "controller",
		Short: "Run the fleet controller: executes rollouts while it holds the KV lease, stands by otherwise",
		RunE: func(cmd *cobra.Command, _ []string) error {
			js, closeConn, err := nf.connect("controller")
			if err != nil {
				return err
			}
			defer closeConn()
			log := slog.New(slog.NewJSONHandler(os.Stderr, nil))
			c, err := fleet.NewController(js, cf.config(), log)
			if err != nil {
				return err
			}
			_ = sdnotify.Ready() // connected to NATS; the lease decides whether it acts
			return runNotified(cmd.Context(), c.Run)
		},
	}
	nf.register(cmd)
	cf.register(cmd)
	return cmd
}
