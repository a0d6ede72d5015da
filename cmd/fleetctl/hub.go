package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/sucursal/sucursal/internal/fleet"
	"github.com/sucursal/sucursal/internal/pki"
	"github.com/sucursal/sucursal/internal/sdnotify"
	"github.com/sucursal/sucursal/internal/trust"
)

func newHubCommand() *cobra.Command {
	var (
		hc          fleet.HubConfig
		cf          controllerFlags
		statusTTL   time.Duration
		pkiDir      string
		hubSANs     []string
		insecure    bool
		trustBucket string
	)
	cmd := &cobra.Command{
		Use:   "hub --store DIR (--pki DIR | --insecure)",
		Short: "Run an embedded NATS server with JetStream plus the fleet controller (development, small fleets)",
		Example: `  fleetctl hub --store /var/lib/sucursal/hub --pki /etc/sucursal/pki --listen 0.0.0.0:4222
  fleetctl hub --store /tmp/hub --insecure   # development, loopback only`,
		Long: `With --pki DIR every client authenticates with an nkey and talks TLS (the fleet CA signs the hub's
certificate, DIR/nats/hub.crt). Missing credentials are created at start: DIR/nats/controller.nk,
operator.nk (for fleetctl --nkey), gateway.nk (dc-gateway --trust-nats-nkey: may only watch the
trust list) and edges/<id>.nk for each edge (sync.nkey_seed_file: may do exactly what
'fleetctl edge-permissions' prints). Edges the trust list does not enrol get no NATS user, and the
running hub follows the list published to the trust bucket: 'fleetctl pki revoke --nats' drops
the edge's user and connection within seconds (an edge enrolled later needs its seed in DIR).
--insecure serves anonymous clients without TLS, and only on a loopback address (development).`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			log := slog.New(slog.NewJSONHandler(os.Stderr, nil))
			host, _, err := net.SplitHostPort(hc.Listen)
			if err != nil {
				return fmt.Errorf("--listen %q: %w", hc.Listen, err)
			}
			switch {
			case pkiDir != "" && insecure:
				return errors.New("--pki and --insecure: give one")
			case pkiDir == "" && !insecure:
				return errors.New("--pki DIR is required (nkey credentials and TLS from the fleet PKI); for development on loopback only: --insecure")
			case insecure && !fleet.IsLoopback(host):
				return fmt.Errorf("--insecure serves anonymous clients: only on a loopback address, not %q; use --pki DIR", hc.Listen)
			case pkiDir != "":
				if hc.Auth, err = hubAuth(pkiDir, hubSANs, trustBucket, log); err != nil {
					return err
				}
			default:
				log.Warn("hub without authentication or TLS (--insecure): anyone on this machine can write the fleet's buckets")
			}
			if err := cf.states.th.Validate(); err != nil {
				return err
			}
			cfg, reg := cf.config(), metricsRegistry() // metrics.go: --metrics-listen
			cfg.Fleet.StatusTTL = statusTTL
			cfg.Metrics = reg
			if cfg.CertDir == "" {
				cfg.CertDir = pkiDir // the hub's PKI: every certificate's expiry on /metrics
			}
			hc.OnReady = func() { _ = sdnotify.Ready() }
			return withMetrics(cmd.Context(), cf.metrics, reg, log, func(ctx context.Context) error {
				return runNotified(ctx, func(ctx context.Context) error { return fleet.RunHub(ctx, hc, cfg, log) })
			})
		},
	}
	cmd.Flags().StringVar(&hc.StoreDir, "store", "", "JetStream storage directory (required)")
	cmd.Flags().StringVar(&hc.Listen, "listen", "127.0.0.1:4222", "client listen address")
	cmd.Flags().DurationVar(&statusTTL, "status-ttl", 30*time.Second, "heartbeat keys expire after this long (the controller keeps each edge's last one; OFFLINE is --offline-after)")
	cmd.Flags().StringVar(&pkiDir, "pki", "", "fleet PKI directory: nkey credentials and TLS (see above); needs ca.key the first time, to sign the hub's certificate")
	cmd.Flags().StringSliceVar(&hubSANs, "hub-san", nil, "extra DNS name or IP for the hub's certificate (localhost, 127.0.0.1, ::1 are always in)")
	cmd.Flags().BoolVar(&insecure, "insecure", false, "no authentication, no TLS: loopback addresses only (development)")
	cmd.Flags().StringVar(&trustBucket, "trust-bucket", trust.DefaultBucket, "KV bucket of the trust list (what gateway.nk may read)")
	cf.register(cmd)
	return cmd
}

// hubAuth creates what is missing (the hub certificate, nkey seeds for every role and edge) and
// loads the users.
func hubAuth(dir string, sans []string, trustBucket string, log *slog.Logger) (*fleet.HubAuth, error) {
	issued, err := pki.EnsureHubCert(dir, sans, time.Now())
	if err != nil {
		return nil, err
	}
	if issued {
		log.Info("hub certificate issued", "file", pki.HubCertFile)
	}
	edges, err := pki.Edges(dir)
	if err != nil {
		return nil, err
	}
	created, err := fleet.EnsureCredentials(dir, edges)
	if err != nil {
		return nil, err
	}
	if len(created) > 0 {
		log.Info("nats credentials created", "files", created)
	}
	a, err := fleet.LoadHubAuth(dir, fleet.Config{}.WithDefaults().Buckets, trustBucket)
	if err != nil {
		return nil, err
	}
	log.Info("hub credentials loaded", "users", len(a.Users))
	return a, nil
}
