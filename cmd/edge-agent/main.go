// Command edge-agent runs on a branch NUC: an OpenAI-compatible endpoint for branch users whose
// requests travel, redacted, over QUIC to the datacenter gateway.
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/sucursal/sucursal/internal/agent"
	"github.com/sucursal/sucursal/internal/envflag"
)

func main() {
	limitProcs() // procs.go: at most edgeMaxProcs threads run Go code unless GOMAXPROCS says so
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := newRootCmd().ExecuteContext(ctx); err != nil {
		if !errors.Is(err, errReported) {
			fmt.Fprintln(os.Stderr, "edge-agent:", err)
		}
		os.Exit(1)
	}
}

func newRootCmd() *cobra.Command {
	root, _ := newServeCmd()
	root.AddCommand(
		newRedactCmd(),
		newAskCmd(),
		newKeysCmd(),
		newConfigCmd(),
		newBenchCmd(),
	)
	withVersion(root)
	envflag.Cobra(root, "EDGE_AGENT")
	return root
}

// serveOptions are the root command's flag values (before layering over the YAML file).
type serveOptions struct {
	configFile string
	cfg        agent.Config
}

// newServeCmd is the root command: with no subcommand, edge-agent serves.
func newServeCmd() (*cobra.Command, *serveOptions) {
	o := &serveOptions{cfg: agent.DefaultConfig()}
	cfg := &o.cfg
	configFile := &o.configFile
	cmd := &cobra.Command{
		Use:   "edge-agent",
		Short: "Serve branch users an OpenAI-compatible endpoint that keeps personal data in the branch",
		Long: `edge-agent serves POST /v1/chat/completions and GET /v1/models to branch users and apps,
and forwards each request over one mutually authenticated QUIC connection to the dc-gateway.
It also serves /healthz, /readyz (the QUIC link is up) and /metrics.

Configuration comes from --config (YAML), then EDGE_AGENT_* variables, then flags (flags win).
'edge-agent config check FILE' checks a file. SIGTERM drains (shutdown_grace); SIGHUP reloads the
redaction policy, the guard, the API keys and log_level.`,
		Example: `  edge-agent --config /etc/sucursal/edge-agent.yaml
  edge-agent --edge-id branch-0001 --dc dc-gateway.example.internal:4443 --pki /etc/sucursal/pki
  EDGE_AGENT_LOG_LEVEL=debug edge-agent --config /etc/sucursal/edge-agent.yaml
  systemctl reload edge-agent   # SIGHUP: reload the policies, keys and log level`,
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			final, err := resolveConfig(cmd, *configFile, *cfg)
			if err != nil {
				return err
			}
			level := new(slog.LevelVar)
			log := newLevelLogger(final.LogLevel, level)
			if final.MemoryLimit > 0 && os.Getenv("GOMEMLIMIT") == "" {
				// Process-wide, so set by the binary, not by the agent library (tests build
				// agents in-process).
				debug.SetMemoryLimit(final.MemoryLimit)
			}
			final.Version = version
			// SIGHUP from here on reloads (until now it would have ended the process).
			hup := make(chan os.Signal, 1)
			signal.Notify(hup, syscall.SIGHUP)
			defer signal.Stop(hup)
			a, err := agent.New(final, log)
			if err != nil {
				return err
			}
			a.SetLevel(level)
			ctx, stop := context.WithCancel(cmd.Context())
			defer stop()
			reloaded := make(chan struct{})
			go func() {
				defer close(reloaded)
				reloadOnHUP(ctx, hup, a, log, func() (agent.Config, error) {
					next, err := resolveConfig(cmd, *configFile, *cfg)
					next.Version = version
					return next, err
				})
			}()
			err = a.Run(ctx)
			stop()
			<-reloaded
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(configFile, "config", "", "YAML configuration file (flags and environment override it)")
	f.StringVar(&cfg.Listen, "listen", cfg.Listen, "HTTP address for branch users (host:port)")
	f.StringVar(&cfg.MetricsListen, "metrics-listen", cfg.MetricsListen, "separate address for /metrics (default: on --listen)")
	f.StringVar(&cfg.EdgeID, "edge-id", cfg.EdgeID, "this NUC's edge id (must match its certificate)")
	f.StringVar(&cfg.DC, "dc", cfg.DC, "dc-gateway address, host:port (UDP)")
	f.StringSliceVar(&cfg.DCSecondary, "dc-secondary", cfg.DCSecondary, "further dc-gateways tried in order when the primary cannot serve (host:port, comma-separated)")
	f.StringVar(&cfg.DCServerName, "dc-server-name", cfg.DCServerName, "name to verify in the gateway's certificate (default: the host of --dc)")
	f.StringVar(&cfg.PKI, "pki", cfg.PKI, "folder written by 'fleetctl pki init' (ca.crt, edges/<id>.crt/.key)")
	f.Int64Var(&cfg.MaxBodyBytes, "max-body-bytes", cfg.MaxBodyBytes, "largest accepted request body in bytes")
	f.DurationVar(&cfg.RequestTimeout, "request-timeout", cfg.RequestTimeout, "upper bound for one request, streaming included (0 = none)")
	f.StringVar(&cfg.LogLevel, "log-level", cfg.LogLevel, "debug, info, warn or error")
	f.StringVar(&cfg.Sync.NATSURL, "nats", cfg.Sync.NATSURL, "NATS URL of the fleet (enables model sync), e.g. nats://fleet.dc:4222")
	f.StringVar(&cfg.Sync.CredentialsFile, "nats-creds", cfg.Sync.CredentialsFile, "NATS credentials file (.creds) of this edge")
	f.StringVar(&cfg.Sync.NKeySeedFile, "nats-nkey", cfg.Sync.NKeySeedFile, "NATS NKEY seed file of this edge (instead of --nats-creds)")
	f.StringVar(&cfg.Sync.NATSCAFile, "nats-ca", cfg.Sync.NATSCAFile, "CA certificate of the NATS server's TLS certificate (a hub started with 'fleetctl hub --pki': the fleet's ca.crt)")
	f.StringSliceVar(&cfg.Sync.TrustedKeys, "trusted-key", cfg.Sync.TrustedKeys, "ed25519 public key file trusted to sign model manifests (repeatable)")
	f.StringVar(&cfg.Sync.DataDir, "data-dir", cfg.Sync.DataDir, "where model sync keeps downloads and installed versions")
	f.StringVar(&cfg.Sync.OllamaURL, "ollama-url", cfg.Sync.OllamaURL, "local Ollama that synced models are installed into, e.g. http://127.0.0.1:11434")
	f.Int64Var(&cfg.Sync.BandwidthLimit, "sync-bandwidth-limit", cfg.Sync.BandwidthLimit, "model download limit in bytes per second (0 = unlimited)")
	f.StringVar(&cfg.Auth.KeysFile, "keys-file", cfg.Auth.KeysFile, "API key file (hashes) written by 'edge-agent keys add'; required on a non-loopback --listen")
	f.BoolVar(&cfg.Auth.InsecureNoAuth, "insecure-no-auth", false, "serve a non-loopback --listen without API keys: anyone on the network can send prompts (closed lab networks only; no environment twin)")
	envflag.NoEnv(f, "insecure-no-auth")
	return cmd, o
}

// resolveConfig layers defaults < YAML file < environment < flags. Flags (and their environment
// twins) hold the defaults unless changed, so only changed ones override the file.
func resolveConfig(cmd *cobra.Command, file string, flagged agent.Config) (agent.Config, error) {
	cfg := agent.DefaultConfig()
	var loadErr error
	if file != "" {
		// On a problem the rest is still read and checked, so every problem is listed at once.
		loadErr = agent.LoadFile(file, &cfg)
	}
	fs := cmd.Flags()
	set := func(name string, apply func()) {
		if envflag.Changed(fs, name) {
			apply()
		}
	}
	set("listen", func() { cfg.Listen = flagged.Listen })
	set("metrics-listen", func() { cfg.MetricsListen = flagged.MetricsListen })
	set("edge-id", func() { cfg.EdgeID = flagged.EdgeID })
	set("dc", func() { cfg.DC = flagged.DC })
	set("dc-server-name", func() { cfg.DCServerName = flagged.DCServerName })
	set("dc-secondary", func() { cfg.DCSecondary = flagged.DCSecondary })
	set("pki", func() { cfg.PKI = flagged.PKI })
	set("max-body-bytes", func() { cfg.MaxBodyBytes = flagged.MaxBodyBytes })
	set("request-timeout", func() { cfg.RequestTimeout = flagged.RequestTimeout })
	set("log-level", func() { cfg.LogLevel = flagged.LogLevel })
	set("nats", func() { cfg.Sync.NATSURL = flagged.Sync.NATSURL })
	set("nats-creds", func() { cfg.Sync.CredentialsFile = flagged.Sync.CredentialsFile })
	set("nats-nkey", func() { cfg.Sync.NKeySeedFile = flagged.Sync.NKeySeedFile })
	set("nats-ca", func() { cfg.Sync.NATSCAFile = flagged.Sync.NATSCAFile })
	set("trusted-key", func() { cfg.Sync.TrustedKeys = flagged.Sync.TrustedKeys })
	set("data-dir", func() { cfg.Sync.DataDir = flagged.Sync.DataDir })
	set("ollama-url", func() { cfg.Sync.OllamaURL = flagged.Sync.OllamaURL })
	set("sync-bandwidth-limit", func() { cfg.Sync.BandwidthLimit = flagged.Sync.BandwidthLimit })
	set("keys-file", func() { cfg.Auth.KeysFile = flagged.Auth.KeysFile })
	if fs.Changed("insecure-no-auth") {
		cfg.Auth.InsecureNoAuth = flagged.Auth.InsecureNoAuth
	}
	if err := cfg.Validate(); err != nil || loadErr != nil {
		if err != nil {
			err = fmt.Errorf("invalid configuration:\n%w", err)
		}
		return cfg, errors.Join(loadErr, err)
	}
	return cfg, nil
}

func newLogger(level string) *slog.Logger { return newLevelLogger(level, new(slog.LevelVar)) }

// newLevelLogger logs at the level v holds, set here from level (SIGHUP's log_level sets it again).
func newLevelLogger(level string, v *slog.LevelVar) *slog.Logger {
	var l slog.Level
	_ = l.UnmarshalText([]byte(strings.ToUpper(level)))
	v.Set(l)
	return slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: v}))
}

// reloadOnHUP re-reads the configuration (file, environment, flags) at every SIGHUP and applies
// what can be applied to a running agent (agent.Reloadable, the API keys); it logs what it
// reloaded and what it did not. A configuration that no longer loads or validates changes
// nothing: the one in force stays, and every problem is logged.
func reloadOnHUP(ctx context.Context, hup <-chan os.Signal, a *agent.Agent, log *slog.Logger, load func() (agent.Config, error)) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-hup:
		}
		next, err := load()
		if err == nil {
			if _, err = a.Reload(next); err == nil {
				continue // Reload logged what it applied and what it did not
			}
		}
		log.Error("SIGHUP: configuration not reloaded; the one in force stays", "problems", problems(err))
	}
}

// problems is err as one string per problem (errors.Join's lines).
func problems(err error) []string {
	var out []string
	for _, l := range strings.Split(err.Error(), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}
