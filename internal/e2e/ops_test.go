package e2e

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	gosync "sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/sucursal/sucursal/internal/buildinfo"
	"github.com/sucursal/sucursal/internal/fleet"
	"github.com/sucursal/sucursal/internal/fleet/fleettest"
	"github.com/sucursal/sucursal/internal/fleetapi"
	"github.com/sucursal/sucursal/internal/manifest"
)

// The ops tests run a real Prometheus (2.42, fetched from Debian by scripts/fetch-prometheus.sh)
// against the real binaries and the fleet exporter: the shipped dashboard's queries and alert
// rules are checked against what the code really exports.

func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// prometheusTool returns .cache/prometheus/bin/<name>; a missing one fails the test.
func prometheusTool(t testing.TB, name string) string {
	t.Helper()
	bin := filepath.Join(repoRoot(), ".cache", "prometheus", "bin", name)
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("%s is missing (%v): run `make deps` (scripts/fetch-prometheus.sh)", name, err)
	}
	return bin
}

// promAPI is the part of Prometheus's HTTP API the tests read.
type promAPI struct{ base string }

type promSample struct {
	Metric map[string]string `json:"metric"`
	Value  [2]any            `json:"value"`
}

func (p promAPI) get(path string, q url.Values, into any) error {
	resp, err := pollClient.Get(p.base + path + "?" + q.Encode())
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var env struct {
		Status string          `json:"status"`
		Error  string          `json:"error"`
		Data   json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(body, &env); err != nil {
		return fmt.Errorf("%s: %v: %s", path, err, body)
	}
	if env.Status != "success" {
		return fmt.Errorf("%s: %s", path, env.Error)
	}
	return json.Unmarshal(env.Data, into)
}

// query runs an instant query and returns its vector (a scalar comes back as one sample).
func (p promAPI) query(expr string) ([]promSample, error) {
	var data struct {
		ResultType string          `json:"resultType"`
		Result     json.RawMessage `json:"result"`
	}
	if err := p.get("/api/v1/query", url.Values{"query": {expr}}, &data); err != nil {
		return nil, err
	}
	if data.ResultType == "scalar" {
		var v [2]any
		err := json.Unmarshal(data.Result, &v)
		return []promSample{{Value: v}}, err
	}
	var out []promSample
	err := json.Unmarshal(data.Result, &out)
	return out, err
}

type promAlert struct {
	Labels   map[string]string `json:"labels"`
	State    string            `json:"state"`
	ActiveAt time.Time         `json:"activeAt"`
}

func (p promAPI) alerts() ([]promAlert, error) {
	var data struct {
		Alerts []promAlert `json:"alerts"`
	}
	err := p.get("/api/v1/alerts", nil, &data)
	return data.Alerts, err
}

// startPrometheus runs Prometheus with config (its rule files beside it in dir).
func startPrometheus(t testing.TB, dir, config string) promAPI {
	t.Helper()
	cfg := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(cfg, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	addr := freeAddr(t, "tcp")
	startProc(t, "prometheus", prometheusTool(t, "prometheus"), "--config.file="+cfg,
		"--storage.tsdb.path="+filepath.Join(dir, "data"), "--web.listen-address="+addr, "--log.level=warn")
	waitHTTP(t, "http://"+addr+"/-/ready", 200, 30*time.Second)
	return promAPI{base: "http://" + addr}
}

// serveRegistry serves reg's /metrics on a loopback port until the test ends.
func serveRegistry(t testing.TB, reg *prometheus.Registry) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: promhttp.HandlerFor(reg, promhttp.HandlerOpts{}), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return ln.Addr().String()
}

// scrape returns the text of a /metrics page.
func scrape(t testing.TB, u string) string {
	t.Helper()
	resp, err := pollClient.Get(u)
	if err != nil {
		t.Fatalf("scrape %s: %v", u, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("scrape %s: %d %s", u, resp.StatusCode, b)
	}
	return string(b)
}

// checkMetrics runs `promtool check metrics` on a scrape (the Prometheus linter).
func checkMetrics(t testing.TB, name, text string) {
	t.Helper()
	cmd := exec.Command(prometheusTool(t, "promtool"), "check", "metrics")
	cmd.Stdin = strings.NewReader(text)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("promtool check metrics on %s: %v\n%s", name, err, out)
	}
}

// The PII the load sends: none of it, nor the prompt's words, may show in any /metrics.
var opsPII = []string{"María", "Garcia", "García", "12345678Z", "ES9121000418450200051332", "612 345 678",
	"maria.garcia@example.com", "Calle Mayor", "zanahoria", "cuántica"}

const opsPrompt = "Hola, soy María García López, DNI 12345678Z, IBAN ES9121000418450200051332, teléfono 612 345 678, " +
	"correo maria.garcia@example.com, vivo en Calle Mayor 5. Pregunta sobre la zanahoria cuántica."

// chatOnce sends one chat request (streamed or not) with the PII prompt and a user id.
func chatOnce(base string, stream bool, user string) bool {
	body, _ := json.Marshal(map[string]any{"model": "paced", "stream": stream, "user": user,
		"messages": []map[string]string{{"role": "user", "content": opsPrompt}}})
	req, _ := http.NewRequest("POST", base+"/v1/chat/completions", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := httpClient().Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode == 200
}

// opsAgent runs the released edge-agent as a fleet member: the QUIC link to the gateway and model
// sync (heartbeats) to the hub, with a short heartbeat.
func opsAgent(t testing.TB, bin, pkiDir, id, site, dc, natsURL, trusted string) (*proc, string) {
	t.Helper()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "agent.yaml")
	yml := fmt.Sprintf("sync:\n  heartbeat: 300ms\n  labels:\n    site: %s\n", site)
	if err := os.WriteFile(cfg, []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	listen := freeAddr(t, "tcp")
	p := startProc(t, id, bin, "--config", cfg, "--listen", listen, "--edge-id", id, "--dc", dc,
		"--dc-server-name", "localhost", "--pki", pkiDir, "--log-level", "warn", "--nats", natsURL,
		"--data-dir", filepath.Join(dir, "data"), "--trusted-key", trusted)
	base := "http://" + listen
	waitHTTP(t, base+"/readyz", 200, 30*time.Second)
	return p, base
}

// rulesForTest is the shipped alert rules with SucursalEdgeOffline's `for` shortened to forFor,
// so the test can see it fire in seconds; everything else is as shipped.
func rulesForTest(t testing.TB, forFor string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot(), "packaging", "prometheus", "sucursal-alerts.yml"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i := strings.Index(s, "alert: SucursalEdgeOffline")
	j := strings.Index(s[i:], "for: 1m")
	if i < 0 || j < 0 {
		t.Fatal("sucursal-alerts.yml: SucursalEdgeOffline with `for: 1m` not found")
	}
	return s[:i+j] + "for: " + forFor + s[i+j+len("for: 1m"):]
}

// panelQueries reads every query of the shipped dashboard, its variables set to "All".
func panelQueries(t testing.TB) map[string][]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot(), "packaging", "grafana", "sucursal-fleet.json"))
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Panels []struct {
			Type    string `json:"type"`
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatalf("sucursal-fleet.json: %v", err)
	}
	out := map[string][]string{}
	for _, p := range d.Panels {
		if p.Type == "row" {
			continue
		}
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no query", p.Title)
		}
		for _, tg := range p.Targets {
			out[p.Title] = append(out[p.Title], strings.NewReplacer("$site", ".*", "$edge", ".*").Replace(tg.Expr))
		}
	}
	return out
}

