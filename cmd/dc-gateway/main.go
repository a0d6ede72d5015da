// Command dc-gateway is the datacenter end of the edge⇄DC link: it accepts QUIC connections from
// edges holding a fleet certificate and relays their (redacted) requests to an OpenAI-compatible
// model server such as vLLM, LiteLLM or Ollama.
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/sync/errgroup"

	"github.com/sucursal/sucursal/internal/envflag"
	"github.com/sucursal/sucursal/internal/gateway"
	"github.com/sucursal/sucursal/internal/guard"
	"github.com/sucursal/sucursal/internal/guard/guardsetup"
	"github.com/sucursal/sucursal/internal/openaicompat"
	"github.com/sucursal/sucursal/internal/pki"
	"github.com/sucursal/sucursal/internal/sdnotify"
)

type options struct {
	listen, pkiDir, targetURL, targetAPIKey, metricsListen, name, logLevel string
	guardModel, guardURL, guardAPIKey, guardKind                           string
	draftVerifier, draftVerifierURL, draftVerifierTokenizer                string
	draftPassCost                                                          time.Duration
	maxStreams                                                             int64
	idleTimeout, drainGrace                                                time.Duration
	gcPercent                                                              int          // gc.go
	memoryLimit                                                            int64        // gc.go
	trust                                                                  trustOptions // trust.go
}

func main() {
	limitProcs()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := newRootCmd().ExecuteContext(ctx); err != nil {
		if !errors.Is(err, errReported) {
			fmt.Fprintln(os.Stderr, "dc-gateway:", err)
		}
		os.Exit(1)
	}
}

// defaultOptions are the values before the file, the environment and the flags.
func defaultOptions() options {
	return options{listen: ":4443", metricsListen: "127.0.0.1:9464", name: "dc-gateway", logLevel: "info", maxStreams: 1024,
		idleTimeout: 30 * time.Second, guardKind: "safety", drainGrace: gateway.DefaultDrainGrace, gcPercent: defaultGCPercent}
}

func newRootCmd() *cobra.Command {
	o := defaultOptions()
	var configFile string
	cmd := &cobra.Command{
		Use:   "dc-gateway",
		Short: "Relay edge requests from QUIC (mTLS) to the central OpenAI-compatible model server",
		Long: `dc-gateway accepts QUIC connections only from edges holding a certificate of the fleet CA
(see fleetctl pki init), serves each request on its own stream, forwards it to --target-url and
streams the answer back. A request the edge cancels is cancelled upstream.

Configuration comes from --config (YAML, one key per flag: its name with '_' for '-'), then
DC_GATEWAY_* variables, then flags (flags win). 'dc-gateway config check FILE' checks a file.`,
		Example: `  dc-gateway --config /etc/sucursal/dc-gateway.yaml
  dc-gateway --pki /etc/sucursal/pki --target-url http://127.0.0.1:8000/v1
  DC_GATEWAY_LOG_LEVEL=debug dc-gateway --config /etc/sucursal/dc-gateway.yaml`,
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			final, err := resolve(cmd, configFile)
			if err != nil {
				return err
			}
			return run(cmd.Context(), final)
		},
	}
	f := cmd.Flags()
	f.StringVar(&configFile, "config", "", "YAML configuration file, e.g. /etc/sucursal/dc-gateway.yaml (flags and environment override it)")
	bindFlags(f, &o)
	cmd.AddCommand(newConfigCmd())
	withVersion(cmd)
	envflag.Cobra(cmd, "DC_GATEWAY")
	return cmd
}

