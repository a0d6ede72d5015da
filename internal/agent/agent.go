package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"golang.org/x/sync/errgroup"

	"github.com/sucursal/sucursal/internal/api"
	"github.com/sucursal/sucursal/internal/chat"
	"github.com/sucursal/sucursal/internal/egress"
	"github.com/sucursal/sucursal/internal/failover"
	"github.com/sucursal/sucursal/internal/link"
	"github.com/sucursal/sucursal/internal/pipeline"
	"github.com/sucursal/sucursal/internal/pki"
	"github.com/sucursal/sucursal/internal/redact"
	"github.com/sucursal/sucursal/internal/redact/ner"
	modelsync "github.com/sucursal/sucursal/internal/sync"
	"github.com/sucursal/sucursal/internal/wire"
)

// Version is reported to the gateway in the hello; cmd/edge-agent sets it from ldflags.
var Version = "dev"

// Agent is a configured edge-agent.
type Agent struct {
	cfg    Config
	log    *slog.Logger
	reg    *prometheus.Registry
	link   *link.Client   // the primary DC endpoint
	links  []*link.Client // primary first, then the secondaries
	router *failover.Router
	api    *api.Server
	sync   *modelsync.Agent // nil when model sync is off

	ln, metricsLn net.Listener
}

// New builds the agent: it loads the edge certificate and wires the pipeline, but does not listen.
func New(cfg Config, log *slog.Logger) (*Agent, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("invalid configuration:\n%w", err)
	}
	tlsConf, err := pki.ClientTLS(cfg.PKI, cfg.EdgeID)
	if err != nil {
		return nil, err
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))

	nerBackend, err := ner.New(cfg.Redaction.NER, &http.Client{})
	if err != nil {
		return nil, fmt.Errorf("redaction: %w", err)
	}
	redactor, err := redact.New(cfg.Redaction, nerBackend, reg, log.With("component", "redact"))
	if err != nil {
		return nil, fmt.Errorf("redaction: %w", err)
	}
	// Every link sends through the same exit check, built from the redaction policy.
	exit, err := egress.New(redactor, reg, log.With("component", "egress"))
	if err != nil {
		return nil, fmt.Errorf("egress: %w", err)
	}
	links := dcLinks(cfg, tlsConf, exit, reg, log)
	l := links[0]
	for _, dl := range links {
		dl.RegisterRTT(prometheus.WrapRegistererWith(prometheus.Labels{"dc": dl.Addr()}, reg))
	}
	g, err := buildGuard(cfg.Guard, l, reg, log.With("component", "guard"))
	if err != nil {
		return nil, err
	}
	// The local fallback model: the configured one, replaced by whatever fleet sync installs for
	// failover.local.role.
	var localRef atomic.Pointer[string]
	localRef.Store(&cfg.Failover.Local.Model)
	rt := router(cfg, links, func() string { return *localRef.Load() }, reg, log)
	// Health reports what users saw (per role, since its last switch) for the fleet's rollout
	// gates; it observes every request from the outside of the pipeline.
	hl := newHealth()
	h := hl.observe(pipeline.Build(pipeline.Deps{Link: l, Terminal: rt, Redactor: redactor, Guard: g, SequentialGuard: cfg.Guard.Mode == "sequential"}))

	var metricsHandler http.Handler = promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg})
	a := &Agent{cfg: cfg, log: log, reg: reg, link: l, links: links, router: rt}
	if cfg.SyncEnabled() {
		sc := cfg.Sync
		if sc.EdgeID == "" {
			sc.EdgeID = cfg.EdgeID
		}
		a.sync, err = modelsync.NewAgent(sc, modelsync.AgentDeps{Registerer: reg, Logger: log, Health: hl,
			OnSwitch: func(m modelsync.Model) {
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
	a.api = api.New(api.Config{MaxBodyBytes: cfg.MaxBodyBytes, RequestTimeout: cfg.RequestTimeout, SlowClientTimeout: cfg.SlowClientTimeout, Decode: cfg.Egress},
		h, dcModels{l}, anyReady(links), apiMetrics, reg, log.With("component", "api"))
	a.api.SetReadyDetail(func() any { return rt.Status() })
	return a, nil
}

// Listen binds the HTTP listeners, so callers (and tests) know the addresses before Run.
func (a *Agent) Listen() error {
	ln, err := net.Listen("tcp", a.cfg.Listen)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", a.cfg.Listen, err)
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

// Link is the QUIC link (for readiness in tests).
func (a *Agent) Link() *link.Client { return a.link }

// Run serves until ctx ends, then lets in-flight requests finish for ShutdownGrace and stops.
func (a *Agent) Run(ctx context.Context) error {
	if a.ln == nil {
		if err := a.Listen(); err != nil {
			return err
		}
	}
	// Requests get a context that outlives ctx by the grace period, so a stop signal does not cut
	// answers mid-stream; after the grace period they are cancelled (and so are their DC streams).
	reqCtx, cancelReqs := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelReqs()
	srv := &http.Server{
		Handler:           a.api,
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return reqCtx },
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
	var msrv *http.Server
	if a.metricsLn != nil {
		msrv = &http.Server{Handler: promhttp.HandlerFor(a.reg, promhttp.HandlerOpts{}), ReadHeaderTimeout: 10 * time.Second}
		g.Go(func() error { return serve(msrv, a.metricsLn) })
	}
	a.log.Info("edge-agent serving", "listen", a.ln.Addr().String(), "dc", a.cfg.DC, "edge_id", a.cfg.EdgeID)
	g.Go(func() error {
		<-gctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), a.cfg.ShutdownGrace)
		defer cancel()
		err := srv.Shutdown(sctx)
		cancelReqs()
		if msrv != nil {
			_ = msrv.Shutdown(sctx)
		}
		stopLink()
		if errors.Is(err, context.DeadlineExceeded) {
			a.log.Warn("shutdown grace period over; cancelled the remaining requests")
			_ = srv.Close()
		}
		return nil
	})
	return g.Wait()
}

func serve(srv *http.Server, ln net.Listener) error {
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// dcModels lists the DC target's models over the link.
type dcModels struct{ l *link.Client }

func (d dcModels) Models(ctx context.Context) (json.RawMessage, error) {
	call, err := d.l.Open(ctx, wire.Request{Op: wire.OpModels})
	if err != nil {
		if errors.Is(err, link.ErrNotConnected) {
			return nil, chat.Unavailable("dc_unavailable", "the datacenter is unreachable from this branch; try again shortly", pipeline.DCRetryAfter)
		}
		return nil, err
	}
	defer call.Close()
	f, err := call.Next()
	if err != nil {
		return nil, chat.Unavailable("dc_unavailable", "the connection to the datacenter broke during the request", pipeline.DCRetryAfter)
	}
	switch f.Type {
	case wire.TypeResponse:
		var r wire.Response
		if err := f.Decode(&r); err != nil {
			return nil, chat.Internal("the datacenter sent an unreadable model list")
		}
		return r.Body, nil
	case wire.TypeError:
		var e wire.Error
		_ = f.Decode(&e)
		return nil, pipeline.FromWireError(e)
	}
	return nil, chat.Internal("the datacenter answered the model list with a " + f.Type.String() + " frame")
}
