package agent

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	gosync "sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"golang.org/x/net/netutil"
	"golang.org/x/sync/errgroup"

	"github.com/sucursal/sucursal/internal/admission"
	"github.com/sucursal/sucursal/internal/api"
	"github.com/sucursal/sucursal/internal/apikey"
	"github.com/sucursal/sucursal/internal/dc"
	"github.com/sucursal/sucursal/internal/failover"
	"github.com/sucursal/sucursal/internal/link"
	"github.com/sucursal/sucursal/internal/pki"
	"github.com/sucursal/sucursal/internal/sdnotify"
	"github.com/sucursal/sucursal/internal/sync"
	"github.com/sucursal/sucursal/internal/tracecontext"
)

// Agent is a configured edge-agent.
type Agent struct {
	cfg    Config
	log    *slog.Logger
	reg    *prometheus.Registry
	links  []*link.Client // one per DC endpoint: the primary first, then the secondaries
	router *failover.Router
	api    *api.Server
	keys   *apikey.Store // nil without auth.keys_file
	// admission decides what enters; its held request bytes tell the memory janitor when a burst
	// of large requests is over.
	admission *admission.Controller
	sync      *sync.Agent // nil when model sync is off
	// Reload swaps path's policy, rebuilt from parts (the path's other parts) and dcs[0] (the
	// guard's DC fallback); level is the logger's level (SetLevel; nil: log_level not reloaded).
	path     *swapPath
	parts    pathParts
	dcs      []*dc.Client
	level    *slog.LevelVar
	reloadMu gosync.Mutex

	ln, metricsLn net.Listener
}

// New builds the agent: it loads the edge certificate and wires the request path, but does not
// listen. The path itself is composed in one place, requestPath.
func New(cfg Config, log *slog.Logger) (*Agent, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("invalid configuration:\n%w", err)
	}
	// A line logged with a request's context (WarnContext) carries its request_id and trace_id.
	log = slog.New(tracecontext.LogHandler(log.Handler()))
	tlsConf, err := pki.ClientTLS(cfg.PKI, cfg.EdgeID)
	if err != nil {
		return nil, err
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		pki.ExpiryCollector(cfg.PKI)) // the edge's own certificate and the CA's: RB-12

	// The redaction policy and the guard are behind one pointer, so SIGHUP can swap them (Reload);
	// the DC clients' exit check goes through it too.
	sw := &swapPath{}
	links, dcs, err := endpoints(cfg, tlsConf, sw, reg, log)
	if err != nil {
		return nil, err
	}
	pol, g, err := buildPolicy(cfg, dcs[0], reg, log)
	if err != nil {
		return nil, err
	}
	// The local fallback model: the configured one, replaced by whatever fleet sync installs for
	// failover.local.role.
	var localRef atomic.Pointer[string]
	localRef.Store(&cfg.Failover.Local.Model)
	// Health reports what users saw (per role, since its last switch) for the fleet's rollout
	// gates; the path's outermost stage feeds it.
	hl := newHealth(reg)
	parts := pathParts{cfg: cfg, health: hl, guard: g, redactor: pol.redactor, dcs: dcs,
		localModel: func() string { return *localRef.Load() }, reg: reg, log: log}
	var rt *failover.Router
	pol.handler, rt = requestPath(parts)
	sw.p.Store(pol)
	path := sw

	var metricsHandler http.Handler = promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg})
	a := &Agent{cfg: cfg, log: log, reg: reg, links: links, router: rt, dcs: dcs, parts: parts, path: sw}
	if cfg.SyncEnabled() {
		a.sync, err = sync.NewAgent(cfg.syncConfig(), sync.AgentDeps{Registerer: reg, Logger: log, Health: hl,
			OnSwitch: func(m sync.Model) {
				hl.switched(m.Role)
				if role := cfg.Failover.Local.Role; role != "" && m.Role == role && m.Runtime == "ollama" {
					ref := m.Ref
					localRef.Store(&ref)
					// Failures while no model was installed must not keep the new one out.
					if b := rt.Breaker(localBackend); b != nil {
						b.Success()
					}
					log.Info("local fallback model switched", "role", m.Role, "version", m.Version)
				}
			}})
		if err != nil {
			return nil, fmt.Errorf("model sync: %w", err)
		}
	}
	apiMetrics := metricsHandler
	if cfg.MetricsListen != "" {
		apiMetrics = nil
	}
	if cfg.Auth.KeysFile != "" {
		if a.keys, err = apikey.Open(cfg.Auth.KeysFile); err != nil {
			return nil, fmt.Errorf("auth: %w", err)
		}
	}
	a.admission = admission.New(cfg.Admission, reg)
	apiCfg := cfg.Config
	apiCfg.Decode = cfg.Egress
	a.api = api.New(apiCfg, api.Deps{Chat: path, Models: dcs[0], Ready: anyReady(rt), Metrics: apiMetrics,
		Keys: a.keys, Admission: a.admission, Registerer: reg, Log: log.With("component", "api")})
	a.api.SetReadyDetail(func() any { return rt.Status() })
	return a, nil
}

