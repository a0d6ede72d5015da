package fleet

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/sucursal/sucursal/internal/trust"
)

// HubConfig configures an embedded NATS server with JetStream.
type HubConfig struct {
	StoreDir string // JetStream storage
	Listen   string // host:port for clients; "127.0.0.1:-1" picks a free port
	// MaxPayload bounds a NATS message; the object store's 128 KiB chunks fit the 1 MiB default.
	MaxPayload int32
	// OnReady, if set, is called once JetStream serves and the fleet's buckets exist (the
	// binary tells systemd there).
	OnReady func()
	// Auth, if set, makes every client authenticate with an nkey and use TLS (LoadHubAuth).
	// Without it the hub accepts anonymous clients, and so only listens on a loopback address.
	Auth *HubAuth
}

// ErrInsecureHub means a hub without credentials was asked to listen beyond loopback.
var ErrInsecureHub = errors.New("fleet: a hub without credentials listens on loopback only")

// Hub is an embedded nats-server for development and small fleets.
type Hub struct {
	srv  *server.Server
	opts *server.Options
	auth *HubAuth
}

// IsLoopback reports whether a listen host reaches this machine only ("" and 0.0.0.0 do not).
func IsLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// StartHub starts the server and waits until it accepts clients.
func StartHub(cfg HubConfig) (*Hub, error) {
	if cfg.StoreDir == "" {
		return nil, errors.New("fleet: hub store dir is required")
	}
	host, portStr, err := net.SplitHostPort(cfg.Listen)
	if err != nil {
		return nil, fmt.Errorf("fleet: hub listen %q: %w", cfg.Listen, err)
	}
	port, err := strconv.Atoi(portStr)
	if err != nil {
		return nil, fmt.Errorf("fleet: hub listen port %q: %w", portStr, err)
	}
	if cfg.Auth == nil && !IsLoopback(host) {
		return nil, fmt.Errorf("%w: %q is not a loopback address; start it with credentials and TLS (fleetctl hub --pki DIR)", ErrInsecureHub, cfg.Listen)
	}
	opts := &server.Options{
		Host: host, Port: port, JetStream: true, StoreDir: cfg.StoreDir,
		NoSigs: true, NoLog: true, MaxPayload: cfg.MaxPayload,
	}
	if a := cfg.Auth; a != nil {
		opts.Nkeys = a.Users
		opts.TLS, opts.TLSConfig, opts.TLSTimeout = true, a.TLS, 2
	}
	srv, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("fleet: hub: %w", err)
	}
	srv.Start()
	if !srv.ReadyForConnections(10 * time.Second) {
		srv.Shutdown()
		return nil, errors.New("fleet: hub did not become ready")
	}
	return &Hub{srv: srv, opts: opts, auth: cfg.Auth}, nil
}

// URL is the client URL of the hub.
func (h *Hub) URL() string { return h.srv.ClientURL() }

// Connect opens a client connection to the hub (as the controller, on a hub with credentials).
func (h *Hub) Connect(name string) (*nats.Conn, error) {
	opts := []nats.Option{nats.Name(name), nats.MaxReconnects(-1), nats.ReconnectWait(500 * time.Millisecond)}
	if h.auth != nil {
		o, err := h.auth.clientOptions()
		if err != nil {
			return nil, err
		}
		opts = append(opts, o...)
	}
	nc, err := nats.Connect(h.URL(), opts...)
	if err != nil {
		return nil, fmt.Errorf("fleet: connect hub: %w", err)
	}
	return nc, nil
}

// Shutdown stops the server and waits for it.
func (h *Hub) Shutdown() {
	h.srv.Shutdown()
	h.srv.WaitForShutdown()
}

// RunHub is `fleetctl hub`: the embedded server, the buckets and a controller, until ctx ends.
func RunHub(ctx context.Context, hcfg HubConfig, cfg ControllerConfig, log *slog.Logger) error {
	hub, err := StartHub(hcfg)
	if err != nil {
		return err
	}
	defer hub.Shutdown()
	nc, err := hub.Connect("fleetctl hub")
	if err != nil {
		return err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return fmt.Errorf("fleet: jetstream: %w", err)
	}
	if err := Init(ctx, js, cfg.Fleet); err != nil {
		return err
	}
	if _, err := trust.EnsureBucket(ctx, js, "", cfg.Fleet.Replicas); err != nil {
		return err
	}
	ctl, err := NewController(js, cfg, log)
	if err != nil {
		return err
	}
	if hcfg.Auth != nil {
		stop := hub.FollowTrust(ctx, js, log)
		defer stop()
	}
	if log != nil {
		log.Info("hub ready", "url", hub.URL(), "store", hcfg.StoreDir, "authenticated", hcfg.Auth != nil)
	}
	if hcfg.OnReady != nil {
		hcfg.OnReady()
	}
	return ctl.Run(ctx)
}

// FollowTrust keeps the hub's edge users in step with the trust list published to the trust
// bucket: an edge revoked with 'fleetctl pki revoke --nats' loses its NATS user (and its
// connection) within seconds, without a restart. It returns when stop is called.
func (h *Hub) FollowTrust(ctx context.Context, js jetstream.JetStream, log *slog.Logger) (stop func()) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	store := trust.NewStore(h.auth.ca, "")
	var floor uint64
	if h.auth.list != nil {
		floor = h.auth.list.Version
	}
	store.OnChange(func(l *trust.List) {
		if l.Version <= floor {
			return // not newer than what the hub started with
		}
		if err := h.ReloadUsers(l); err != nil {
			log.Error("hub users not reloaded for the new trust list", "version", l.Version, "err", err)
			return
		}
		log.Info("hub users follow the trust list", "version", l.Version, "enrolled", len(l.Enrolled))
	})
	wctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = trust.Watch(wctx, js, h.auth.trustBucket, store, log)
	}()
	return func() { cancel(); <-done }
}

// ReloadUsers replaces the edge users with those the list enrols; clients whose user is gone
// are disconnected by the server.
func (h *Hub) ReloadUsers(l *trust.List) error {
	if h.auth == nil {
		return errors.New("fleet: hub has no credentials")
	}
	users, err := h.auth.usersFor(l)
	if err != nil {
		return err
	}
	next := h.opts.Clone()
	next.Nkeys = users
	if err := h.srv.ReloadOptions(next); err != nil {
		return fmt.Errorf("fleet: reload hub users: %w", err)
	}
	h.opts = next
	return nil
}
