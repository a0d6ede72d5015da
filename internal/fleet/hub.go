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
}

// Hub is an embedded nats-server for development and small fleets.
type Hub struct {
	srv *server.Server
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
	opts := &server.Options{
		Host: host, Port: port, JetStream: true, StoreDir: cfg.StoreDir,
		NoSigs: true, NoLog: true, MaxPayload: cfg.MaxPayload,
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
	return &Hub{srv: srv}, nil
}

// URL is the client URL of the hub.
func (h *Hub) URL() string { return h.srv.ClientURL() }

// Connect opens a client connection to the hub.
func (h *Hub) Connect(name string) (*nats.Conn, error) {
	nc, err := nats.Connect(h.URL(), nats.Name(name), nats.MaxReconnects(-1), nats.ReconnectWait(500*time.Millisecond))
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
	ctl, err := NewController(js, cfg, log)
	if err != nil {
		return err
	}
	if log != nil {
		log.Info("hub ready", "url", hub.URL(), "store", hcfg.StoreDir)
	}
	if hcfg.OnReady != nil {
		hcfg.OnReady()
	}
	return ctl.Run(ctx)
}
