package main

import (
	"context"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"go.yaml.in/yaml/v3"

	"github.com/sucursal/sucursal/internal/agent"
	"github.com/sucursal/sucursal/internal/buildinfo"
	"github.com/sucursal/sucursal/internal/envflag"
	"github.com/sucursal/sucursal/internal/loadbench"
)

// newBenchCmd is the load protocol (docs/bench/README.md): scenarios from a file, run against
// any OpenAI-compatible endpoint, reported as JSON and Markdown with a snapshot of what ran.
func newBenchCmd() *cobra.Command {
	var o benchOptions
	cmd := &cobra.Command{
		Use:   "bench --scenarios FILE [--target URL] [--out PREFIX]",
		Short: "Measure how much load an endpoint serves within an SLO (scenarios from a YAML file; JSON + Markdown report)",
		Long: `bench runs the scenarios of a YAML file (docs/bench/README.md) against an OpenAI-compatible chat
endpoint — this branch's edge-agent by default, or with --target a dc-gateway's target or any model
server — over each scenario's matrix of concurrency levels, arrival rates or trace speed-ups, with
warm-up apart from measurement and repeated. Each cell reports p50/p95/p99 of TTFT, inter-token gap
and end-to-end latency with sample counts, 429/503 refusals and errors apart, goodput (requests/s
that met the SLO) and whether the cell met the SLO; each scenario, the highest load that did.

Queue wait: the edge-agent does not tell a caller how long a request waited for an admission slot;
bench reads the agent's admission histogram from --metrics before and after each repetition (bucket
bounds, and any other traffic served meanwhile counts too). Against an endpoint without it, the
report says queue wait is not measurable from outside.

The report's snapshot records this binary, the command line (the API key left out), the scenario
file's digest and seed, the target's /v1/models, this machine's CPU, cores, memory and load, what
the file declares (runtime, serving hardware, prefix caching), and with --agent-config the agent's
admission and drafting settings. The same binary, command and file run the same requests again.

Progress is shown on stderr when it is a terminal.`,
		Example: `  # the branch's own endpoint, report into ./bench-2026-12-01.{json,md}
  edge-agent bench --scenarios branch-scenarios.yaml \
    --api-key "$KEY" --agent-config /etc/sucursal/edge-agent.yaml --out bench-2026-12-01

  # a model server directly (the throughput per GPU that fleetctl size needs)
  edge-agent bench --scenarios dc.yaml --target http://vllm.dc:8000/v1 --metrics off --out dc-h100`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return o.run(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), commandLine(cmd))
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.scenarios, "scenarios", "", "scenario file, YAML (required; examples in packaging/bench/)")
	f.StringVar(&o.target, "target", "http://127.0.0.1:8080", "the endpoint's URL: a host (then /v1 is added) or the API root ending in /v1")
	f.StringVar(&o.apiKey, "api-key", "", "API key for the endpoint (sent as a bearer token; never written to the report)")
	f.StringVar(&o.caFile, "ca-file", "", "PEM file of the CA that signed the endpoint's certificate (https; default: the system's roots)")
	f.StringVar(&o.metrics, "metrics", "", "Prometheus endpoint with the agent's admission histogram (default: the target's host + /metrics; off: none)")
	f.StringVar(&o.agentConfig, "agent-config", "", "the measured edge-agent's configuration file, to record its admission and drafting settings")
	f.StringVar(&o.out, "out", "", "write the report to PREFIX.json and PREFIX.md (default: Markdown on stdout)")
	f.Uint64Var(&o.seed, "seed", 0, "override the file's seed (0: the file's)")
	envflag.NoEnv(f, "out")
	envflag.NoEnv(f, "seed")
	return cmd
}

type benchOptions struct {
	scenarios, target, apiKey, caFile, metrics, agentConfig, out string
	seed                                                         uint64
}