// bindFlags defines the gateway's flags over o (resolve binds them a second time, over the file's
// values).
func bindFlags(f *pflag.FlagSet, o *options) {
	f.StringVar(&o.listen, "listen", o.listen, "UDP address for edge QUIC connections")
	f.StringVar(&o.pkiDir, "pki", o.pkiDir, "folder written by 'fleetctl pki init' (ca.crt, dc-gateway.crt/.key)")
	f.StringVar(&o.targetURL, "target-url", o.targetURL, "OpenAI-compatible base URL of the model server, e.g. http://127.0.0.1:11434/v1")
	f.StringVar(&o.targetAPIKey, "target-api-key", o.targetAPIKey, "bearer token for the model server (optional)")
	f.StringVar(&o.metricsListen, "metrics-listen", o.metricsListen, "HTTP address for /metrics and /healthz (empty = off)")
	f.StringVar(&o.name, "name", o.name, "name reported to edges")
	f.Int64Var(&o.maxStreams, "max-streams-per-edge", o.maxStreams, "concurrent request streams one edge may open")
	f.DurationVar(&o.idleTimeout, "idle-timeout", o.idleTimeout, "close an edge connection silent for this long")
	f.DurationVar(&o.drainGrace, "drain-grace", o.drainGrace, "on SIGTERM: tell edges to go away, refuse new streams, let in-flight ones finish for at most this long")
	f.StringVar(&o.logLevel, "log-level", o.logLevel, "debug, info, warn or error")
	f.StringVar(&o.guardModel, "guard-model", o.guardModel, "guard model edges fail over to, on redacted text (empty = no DC guard)")
	f.StringVar(&o.guardURL, "guard-url", o.guardURL, "OpenAI-compatible base URL of the guard model (default: --target-url)")
	f.StringVar(&o.guardAPIKey, "guard-api-key", o.guardAPIKey, "bearer token for the guard model server (default: --target-api-key)")
	f.StringVar(&o.guardKind, "guard-kind", o.guardKind, "what the guard model answers: safety (Llama Guard) or injection (BENIGN/MALICIOUS)")
	f.StringVar(&o.draftVerifier, "draft-verifier", o.draftVerifier, "verify edge drafts (speculative drafting): ollama, vllm, or empty = off (edges then stream plain)")
	f.StringVar(&o.draftVerifierURL, "draft-verifier-url", o.draftVerifierURL, "base URL of the verifying server: Ollama's native API or vLLM's server (default: --target-url; /v1 is dropped)")
	f.StringVar(&o.draftVerifierTokenizer, "draft-verifier-tokenizer", o.draftVerifierTokenizer, "vllm: the served model's tokenizer.json, or the folder with it and tokenizer_config.json, config.json, generation_config.json")
	f.DurationVar(&o.draftPassCost, "draft-pass-cost", 0, "sleep this long per verification pass, to emulate a costlier target (experiments only; no file key, no environment twin)")
	envflag.NoEnv(f, "draft-pass-cost")
	f.IntVar(&o.gcPercent, "gc-percent", o.gcPercent, "garbage collector target: heap growth over what is live, in percent (Go's GOGC, which wins when set)")
	f.Int64Var(&o.memoryLimit, "memory-limit", o.memoryLimit, "soft memory bound in bytes (Go's GOMEMLIMIT, which wins when set); 0 = none, else at least 64 MiB")
	o.trust.register(f) // trust.go
}

func (o options) validate() error {
	var errs []error
	if _, _, err := net.SplitHostPort(o.listen); err != nil {
		errs = append(errs, fmt.Errorf("--listen: %q is not host:port", o.listen))
	}
	if o.pkiDir == "" {
		errs = append(errs, errors.New("--pki is required (the folder written by 'fleetctl pki init')"))
	}
	if o.targetURL == "" {
		errs = append(errs, errors.New("--target-url is required (e.g. http://127.0.0.1:11434/v1)"))
	} else if u, err := url.Parse(o.targetURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		errs = append(errs, fmt.Errorf("--target-url: %q is not an http(s) URL", o.targetURL))
	}
	if o.metricsListen != "" {
		if _, _, err := net.SplitHostPort(o.metricsListen); err != nil {
			errs = append(errs, fmt.Errorf("--metrics-listen: %q is not host:port", o.metricsListen))
		}
	}
	if o.guardKind != "safety" && o.guardKind != "injection" {
		errs = append(errs, fmt.Errorf("--guard-kind: %q is not safety or injection", o.guardKind))
	}
	if o.guardURL != "" {
		if u, err := url.Parse(o.guardURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			errs = append(errs, fmt.Errorf("--guard-url: %q is not an http(s) URL", o.guardURL))
		}
	}
	switch o.draftVerifier {
	case "", "ollama":
		if o.draftVerifierTokenizer != "" {
			errs = append(errs, errors.New("--draft-verifier-tokenizer is only for --draft-verifier vllm"))
		}
	case "vllm":
		if o.draftVerifierTokenizer == "" {
			errs = append(errs, errors.New("--draft-verifier vllm needs --draft-verifier-tokenizer (vLLM has no endpoint listing its vocabulary)"))
		}
	default:
		errs = append(errs, fmt.Errorf("--draft-verifier: %q is not ollama, vllm (or empty)", o.draftVerifier))
	}
	if o.draftVerifierURL != "" {
		if u, err := url.Parse(o.draftVerifierURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			errs = append(errs, fmt.Errorf("--draft-verifier-url: %q is not an http(s) URL", o.draftVerifierURL))
		}
	}
	if o.draftPassCost < 0 {
		errs = append(errs, errors.New("--draft-pass-cost must not be negative"))
	}
	errs = append(errs, o.validateGC()...) // gc.go
	errs = append(errs, o.trust.validate()...)
	if o.drainGrace < 0 {
		errs = append(errs, errors.New("--drain-grace must not be negative (0 = the default, 30s)"))
	}
	if o.maxStreams <= 0 {
		errs = append(errs, errors.New("--max-streams-per-edge must be positive"))
	}
	switch strings.ToLower(o.logLevel) {
	case "debug", "info", "warn", "error":
	default:
		errs = append(errs, fmt.Errorf("--log-level: %q is not one of debug, info, warn, error", o.logLevel))
	}
	return errors.Join(errs...)
}