// endpoints makes one QUIC link and one DC client per datacenter endpoint: the primary first,
// then dc_secondary in order. Each checks the gateway certificate against dc_server_name or its
// own host.
func endpoints(cfg Config, base *tls.Config, exit dc.Exit, reg prometheus.Registerer, log *slog.Logger) ([]*link.Client, []*dc.Client, error) {
	addrs := append([]string{cfg.DC}, cfg.DCSecondary...)
	var links []*link.Client
	var dcs []*dc.Client
	for i, addr := range addrs {
		tc := base.Clone()
		if cfg.DCServerName != "" {
			tc.ServerName = cfg.DCServerName
		} else if host, _, err := net.SplitHostPort(addr); err == nil && host != "" {
			tc.ServerName = host
		}
		// Every link's metrics carry its address and role, so dashboards can follow the primary.
		role := "primary"
		if i > 0 {
			role = "secondary"
		}
		r := prometheus.WrapRegistererWith(prometheus.Labels{"dc": addr, "dc_role": role}, reg)
		l := link.New(link.Config{Addr: addr, EdgeID: cfg.EdgeID, Software: "edge-agent/" + cfg.Version, TLS: tc, Tuning: cfg.Link},
			r, log.With("component", "link", "dc", addr))
		l.RegisterRTT(prometheus.WrapRegistererWith(prometheus.Labels{"dc": addr}, reg))
		c, err := dc.New(l, exit, dc.Config{AcceptTimeout: cfg.Failover.AcceptTimeout})
		if err != nil {
			return nil, nil, err
		}
		links, dcs = append(links, l), append(dcs, c)
	}
	return links, dcs, nil
}

// anyReady is /readyz: ready while at least one DC endpoint's link is up, not draining, and its
// breaker not open (failover.Router.Ready); the reason is a code without addresses.
func anyReady(rt *failover.Router) func() (bool, error) { return rt.Ready }

// Listen binds the HTTP listeners, so callers (and tests) know the addresses before Run.
func (a *Agent) Listen() error {
	ln, err := net.Listen("tcp", a.cfg.Listen)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", a.cfg.Listen, err)
	}
	if a.cfg.MaxConnections > 0 {
		// Connections past the bound wait in the kernel's backlog instead of costing goroutines
		// and buffers here.
		ln = netutil.LimitListener(ln, a.cfg.MaxConnections)
	}
	if a.cfg.TLSCert != "" {
		cert, err := tls.LoadX509KeyPair(a.cfg.TLSCert, a.cfg.TLSKey)
		if err != nil {
			ln.Close()
			return fmt.Errorf("tls_cert/tls_key: %w", err)
		}
		ln = tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})
	}
	a.ln = ln
	if a.cfg.MetricsListen != "" {
		mln, err := net.Listen("tcp", a.cfg.MetricsListen)
		if err != nil {
			ln.Close()
			return fmt.Errorf("metrics listen on %s: %w", a.cfg.MetricsListen, err)
		}
		a.metricsLn = mln
	}
	return nil
}

// Addr is the bound API address (after Listen).
func (a *Agent) Addr() string { return a.ln.Addr().String() }

// Handler is the HTTP API (for in-process tests and benchmarks).
func (a *Agent) Handler() http.Handler { return a.api }

// Link is the primary DC endpoint's QUIC link (for readiness in tests).
func (a *Agent) Link() *link.Client { return a.links[0] }

