package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/spf13/pflag"

	"github.com/sucursal/sucursal/internal/pki"
	"github.com/sucursal/sucursal/internal/trust"
)

// trustOptions say where the gateway gets the fleet's enrolment and revocation list.
type trustOptions struct {
	file, natsURL, creds, nkey, natsCA, bucket string
}

// register defines the flags with t's current values as defaults (bindFlags runs twice: before
// and after the config file).
func (t *trustOptions) register(f *pflag.FlagSet) {
	if t.bucket == "" {
		t.bucket = trust.DefaultBucket
	}
	f.StringVar(&t.file, "trust-file", t.file, "signed enrolment/revocation list: read at start (a copy of the PKI folder's trust.json, or the cache of an earlier run) and rewritten with every newer list from --trust-nats; setting it or --trust-nats admits only enrolled, unrevoked edges")
	f.StringVar(&t.natsURL, "trust-nats", t.natsURL, "NATS URL of the fleet, to watch the trust list live (e.g. tls://fleet.dc:4222)")
	f.StringVar(&t.creds, "trust-nats-creds", t.creds, "NATS credentials file (JWT + seed) for --trust-nats")
	f.StringVar(&t.nkey, "trust-nats-nkey", t.nkey, "NATS nkey seed file for --trust-nats (fleetctl pki writes nats/gateway.nk)")
	f.StringVar(&t.natsCA, "trust-nats-ca", t.natsCA, "CA certificate that signed the NATS server's certificate (default with tls:// URLs: the fleet CA in --pki)")
	f.StringVar(&t.bucket, "trust-bucket", t.bucket, "KV bucket holding the trust list")
}

func (t trustOptions) enforced() bool { return t.file != "" || t.natsURL != "" }

func (t trustOptions) validate() []error {
	var errs []error
	if t.natsURL == "" && (t.creds != "" || t.nkey != "" || t.natsCA != "") {
		errs = append(errs, errors.New("--trust-nats-creds, --trust-nats-nkey and --trust-nats-ca need --trust-nats"))
	}
	if t.creds != "" && t.nkey != "" {
		errs = append(errs, errors.New("--trust-nats-creds and --trust-nats-nkey: give one"))
	}
	if t.natsURL != "" && t.file == "" {
		errs = append(errs, errors.New("--trust-nats needs --trust-file: the gateway keeps the last list it saw there, to start from when NATS is unreachable"))
	}
	return errs
}

// setup builds the gateway's TLS config and admission. Without --trust-file/--trust-nats every
// certificate of the fleet CA is admitted (as before), but refused handshakes are still counted
// and logged and one connection per edge id is kept. run watches the list until ctx ends.
func (t trustOptions) setup(pkiDir string, reg prometheus.Registerer, log *slog.Logger) (*tls.Config, *trust.Gate, func(context.Context) error, error) {
	noop := func(context.Context) error { return nil }
	if !t.enforced() {
		log.Warn("enrolment and revocation are not enforced: any certificate of the fleet CA is admitted (set --trust-file and --trust-nats)")
		g := trust.NewGate(nil, reg, log)
		conf, err := g.TLS(pkiDir)
		if err != nil {
			return nil, nil, nil, err
		}
		return conf, g, noop, nil
	}
	ca, err := pki.LoadCACert(pkiDir)
	if err != nil {
		return nil, nil, nil, err
	}
	store := trust.NewStore(ca, t.file)
	found, err := store.LoadCache()
	switch {
	case err != nil:
		// Tampered, or signed by a CA this gateway no longer trusts: fail closed, not down.
		log.Error("trust file refused: every edge is refused until a valid list arrives", "file", t.file, "err", err)
	case found:
		l := store.Current()
		log.Info("trust list loaded from file", "file", t.file, "version", l.Version, "enrolled", len(l.Enrolled), "revoked", len(l.Revoked))
	default:
		log.Warn("no trust list yet: every edge is refused until one arrives", "file", t.file, "nats", t.natsURL != "")
	}
	g := trust.NewGate(store, reg, log)
	conf, err := g.TLS(pkiDir)
	if err != nil {
		return nil, nil, nil, err
	}
	if t.natsURL == "" {
		return conf, g, noop, nil
	}
	run := func(ctx context.Context) error {
		nc, err := t.connect(pkiDir)
		if err != nil {
			return err
		}
		defer nc.Close()
		js, err := jetstream.New(nc)
		if err != nil {
			return fmt.Errorf("trust: jetstream: %w", err)
		}
		return trust.Watch(ctx, js, t.bucket, store, log)
	}
	return conf, g, run, nil
}

// connect dials NATS without failing when it is down: the gateway serves on its file meanwhile.
func (t trustOptions) connect(pkiDir string) (*nats.Conn, error) {
	opts := []nats.Option{nats.Name("dc-gateway trust"), nats.RetryOnFailedConnect(true),
		nats.MaxReconnects(-1), nats.ReconnectWait(time.Second), nats.CustomInboxPrefix(trust.GatewayInboxPrefix)}
	if t.creds != "" {
		opts = append(opts, nats.UserCredentials(t.creds))
	}
	if t.nkey != "" {
		o, err := nats.NkeyOptionFromSeed(t.nkey)
		if err != nil {
			return nil, fmt.Errorf("--trust-nats-nkey: %w", err)
		}
		opts = append(opts, o)
	}
	if ca := t.natsCA; ca != "" || hasTLSScheme(t.natsURL) {
		if ca == "" {
			ca = filepath.Join(pkiDir, pki.CACertFile)
		}
		opts = append(opts, nats.RootCAs(ca))
	}
	nc, err := nats.Connect(t.natsURL, opts...)
	if err != nil {
		return nil, fmt.Errorf("--trust-nats %s: %w", t.natsURL, err)
	}
	return nc, nil
}

func hasTLSScheme(url string) bool { return len(url) > 6 && url[:6] == "tls://" }