func (o benchOptions) run(ctx context.Context, stdout, stderr io.Writer, argv []string) error {
	if o.scenarios == "" {
		return errors.New("--scenarios is required (EDGE_AGENT_SCENARIOS); examples are in packaging/bench/")
	}
	data, err := os.ReadFile(o.scenarios)
	if err != nil {
		return err
	}
	file, err := loadbench.Load(data)
	if err != nil {
		return fmt.Errorf("%s: %w", o.scenarios, err)
	}
	if o.seed != 0 {
		file.Seed = o.seed
	}
	base, root, err := apiRoot(o.target)
	if err != nil {
		return err
	}
	hc, err := benchHTTPClient(o.caFile)
	if err != nil {
		return err
	}
	if o.out != "" {
		for _, ext := range []string{".json", ".md"} {
			if _, err := os.Stat(o.out + ext); err == nil {
				return fmt.Errorf("--out: %s exists (a report is a record: pick a new prefix)", o.out+ext)
			}
		}
	}
	client := &loadbench.Client{Base: base, APIKey: o.apiKey, HTTP: hc}
	sum := sha256.Sum256(data)
	bi := buildinfo.Read()
	snap := loadbench.Snapshot{Started: time.Now().UTC(), Command: argv, ScenarioFile: o.scenarios,
		ScenarioSHA256: hex.EncodeToString(sum[:]), Seed: file.Seed, Target: base, Machine: loadbench.ReadMachine(),
		Binary:   loadbench.Binary{Version: bi.Version, Commit: bi.Commit, Built: bi.Date, Go: bi.GoVersion, Platform: bi.Platform},
		Declared: file.Declared, SLO: file.SLO}
	if snap.Models, err = client.Models(ctx); err != nil {
		snap.ModelsError = err.Error()
	}
	if o.agentConfig != "" {
		settings, err := agentSettings(o.agentConfig)
		if err != nil {
			return err
		}
		snap.Agent = settings
	} else {
		snap.AgentNote = "not recorded (no --agent-config)"
	}

	runner := &loadbench.Runner{Client: client, File: file}
	metricsURL := o.metrics
	if metricsURL == "" {
		metricsURL = root + "/metrics"
	}
	if metricsURL == "off" {
		snap.QueueWait = "not measurable from outside: --metrics off (the endpoint does not report a request's admission wait)"
	} else {
		qw := loadbench.MetricsQueueWait{URL: metricsURL, APIKey: o.apiKey, HTTP: hc}
		if _, err := qw.Snapshot(ctx); err != nil {
			snap.QueueWait = fmt.Sprintf("not measurable from outside: %v (the endpoint does not report a request's admission wait)", err)
		} else {
			runner.QueueWait = qw
			snap.QueueWait = "from " + metricsURL + ": the agent's sucursal_admission_queue_wait_seconds before and after each repetition (bucket upper bounds; other traffic served meanwhile is included)"
		}
	}
	if isTerminal(stderr) {
		runner.Progress = &barProgress{w: stderr}
	}
	results, err := runner.Run(ctx)
	if err != nil {
		return err
	}
	snap.Finished = time.Now().UTC()
	snap.Machine.LoadEnd = loadbench.ReadMachine().LoadStart
	report := &loadbench.Report{Snapshot: snap, File: file, Results: results}
	if o.out == "" {
		return report.WriteMarkdown(stdout)
	}
	for ext, write := range map[string]func(io.Writer) error{".json": report.WriteJSON, ".md": report.WriteMarkdown} {
		if err := writeNew(o.out+ext, write); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "wrote %s.json and %s.md\n", o.out, o.out)
	return nil
}

// apiRoot turns --target into the API root (…/v1) and the server root (for /metrics).
func apiRoot(target string) (base, root string, err error) {
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", "", fmt.Errorf("--target %q: want an http(s) URL such as http://127.0.0.1:8080 or http://vllm:8000/v1", target)
	}
	root = u.Scheme + "://" + u.Host
	p := strings.TrimRight(u.Path, "/")
	if p == "" {
		p = "/v1"
	}
	return root + p, root, nil
}

func benchHTTPClient(caFile string) (*http.Client, error) {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns, t.MaxIdleConnsPerHost = 0, 4096 // every worker keeps its connection
	if caFile != "" {
		pem, err := os.ReadFile(caFile)
		if err != nil {
			return nil, err
		}
		pool, err := x509.SystemCertPool()
		if err != nil {
			pool = x509.NewCertPool()
		}
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("%s: no PEM certificate in it", caFile)
		}
		t.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	}
	return &http.Client{Transport: t}, nil
}

// agentSettings reads the admission and draft sections of an edge-agent configuration file, as
// the file's keys (the draft section names local model URLs, never keys).
func agentSettings(path string) (map[string]any, error) {
	cfg := agent.DefaultConfig()
	if err := agent.LoadFile(path, &cfg); err != nil {
		return nil, fmt.Errorf("--agent-config: %w", err)
	}
	out := map[string]any{}
	for name, section := range map[string]any{"admission": cfg.Admission, "draft": cfg.Draft} {
		data, err := yaml.Marshal(section)
		if err != nil {
			return nil, err
		}
		var m map[string]any
		if err := yaml.Unmarshal(data, &m); err != nil {
			return nil, err
		}
		out[name] = m
	}
	return out, nil
}

// commandLine is the command as run: every flag that was set, by a flag or its environment twin,
// written as a flag — except the API key's value.
func commandLine(cmd *cobra.Command) []string {
	argv := strings.Fields(cmd.CommandPath())
	cmd.Flags().Visit(func(f *pflag.Flag) {
		v := f.Value.String()
		if f.Name == "api-key" {
			v = "$EDGE_AGENT_API_KEY"
		}
		argv = append(argv, "--"+f.Name, v)
	})
	return argv
}

func writeNew(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// barProgress is loadbench.Progress on a terminal.
type barProgress struct {
	w   io.Writer
	bar *progressbar.ProgressBar
}

func (p *barProgress) Start(label string, total int) {
	if total <= 0 {
		total = -1 // a spinner: the phase lasts a duration
	}
	p.bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(p.w), progressbar.OptionSetDescription(label),
		progressbar.OptionShowCount(), progressbar.OptionShowElapsedTimeOnFinish(), progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionOnCompletion(func() { fmt.Fprintln(p.w) }))
}

func (p *barProgress) Add(n int) { _ = p.bar.Add(n) }

func (p *barProgress) Finish() { _ = p.bar.Finish() }
