package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"golang.org/x/sync/errgroup"

	"github.com/sucursal/sucursal/internal/buildinfo"
)

// metricsRegistry is the registry of a fleetctl service: the process, Go runtime and
// sucursal_build_info; the controller adds the fleet exporter.
func metricsRegistry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		buildinfo.Collector())
	return reg
}

// withMetrics serves reg on listen (/metrics) while run runs; an empty listen serves nothing.
// The address is bound before run starts, so a taken port fails the start, not a scrape.
func withMetrics(ctx context.Context, listen string, reg *prometheus.Registry, log *slog.Logger, run func(context.Context) error) error {
	if listen == "" {
		return run(ctx)
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return fmt.Errorf("--metrics-listen: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	log.Info("metrics listening", "addr", ln.Addr().String())
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			return fmt.Errorf("metrics: %w", err)
		}
		return nil
	})
	g.Go(func() error {
		defer func() {
			sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			_ = srv.Shutdown(sctx)
		}()
		err := run(gctx)
		if err == nil && gctx.Err() != nil && ctx.Err() == nil {
			err = context.Cause(gctx) // the server failed first
		}
		return err
	})
	return g.Wait()
}