func run(ctx context.Context, o options) error {
	if err := o.validate(); err != nil {
		return fmt.Errorf("invalid configuration:\n%w", err)
	}
	var lvl slog.Level
	_ = lvl.UnmarshalText([]byte(strings.ToUpper(o.logLevel)))
	log := slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: lvl}))
	applyGC(o, log) // gc.go

	reg := prometheus.NewRegistry()
	tlsConf, admission, runTrust, err := o.trust.setup(o.pkiDir, reg, log)
	if err != nil {
		return err
	}
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		pki.ExpiryCollector(o.pkiDir)) // the gateway's certificate, the CA's (and any edge certificates beside them): RB-12
	var dcGuard guard.Classifier
	if o.guardModel != "" {
		gu, key := o.guardURL, o.guardAPIKey
		if gu == "" {
			gu = o.targetURL
			if key == "" {
				key = o.targetAPIKey
			}
		}
		if dcGuard, err = guardsetup.DCClassifier(gu, o.guardModel, key, o.guardKind, nil); err != nil {
			return err
		}
	}
	drafting, err := newDrafting(o, reg, log)
	if err != nil {
		return err
	}
	srv, err := gateway.New(gateway.Config{
		Target: openaicompat.New(o.targetURL, o.targetAPIKey), Name: o.name,
		MaxStreamsPerEdge: o.maxStreams, IdleTimeout: o.idleTimeout, DrainGrace: o.drainGrace, Guard: dcGuard, Drafting: drafting, Admission: admission,
	}, tlsConf, reg, log)
	if err != nil {
		return err
	}
	ln, err := srv.Listen(o.listen)
	if err != nil {
		return err
	}
	log.Info("dc-gateway serving", "listen", ln.Addr().String(), "target", o.targetURL, "guard_model", o.guardModel)

	g, gctx := errgroup.WithContext(ctx)
	served := make(chan struct{})
	g.Go(func() error {
		defer close(served)
		defer ln.Close()
		return srv.Serve(gctx, ln) // on SIGTERM: drains (--drain-grace), then returns
	})
	_ = sdnotify.Ready() // the QUIC listener is bound (the metrics listener binds below)
	g.Go(func() error { return sdnotify.Watchdog(gctx) })
	g.Go(func() error { return runTrust(gctx) })
	g.Go(func() error {
		<-gctx.Done()
		_ = sdnotify.Stopping()
		// A second stop signal during the drain ends it: every edge connection is closed at once.
		again := make(chan os.Signal, 1)
		signal.Notify(again, os.Interrupt, syscall.SIGTERM)
		defer signal.Stop(again)
		select {
		case <-again:
			log.Warn("second stop signal: closing every edge connection now, without waiting for the drain")
			srv.Abort()
		case <-served:
		}
		return nil
	})
	if o.metricsListen != "" {
		mux := http.NewServeMux()
		mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
		mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok\n")) })
		mux.Handle("GET /readyz", srv.ReadyHandler()) // 503 while draining or while the target does not answer
		hs := &http.Server{Addr: o.metricsListen, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		g.Go(func() error {
			if err := hs.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
				return fmt.Errorf("metrics listener: %w", err)
			}
			return nil
		})
		g.Go(func() error {
			<-served // /readyz says "draining" until the drain is over
			return hs.Close()
		})
	}
	return g.Wait()
}