// A real Prometheus scrapes the fleet exporter, a dc-gateway and two edge-agents (members of the
// fleet) under a small load of requests full of personal data, with simulated edges carrying a
// role and a rollout. It checks: every /metrics passes promtool and carries none of the personal
// data; one edge-agent is killed and SucursalEdgeOffline fires for it within its stated time;
// the fleet keeps the dead edge as OFFLINE; and every query of the shipped dashboard returns data.
func TestOpsPrometheusSeesTheFleet(t *testing.T) {
	agentBin, gatewayBin := releasedBinaries(t)
	prometheusTool(t, "prometheus")
	const (
		heartbeat   = 300 * time.Millisecond
		staleAfter  = time.Second
		offlineFor  = 3 * time.Second // the exporter's offline threshold in this test (default 2 min)
		ruleFor     = 2 * time.Second // SucursalEdgeOffline's `for` in this test (shipped: 1m)
		scrapeEvery = time.Second
	)

	// The fleet: an embedded hub, a controller with its exporter, simulated edges with a role.
	env := fleettest.Start(t)
	ctx := context.Background()
	pkiDir := newPKI(t, "branch-a", "branch-b")
	env.SetDesired(t, fleetapi.LabelKey("tier", "sim", "drafter"), fleetapi.Desired{Manifest: env.Publish(t, "drafter", "1.0.0", fleettest.Artifact(1, 4000))})
	env.Publish(t, "drafter", "1.1.0", fleettest.Artifact(2, 4000))
	for i := range 3 {
		env.RunAgent(t, fmt.Sprintf("sim-%02d", i), fleettest.AgentOptions{Labels: map[string]string{"tier": "sim", "site": "sim-site"}})
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(buildinfo.Collector())
	ctl, err := fleet.NewController(env.JS, fleet.ControllerConfig{Fleet: env.Cfg, ID: "ctl-ops", LeaseTTL: 900 * time.Millisecond,
		Metrics: reg, States: fleet.Thresholds{Stale: staleAfter, Offline: offlineFor}, CertDir: pkiDir}, testLogger())
	if err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- ctl.Run(cctx) }()
	t.Cleanup(func() { cancel(); <-done })
	fleetAddr := serveRegistry(t, reg)

	// The DC and two branches, as released binaries.
	target := pacedTarget(t, 4, 2*time.Millisecond)
	gwAddr, gwMetrics := freeAddr(t, "udp"), freeAddr(t, "tcp")
	gatewayProc(t, gatewayBin, pkiDir, target, gwAddr, gwMetrics)
	waitHTTP(t, "http://"+gwMetrics+"/readyz", 200, 30*time.Second)
	pub, err := manifest.MarshalPublicKey(env.Key.Public().(ed25519.PublicKey))
	if err != nil {
		t.Fatal(err)
	}
	trusted := filepath.Join(t.TempDir(), "fleet.pub")
	if err := os.WriteFile(trusted, pub, 0o644); err != nil {
		t.Fatal(err)
	}
	_, aURL := opsAgent(t, agentBin, pkiDir, "branch-a", "madrid-01", gwAddr, env.Hub.URL(), trusted)
	bProc, bURL := opsAgent(t, agentBin, pkiDir, "branch-b", "bilbao-02", gwAddr, env.Hub.URL(), trusted)

	if _, err := fleet.StartRollout(ctx, env.JS, env.Cfg, fleet.StartRequest{Role: "drafter", Version: "1.1.0",
		Waves: []float64{50, 100}, Selector: map[string]string{"tier": "sim"}, Key: env.Key, Soak: time.Hour}); err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "rules.yml"), []byte(rulesForTest(t, ruleFor.String())), 0o644); err != nil {
		t.Fatal(err)
	}
	prom := startPrometheus(t, dir, fmt.Sprintf(`global: {scrape_interval: %s, evaluation_interval: %s}
rule_files: [rules.yml]
scrape_configs:
  - {job_name: sucursal-fleet, static_configs: [{targets: [%q]}]}
  - {job_name: sucursal-gateway, static_configs: [{targets: [%q]}]}
  - {job_name: sucursal-edge, static_configs: [{targets: [%q, %q]}]}
`, scrapeEvery, scrapeEvery, fleetAddr, gwMetrics, strings.TrimPrefix(aURL, "http://"), strings.TrimPrefix(bURL, "http://")))

	// A small load for the whole test: both branches until one dies, then the survivor.
	loadCtx, stopLoad := context.WithCancel(ctx)
	var loadWG gosync.WaitGroup
	var okMu gosync.Mutex
	ok, sent := 0, 0
	load := func(base string, stopOnDead bool) {
		defer loadWG.Done()
		for i := 0; loadCtx.Err() == nil; i++ {
			good := chatOnce(base, i%2 == 0, fmt.Sprintf("user-%d", i%7))
			okMu.Lock()
			sent++
			if good {
				ok++
			}
			okMu.Unlock()
			if stopOnDead && !good {
				return
			}
			select {
			case <-loadCtx.Done():
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
	loadWG.Add(2)
	go load(aURL, false)
	go load(bURL, true)
	t.Cleanup(func() { stopLoad(); loadWG.Wait() })

	fleettest.Eventually(t, "both edge-agents' SLO summaries in Prometheus", func() bool {
		s, err := prom.query(`sucursal_fleet_edge_window_requests{edge=~"branch-a|branch-b"} > 0`)
		return err == nil && len(s) == 2
	})
	okMu.Lock()
	if ok == 0 || ok < sent*9/10 {
		t.Fatalf("the load mostly failed: %d of %d requests answered", ok, sent)
	}
	okMu.Unlock()

	// No personal data in any /metrics, and each passes promtool.
	pages := map[string]string{"fleet exporter": "http://" + fleetAddr + "/metrics", "dc-gateway": "http://" + gwMetrics + "/metrics",
		"edge-agent branch-a": aURL + "/metrics", "edge-agent branch-b": bURL + "/metrics"}
	for name, u := range pages {
		text := scrape(t, u)
		for _, v := range opsPII {
			if strings.Contains(text, v) {
				t.Errorf("%s /metrics contains %q", name, v)
			}
		}
		checkMetrics(t, name, text)
		for _, want := range []string{"sucursal_build_info{", "sucursal_certificate_expiry_timestamp_seconds{"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s /metrics has no %s…}", name, want)
			}
		}
	}

	// Kill branch-b; SucursalEdgeOffline must fire within its stated time, counted from the
	// edge's last heartbeat: offline threshold + one scrape + one evaluation (pending) + `for`
	// + one evaluation (firing).
	bProc.kill()
	var fired promAlert
	deadline := time.Now().Add(60 * time.Second)
	for fired.State != "firing" {
		if time.Now().After(deadline) {
			as, _ := prom.alerts()
			t.Fatalf("SucursalEdgeOffline did not fire for branch-b within 60 s; alerts: %+v", as)
		}
		time.Sleep(100 * time.Millisecond)
		as, err := prom.alerts()
		if err != nil {
			continue
		}
		for _, a := range as {
			if a.Labels["alertname"] == "SucursalEdgeOffline" && a.Labels["edge"] == "branch-b" {
				fired = a
			}
		}
	}
	firedSeen := time.Now()
	heard, err := prom.query(`sucursal_fleet_edge_last_heard_timestamp_seconds{edge="branch-b"}`)
	if err != nil || len(heard) != 1 {
		t.Fatalf("last heard of branch-b: %v %v", heard, err)
	}
	lastHeard := unixSeconds(t, heard[0])
	stated := offlineFor + scrapeEvery + scrapeEvery + ruleFor + scrapeEvery
	took := firedSeen.Sub(lastHeard)
	t.Logf("SucursalEdgeOffline fired %s after branch-b's last heartbeat (stated: %s = offline %s + scrape %s + eval %s + for %s + eval %s); active at +%s",
		took.Round(10*time.Millisecond), stated, offlineFor, scrapeEvery, scrapeEvery, ruleFor, scrapeEvery, fired.ActiveAt.Sub(lastHeard).Round(10*time.Millisecond))
	if slack := 2 * time.Second; took > stated+slack {
		t.Errorf("SucursalEdgeOffline fired %s after the last heartbeat; stated %s (+%s slack for this shared machine)", took, stated, slack)
	}
	if fired.Labels["site"] != "bilbao-02" || fired.Labels["severity"] != "page" || fired.Labels["runbook"] != "RB-01" {
		t.Errorf("alert labels %v", fired.Labels)
	}

	// The fleet keeps the dead edge, OFFLINE, and the living one ONLINE.
	edges, err := fleet.ReadFleet(ctx, env.JS, env.Cfg, fleet.Thresholds{Stale: staleAfter, Offline: offlineFor}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	states := map[string]string{}
	for _, e := range edges {
		states[e.EdgeID] = e.State
	}
	if states["branch-b"] != fleet.EdgeOffline || states["branch-a"] != fleet.EdgeOnline || len(states) != 5 {
		t.Errorf("fleet states %v", states)
	}

	// Every dashboard query returns data from this Prometheus (rates need a few scrapes after
	// the kill; retry for a while before calling a panel empty).
	queries := panelQueries(t)
	var empty []string
	for round := 0; round == 0 || (len(empty) > 0 && round < 30); round++ {
		if round > 0 {
			time.Sleep(time.Second)
		}
		empty = empty[:0]
		for title, exprs := range queries {
			for _, e := range exprs {
				s, err := prom.query(e)
				if err != nil {
					t.Fatalf("panel %q: query %s: %v", title, e, err)
				}
				if len(s) == 0 {
					empty = append(empty, fmt.Sprintf("%q: %s", title, e))
				}
			}
		}
	}
	if len(empty) > 0 {
		t.Errorf("panels without data:\n%s", strings.Join(empty, "\n"))
	}
	t.Logf("%d panels, every query answered", len(queries))
}

func unixSeconds(t testing.TB, s promSample) time.Time {
	t.Helper()
	str, _ := s.Value[1].(string)
	f, err := strconv.ParseFloat(str, 64)
	if err != nil {
		t.Fatalf("sample %v: %v", s, err)
	}
	return time.UnixMilli(int64(f * 1000))
}