// Run serves until ctx ends, then lets in-flight requests finish for ShutdownGrace and stops.
func (a *Agent) Run(ctx context.Context) error {
	if a.ln == nil {
		if err := a.Listen(); err != nil {
			return err
		}
	}
	// Requests get a context that outlives ctx by the grace period, so a stop signal does not cut
	// answers mid-stream; after the grace period they are cancelled with api.ErrShuttingDown (and
	// so are their DC streams), which the API answers with a terminal shutting_down event.
	reqCtx, cancelReqs := context.WithCancelCause(context.WithoutCancel(ctx))
	defer cancelReqs(api.ErrShuttingDown)
	srv := &http.Server{
		Handler:           a.api,
		ReadHeaderTimeout: 10 * time.Second,
		// ReadTimeout bounds reading headers and body (a body sent a byte a second is cut); it does
		// not bound a streamed answer. IdleTimeout closes keep-alive connections left idle.
		ReadTimeout:    a.cfg.BodyReadTimeout,
		IdleTimeout:    a.cfg.IdleTimeout,
		MaxHeaderBytes: 64 << 10,
		BaseContext:    func(net.Listener) context.Context { return reqCtx },
		ErrorLog:       slog.NewLogLogger(a.log.Handler(), slog.LevelDebug),
	}
	g, gctx := errgroup.WithContext(ctx)
	linkCtx, stopLink := context.WithCancel(context.WithoutCancel(ctx))
	defer stopLink()
	for _, l := range a.links {
		g.Go(func() error { return l.Run(linkCtx) })
	}
	if a.sync != nil {
		// Model sync stops with the stop signal: an install is atomic, so it may be cut anywhere.
		g.Go(func() error { return a.sync.Run(gctx) })
	}
	g.Go(func() error { return serve(srv, a.ln) })
	if a.keys != nil {
		// Keys added or revoked with `edge-agent keys` take effect within two seconds.
		g.Go(func() error {
			a.keys.Watch(gctx, 2*time.Second, func(n int, err error) {
				if err != nil {
					a.log.Error("API key file not reloaded; the keys in force stay", "file", a.cfg.Auth.KeysFile, "error", err.Error())
					return
				}
				a.log.Info("API keys reloaded", "file", a.cfg.Auth.KeysFile, "keys", n)
			})
			return nil
		})
	}
	g.Go(func() error { a.releaseMemory(gctx); return nil })
	var msrv *http.Server
	if a.metricsLn != nil {
		msrv = &http.Server{Handler: promhttp.HandlerFor(a.reg, promhttp.HandlerOpts{}), ReadHeaderTimeout: 10 * time.Second}
		g.Go(func() error { return serve(msrv, a.metricsLn) })
	}
	a.log.Info("edge-agent serving", "listen", a.ln.Addr().String(), "dc", a.cfg.DC, "edge_id", a.cfg.EdgeID)
	// Ready once the listeners are bound, not when the QUIC link is up: a branch whose WAN is
	// down still starts and serves what it can (the local model, clear errors).
	_ = sdnotify.Ready()
	g.Go(func() error { return sdnotify.Watchdog(gctx) })
	g.Go(func() error {
		<-gctx.Done()
		_ = sdnotify.Stopping()
		a.shutdown(srv, msrv, cancelReqs)
		stopLink()
		return nil
	})
	return g.Wait()
}

// shutdownFinish bounds how long requests take to write their terminal event and return once the
// grace period is over and their contexts are cancelled.
const shutdownFinish = 5 * time.Second

// shutdown stops the HTTP servers: new requests are refused (503 shutting_down), the listener
// closes, requests in flight may finish for ShutdownGrace; those still running then are cancelled
// with api.ErrShuttingDown and end with a terminal shutting_down error event.
func (a *Agent) shutdown(srv, msrv *http.Server, cancelReqs context.CancelCauseFunc) {
	a.api.Drain()
	a.log.Info("stopping: no new requests; letting the ones in flight finish", "in_flight", a.api.InFlight(),
		"shutdown_grace", a.cfg.ShutdownGrace.String())
	sctx, cancel := context.WithTimeout(context.Background(), a.cfg.ShutdownGrace)
	err := srv.Shutdown(sctx)
	cancel()
	if err != nil {
		a.log.Warn("shutdown grace period over; ending the requests still running with shutting_down", "in_flight", a.api.InFlight())
		cancelReqs(api.ErrShuttingDown)
		fctx, cancel := context.WithTimeout(context.Background(), shutdownFinish)
		if err := srv.Shutdown(fctx); err != nil {
			_ = srv.Close()
		}
		cancel()
	}
	cancelReqs(api.ErrShuttingDown)
	if msrv != nil {
		fctx, cancel := context.WithTimeout(context.Background(), time.Second)
		_ = msrv.Shutdown(fctx)
		cancel()
	}
	a.log.Info("stopped serving")
}

func serve(srv *http.Server, ln net.Listener) error {
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// releaseMemory gives memory back to the system after a burst of large requests: once no
// request body has been held for a few seconds after a large one (1 MiB or more) was, the heap is collected
// and its free pages returned at once, instead of over the minutes Go's background scavenger
// takes. A NUC shares its memory with the model servers.
func (a *Agent) releaseMemory(ctx context.Context) {
	t := time.NewTicker(2 * time.Second)
	defer t.Stop()
	var peak int64
	quiet := 0
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		held := a.admission.BodiesHeld()
		peak = max(peak, a.admission.TakeBodiesPeak())
		if held > 0 {
			quiet = 0
			continue
		}
		if quiet++; quiet >= 2 && peak >= 1<<20 {
			debug.FreeOSMemory()
			peak = 0
		}
	}
}
