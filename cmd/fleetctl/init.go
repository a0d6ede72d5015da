package main

import (
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"

	"github.com/sucursal/sucursal/internal/fleet"
	"github.com/sucursal/sucursal/internal/trust"
)

// natsFlags are the connection flags of every command that talks to the fleet's NATS.
type natsFlags struct {
	url, creds, nkey, ca string
}

func (f *natsFlags) register(cmd *cobra.Command) {
	f.registerWith(cmd, nats.DefaultURL, "NATS URL of the fleet (a cluster, or 'fleetctl hub')")
}

func (f *natsFlags) registerWith(cmd *cobra.Command, def, usage string) {
	cmd.Flags().StringVar(&f.url, "nats", def, usage)
	cmd.Flags().StringVar(&f.creds, "creds", "", "NATS credentials file (JWT + seed)")
	cmd.Flags().StringVar(&f.nkey, "nkey", "", "NATS NKEY seed file (alternative to --creds; fleetctl pki writes nats/operator.nk)")
	cmd.Flags().StringVar(&f.ca, "nats-ca", "", "CA certificate of the NATS server's TLS certificate (a hub started with --pki: that folder's ca.crt)")
}

// connect returns a JetStream client and a function that closes the connection.
func (f *natsFlags) connect(name string) (jetstream.JetStream, func(), error) {
	// Never give up on the cluster (a controller outlives node restarts), and never replay what
	// was written while disconnected: a controller whose lease ran out meanwhile must not have
	// its stale desired-state writes land after a standby's.
	opts := []nats.Option{nats.Name("fleetctl " + name), nats.MaxReconnects(-1), nats.ReconnectBufSize(-1)}
	if f.creds != "" {
		opts = append(opts, nats.UserCredentials(f.creds))
	}
	if f.nkey != "" {
		o, err := nats.NkeyOptionFromSeed(f.nkey)
		if err != nil {
			return nil, nil, fmt.Errorf("nkey: %w", err)
		}
		opts = append(opts, o)
	}
	if f.ca != "" {
		opts = append(opts, nats.RootCAs(f.ca))
	}
	nc, err := nats.Connect(f.url, opts...)
	if err != nil {
		return nil, nil, fmt.Errorf("connect %s: %w", f.url, err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, nil, err
	}
	return js, nc.Close, nil
}

func newInitCommand() *cobra.Command {
	var nf natsFlags
	var cfg fleet.Config
	var trustBucket string
	cmd := &cobra.Command{
		Use:     "init",
		Short:   "Create the fleet's JetStream buckets (idempotent)",
		Example: `  fleetctl init --nats tls://fleet.dc:4222 --nkey operator.nk --nats-ca pki/ca.crt --replicas 3`,
		Long: `Creates, or updates in place: a KV for desired state, a KV for edge status whose
entries expire after --status-ttl, a KV for the manifest catalog, rollouts and the controller lease,
an Object Store for artifacts, and the KV the dc-gateways watch for the trust list. Running it again changes nothing.`,
		RunE: func(cmd *cobra.Command, _ []string) error {
			js, closeConn, err := nf.connect("init")
			if err != nil {
				return err
			}
			defer closeConn()
			if err := fleet.Init(cmd.Context(), js, cfg); err != nil {
				return err
			}
			if _, err := trust.EnsureBucket(cmd.Context(), js, trustBucket, cfg.Replicas); err != nil {
				return err
			}
			c := cfg.WithDefaults()
			fmt.Fprintf(cmd.OutOrStdout(), "buckets ready: %s %s %s %s %s\n", c.Buckets.Desired, c.Buckets.Status, c.Control, c.Buckets.Artifacts, trustBucket)
			return nil
		},
	}
	nf.register(cmd)
	cmd.Flags().DurationVar(&cfg.StatusTTL, "status-ttl", 30*time.Second, "an edge silent for this long counts as offline")
	cmd.Flags().IntVar(&cfg.Replicas, "replicas", 1, "JetStream replicas of each bucket and stream: 1 on a single server, 3 on a cluster (survives one node lost)")
	cmd.Flags().IntVar(&cfg.MaxConsumers, "max-consumers", fleet.DefaultMaxConsumers, "consumer cap of the desired-state and artifact buckets: one watch per edge plus one reader per downloading edge (nats-server's own default, 1000, would stop edge 1001)")
	cmd.Flags().StringVar(&trustBucket, "trust-bucket", trust.DefaultBucket, "KV bucket of the signed enrolment/revocation list")
	return cmd
}
