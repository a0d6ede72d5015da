package main

import (
	"context"

	"golang.org/x/sync/errgroup"

	"github.com/sucursal/sucursal/internal/sdnotify"
)

// runNotified runs a service under systemd's watchdog: pings while run runs, and says
// "stopping" as soon as the stop signal arrives (the unit is Type=notify with WatchdogSec).
func runNotified(ctx context.Context, run func(context.Context) error) error {
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error { return sdnotify.Watchdog(gctx) })
	g.Go(func() error {
		<-gctx.Done()
		_ = sdnotify.Stopping()
		return nil
	})
	g.Go(func() error {
		err := run(gctx)
		if err == nil {
			err = context.Canceled // end the watchdog and the stop watcher with it
		}
		return err
	})
	if err := g.Wait(); err != nil && ctx.Err() == nil && err != context.Canceled {
		return err
	}
	return nil
}
