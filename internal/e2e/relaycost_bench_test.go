package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/pki"
)

// BenchmarkRelayCost measures what the relay costs per streamed chunk (issue #20), beside
// Debian's nginx doing the same relaying, all in one run over loopback:
//
//   - direct: the client reads the paced target itself (the TTFT baseline);
//   - nginx-1hop: one nginx 1.22 (bookworm's nginx-light), proxy_buffering off;
//   - nginx-2hop-tls: two nginx in series, mutual TLS between them (the relay's layout: a branch
//     proxy and a datacenter proxy with a certificate each), upstream keep-alive on both hops;
//   - relay: edge-agent → QUIC mTLS → dc-gateway, the released binaries as processes.
//
// The target (in the test process, not measured) streams OpenAI chunks one every 2 ms or 20 ms.
// Per cell (pacing × concurrent streams) the systems are measured in turn, RELAYCOST_ROUNDS
// times (default 2: A B A B), and it prints the relay processes' CPU per chunk (the sum over
// every thread of /proc/<pid>/task/*/schedstat's run time: nanoseconds, not ticks), context
// switches per chunk (voluntary + involuntary, every thread of every process of the system) and
// the p50 time to first token added over direct. RELAYCOST_CELLS (e.g. "20ms:1,2ms:32") picks
// cells. Two more relays can join the same run: RELAYCOST_BASELINE=<dir> runs the edge-agent and
// dc-gateway binaries in dir as "relay-base" (a build of an older commit, for before/after; more
// dirs separated by ';' run as "relay-base2", "relay-base3"…, e.g. to tell apart commits), and
// RELAYCOST_VARIANT="GOMAXPROCS=1;GOMAXPROCS=1 GODEBUG=…" runs this tree's binaries once per
// ';'-separated environment, as "relay-v1", "relay-v2"… This tree's relay and its variants run
// on the timer slack of the packaged units (TimerSlackNSec=, every thread), baselines on Linux's
// default; a TIMERSLACK=<duration> word in an entry of either list overrides it (e.g.
// RELAYCOST_BASELINE="/tmp/old TIMERSLACK=1ms", RELAYCOST_VARIANT="TIMERSLACK=0").
// RELAYCOST_PIDS=<file> writes each system's process ids there, for a profiler attached from
// outside. The table is printed with -v (the
// benchmark's log is cut short without it). nginx must have been fetched
// (scripts/fetch-nginx.sh, part of make deps): without it the benchmark fails.
//
//	go test ./internal/e2e -run '^$' -bench BenchmarkRelayCost -benchtime 1x -timeout 20m
func BenchmarkRelayCost(b *testing.B) {
	rounds := 2
	if v, err := strconv.Atoi(os.Getenv("RELAYCOST_ROUNDS")); err == nil && v > 0 {
		rounds = v
	}
	nginxBin := nginxPath(b)
	agentBin, gatewayBin := releasedBinaries(b)
	pkiDir := newPKI(b)
	target := relayTarget(b)
	targetURL := "http://" + target

	// The relay's processes run on the timer slack the packaged units give them (TimerSlackNSec=
	// in packaging/systemd), each its own unit's; a TIMERSLACK=<duration> word in a baseline's or
	// a variant's entry gives both processes that slack instead (TIMERSLACK=0: the test's own,
	// Linux's default 50µs). Checked on every thread after the start, and logged.
	agentSlack, gatewaySlack := unitTimerSlack(b, "edge-agent.service"), unitTimerSlack(b, "dc-gateway.service")
	relay := func(name, agentBin, gatewayBin string, words []string, agentSlack, gatewaySlack time.Duration) relaySystem {
		var env []string
		for _, w := range words {
			if v, ok := strings.CutPrefix(w, "TIMERSLACK="); ok {
				d, err := time.ParseDuration(v)
				if err != nil {
					b.Fatalf("%s: %s: %v", name, w, err)
				}
				agentSlack, gatewaySlack = d, d
				continue
			}
			env = append(env, w)
		}
		gwAddr, gwMetrics, listen := freeAddr(b, "udp"), freeAddr(b, "tcp"), freeAddr(b, "tcp")
		gw := startProcSlack(b, name+"/dc-gateway", gatewayBin, gatewaySlack, env, "--listen", gwAddr, "--pki", pkiDir,
			"--target-url", targetURL+"/v1", "--metrics-listen", gwMetrics, "--log-level", "warn")
		ag := startProcSlack(b, name+"/edge-agent", agentBin, agentSlack, env, "--listen", listen, "--edge-id", edgeID, "--dc", gwAddr,
			"--dc-server-name", "localhost", "--pki", pkiDir, "--log-level", "warn")
		waitHTTP(b, "http://"+listen+"/readyz", http.StatusOK, 30*time.Second)
		for _, p := range []*proc{ag, gw} {
			sl, err := threadSlacks(p.cmd.Process.Pid)
			if err != nil {
				b.Fatal(err)
			}
			b.Logf("%s: threads' timer slack %v, env %q", p.name, sl, env)
		}
		return relaySystem{name: name, url: "http://" + listen, pids: []int{ag.cmd.Process.Pid, gw.cmd.Process.Pid}}
	}
	relays := []relaySystem{relay("relay", agentBin, gatewayBin, nil, agentSlack, gatewaySlack)}
	if dirs := os.Getenv("RELAYCOST_BASELINE"); dirs != "" {
		// A baseline is a build of an older commit: its processes get no slack of their own
		// (units had none before TimerSlackNSec=) unless its entry says TIMERSLACK=.
		for i, entry := range strings.Split(dirs, ";") {
			name := "relay-base"
			if i > 0 {
				name += strconv.Itoa(i + 1)
			}
			words := strings.Fields(entry)
			if len(words) == 0 {
				b.Fatalf("RELAYCOST_BASELINE entry %d is empty", i+1)
			}
			dir := words[0]
			relays = append(relays, relay(name, filepath.Join(dir, "edge-agent"), filepath.Join(dir, "dc-gateway"), words[1:], 0, 0))
		}
	}
	if v := os.Getenv("RELAYCOST_VARIANT"); v != "" {
		for i, env := range strings.Split(v, ";") {
			relays = append(relays, relay(fmt.Sprintf("relay-v%d", i+1), agentBin, gatewayBin, strings.Fields(env), agentSlack, gatewaySlack))
		}
	}

	n1 := startNginx(b, nginxBin, "nginx-1hop", nginx1Hop(freeAddr(b, "tcp"), target))
	dcAddr, branchAddr := freeAddr(b, "tcp"), freeAddr(b, "tcp")
	n2dc := startNginx(b, nginxBin, "nginx-dc", nginxDCHop(dcAddr, target, pkiDir))
	n2br := startNginx(b, nginxBin, "nginx-branch", nginxBranchHop(branchAddr, dcAddr, pkiDir))

	systems := []relaySystem{
		{name: "direct", url: targetURL},
		{name: "nginx-1hop", url: "http://" + n1.addr, pids: []int{n1.pid}},
		{name: "nginx-2hop-tls", url: "http://" + branchAddr, pids: []int{n2br.pid, n2dc.pid}},
	}
	systems = append(systems, relays...)
	if f := os.Getenv("RELAYCOST_PIDS"); f != "" {
		// For a profiler attached from outside (perf, strace): "system pid pid…" per line.
		var sb strings.Builder
		for _, s := range systems[1:] {
			fmt.Fprintf(&sb, "%s", s.name)
			for _, pid := range s.pids {
				fmt.Fprintf(&sb, " %d", pid)
			}
			sb.WriteString("\n")
		}
		if err := os.WriteFile(f, []byte(sb.String()), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for _, s := range systems[1:] {
		if _, _, err := relayRequest(context.Background(), s.url, "p20", 2); err != nil {
			b.Fatalf("%s does not relay: %v", s.name, err)
		}
	}
	type cell struct {
		gap     time.Duration
		streams int
	}
	var cells []cell
	for _, gap := range []time.Duration{20 * time.Millisecond, 2 * time.Millisecond} {
		for _, n := range []int{1, 8, 32} {
			cells = append(cells, cell{gap, n})
		}
	}
	if only := os.Getenv("RELAYCOST_CELLS"); only != "" { // e.g. "20ms:1,2ms:32", to look at a few cells
		cells = slices.DeleteFunc(cells, func(c cell) bool {
			return !slices.Contains(strings.Split(only, ","), fmt.Sprintf("%v:%d", c.gap, c.streams))
		})
	}
	// What each system spends with nothing to relay (the link's pings, timers), for the record:
	// it is part of the per-chunk figures, more so at one slow stream.
	for _, s := range systems[1:] {
		cpu0, cs0, _ := procCost(s.pids)
		time.Sleep(2 * time.Second)
		cpu1, cs1, _ := procCost(s.pids)
		b.Logf("%s idle: %.0f µs CPU and %.1f context switches per second", s.name, float64(cpu1-cpu0)/2000, float64(cs1-cs0)/2)
	}
	for range b.N {
		load, _ := os.ReadFile("/proc/loadavg")
		b.Logf("load average at start: %s", strings.TrimSpace(string(load)))
		var lines []string
		for _, c := range cells {
			// A request lasts about 0.6 s (30 or 300 chunks); one stream sends 8 in a row, more
			// streams fewer each.
			chunks := int(600 * time.Millisecond / c.gap)
			perStream := max(2, 8/c.streams)
			res := make([]relayResult, len(systems))
			for range rounds {
				for i, s := range systems {
					r, err := measureRelay(s, c.gap, chunks, c.streams, perStream)
					if err != nil {
						if r.failed == 0 { // nothing was measured: the processes are gone
							b.Fatalf("%s, %v pacing, %d streams: %v", s.name, c.gap, c.streams, err)
						}
						// A turn where every request failed is counted (the table says how many
						// failed, and why the first did): the other systems' figures still stand.
						b.Logf("%s, %v pacing, %d streams: %v", s.name, c.gap, c.streams, err)
					}
					res[i].add(r)
				}
			}
			direct := res[0].ttftP50()
			for i, s := range systems[1:] {
				r := res[i+1]
				line := fmt.Sprintf("%-5v %3d  %-15s %8.1f %8.2f %10.3f",
					c.gap, c.streams, s.name, r.cpuPerChunk(), r.switchesPerChunk(),
					float64((r.ttftP50()-direct).Microseconds())/1000)
				if r.failed > 0 {
					line += fmt.Sprintf("  (%d of %d requests failed, the first: %v)", r.failed, r.failed+len(r.ttfts), r.firstErr)
				}
				lines = append(lines, line)
				if s.name != "nginx-1hop" {
					unit := fmt.Sprintf("%s-%dms-%d", s.name, c.gap.Milliseconds(), c.streams)
					b.ReportMetric(r.cpuPerChunk(), unit+"-cpu-us/chunk")
					b.ReportMetric(r.switchesPerChunk(), unit+"-cs/chunk")
				}
			}
		}
		load, _ = os.ReadFile("/proc/loadavg")
		b.Logf("pacing streams system  CPU-µs/chunk  cs/chunk  TTFT+ms(p50)\n%s\nload average at end: %s",
			strings.Join(lines, "\n"), strings.TrimSpace(string(load)))
	}
}

type relaySystem struct {
	name string
	url  string
	pids []int // the processes whose threads are counted (none for direct)
}

// unitTimerSlack is TimerSlackNSec= of packaging/systemd/unit (0 if it sets none).
func unitTimerSlack(t testing.TB, unit string) time.Duration {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	raw, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "..", "packaging", "systemd", unit))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(raw), "\n") {
		v, ok := strings.CutPrefix(strings.TrimSpace(line), "TimerSlackNSec=")
		if !ok {
			continue
		}
		if n, err := strconv.ParseInt(v, 10, 64); err == nil { // a bare number is nanoseconds
			return time.Duration(n)
		}
		d, err := time.ParseDuration(v) // 1ms, 500us (the units use Go-compatible spans)
		if err != nil {
			t.Fatalf("%s: TimerSlackNSec=%s: %v", unit, v, err)
		}
		return d
	}
	return 0
}

// relayResult adds up one system's rounds in a cell.
type relayResult struct {
	cpuNanos, switches int64
	chunks             int
	ttfts              []time.Duration
	failed             int   // requests that did not end with every chunk and [DONE]
	firstErr           error // the first of them
}

func (r *relayResult) add(o relayResult) {
	r.cpuNanos += o.cpuNanos
	r.switches += o.switches
	r.chunks += o.chunks
	r.ttfts = append(r.ttfts, o.ttfts...)
	r.failed += o.failed
	if r.firstErr == nil {
		r.firstErr = o.firstErr
	}
}

func (r relayResult) cpuPerChunk() float64 { return float64(r.cpuNanos) / 1000 / float64(r.chunks) }
func (r relayResult) switchesPerChunk() float64 {
	return float64(r.switches) / float64(r.chunks)
}
func (r relayResult) ttftP50() time.Duration {
	if len(r.ttfts) == 0 {
		return 0
	}
	return quantile(sorted(r.ttfts), 0.5)
}

// measureRelay runs streams concurrent clients, each sending perStream requests of chunks chunks
// in a row, and counts what the system's processes spent meanwhile.
func measureRelay(s relaySystem, gap time.Duration, chunks, streams, perStream int) (relayResult, error) {
	model := "p" + strconv.Itoa(int(gap.Milliseconds()))
	cpu0, cs0, err := procCost(s.pids)
	if err != nil {
		return relayResult{}, err
	}
	var mu sync.Mutex
	var out relayResult
	var firstErr error
	var wg sync.WaitGroup
	for range streams {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range perStream {
				ttft, got, err := relayRequest(context.Background(), s.url, model, chunks)
				mu.Lock()
				out.chunks += got
				if err != nil {
					out.failed++
					if firstErr == nil {
						firstErr = err
					}
				} else {
					out.ttfts = append(out.ttfts, ttft)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	cpu1, cs1, err := procCost(s.pids)
	out.cpuNanos, out.switches = cpu1-cpu0, cs1-cs0
	if err == nil && len(out.ttfts) == 0 {
		err = fmt.Errorf("every request failed, the first with: %w", firstErr)
	}
	out.firstErr = firstErr
	return out, err
}

var relayClient = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64, DisableCompression: true}}

// relayRequest streams one answer of chunks chunks and returns the time to its first chunk and
// how many chunks came.
func relayRequest(ctx context.Context, url, model string, chunks int) (ttft time.Duration, got int, err error) {
	body := fmt.Sprintf(`{"model":%q,"stream":true,"max_tokens":%d,"messages":[{"role":"user","content":"a"}]}`, model, chunks)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url+"/v1/chat/completions", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	start := time.Now()
	resp, err := relayClient.Do(req)
	if err != nil {
		return 0, 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		raw, _ := io.ReadAll(resp.Body)
		return 0, 0, fmt.Errorf("status %d: %.200s", resp.StatusCode, raw)
	}
	br := bufio.NewReader(resp.Body)
	for {
		line, err := br.ReadSlice('\n')
		if err != nil {
			return ttft, got, fmt.Errorf("after %d of %d chunks: %w", got, chunks, err)
		}
		switch {
		case string(line) == "data: [DONE]\n":
			if got != chunks {
				return ttft, got, fmt.Errorf("[DONE] after %d of %d chunks", got, chunks)
			}
			return ttft, got, nil
		case strings.HasPrefix(string(line), "data: {\"error"):
			return ttft, got, fmt.Errorf("stream error: %.200s", line)
		case strings.HasPrefix(string(line), "data: "):
			if got == 0 {
				ttft = time.Since(start)
			}
			got++
		}
	}
}

// procCost sums, over every thread of pids, the time on CPU (schedstat, ns) and the context
// switches (voluntary + involuntary). nginx's workers are found as the master's children.
func procCost(pids []int) (cpuNanos, switches int64, err error) {
	var all []int
	for _, pid := range pids {
		all = append(all, pid)
		all = append(all, childPids(pid)...)
	}
	for _, pid := range all {
		tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
		if err != nil {
			return 0, 0, err
		}
		for _, t := range tasks {
			dir := fmt.Sprintf("/proc/%d/task/%s/", pid, t.Name())
			ss, err := os.ReadFile(dir + "schedstat")
			if err != nil {
				continue // the thread ended meanwhile
			}
			if f := strings.Fields(string(ss)); len(f) > 0 {
				n, _ := strconv.ParseInt(f[0], 10, 64)
				cpuNanos += n
			}
			st, err := os.ReadFile(dir + "status")
			if err != nil {
				continue
			}
			for _, line := range strings.Split(string(st), "\n") {
				if v, ok := strings.CutPrefix(line, "voluntary_ctxt_switches:"); ok {
					n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
					switches += n
				} else if v, ok := strings.CutPrefix(line, "nonvoluntary_ctxt_switches:"); ok {
					n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
					switches += n
				}
			}
		}
	}
	return cpuNanos, switches, nil
}

func childPids(pid int) []int {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid))
	if err != nil {
		return nil
	}
	var out []int
	for _, f := range strings.Fields(string(raw)) {
		if n, err := strconv.Atoi(f); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// relayTarget is an OpenAI-compatible target pacing its chunks: model "p<N>" streams one chunk
// every N ms, max_tokens chunks in all. It runs in its own goroutines in the test process, whose
// CPU is not counted.
func relayTarget(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/models":
			_, _ = io.WriteString(w, `{"object":"list","data":[{"id":"p2","object":"model"},{"id":"p20","object":"model"}]}`)
			return
		case "/v1/chat/completions":
		default:
			http.NotFound(w, r)
			return
		}
		var req struct {
			Model     string `json:"model"`
			MaxTokens int    `json:"max_tokens"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, `{"error":{"message":"bad json","type":"invalid_request_error","code":"bad_json"}}`, http.StatusBadRequest)
			return
		}
		ms, _ := strconv.Atoi(strings.TrimPrefix(req.Model, "p"))
		gap := time.Duration(max(ms, 1)) * time.Millisecond
		w.Header().Set("Content-Type", "text/event-stream")
		fl := w.(http.Flusher)
		for i := range req.MaxTokens {
			time.Sleep(gap)
			if r.Context().Err() != nil {
				return
			}
			finish := "null"
			if i == req.MaxTokens-1 {
				finish = `"stop"`
			}
			fmt.Fprintf(w, "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":%q,\"choices\":[{\"index\":0,\"delta\":{\"content\":\"word%d \"},\"finish_reason\":%s}]}\n\n", req.Model, i, finish)
			fl.Flush()
		}
		_, _ = io.WriteString(w, "data: [DONE]\n\n")
		fl.Flush()
	})}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return ln.Addr().String()
}

// nginxPath is the nginx scripts/fetch-nginx.sh unpacked into .cache/nginx; the benchmark fails
// without it.
func nginxPath(t testing.TB) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	p := filepath.Join(filepath.Dir(file), "..", "..", ".cache", "nginx", "bin", "nginx")
	if out, err := exec.Command(p, "-v").CombinedOutput(); err != nil {
		t.Fatalf("nginx is missing (run scripts/fetch-nginx.sh, or make deps): %s: %v %s", p, err, out)
	}
	return p
}

type nginxProc struct {
	addr string
	pid  int
}

// startNginx runs nginx in the foreground with the http block body (one worker: it does the
// relaying; the master is counted too, it idles).
func startNginx(t testing.TB, bin, name, body string) nginxProc {
	t.Helper()
	dir := t.TempDir()
	conf := fmt.Sprintf(`daemon off;
worker_processes 1;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path %[1]s/body;
  proxy_temp_path %[1]s/proxy;
  fastcgi_temp_path %[1]s/fastcgi;
  uwsgi_temp_path %[1]s/uwsgi;
  scgi_temp_path %[1]s/scgi;
%[2]s
}
`, dir, body)
	f := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(f, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	// Its own process group, output to a file: on cleanup the master is told to stop (SIGTERM
	// takes its worker with it), and whatever is left of the group is killed.
	logf, err := os.Create(filepath.Join(dir, "stderr.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-p", dir, "-c", f, "-e", filepath.Join(dir, "error.log"))
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(5 * time.Second):
		}
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
		logf.Close()
	})
	addr := nginxListen(body)
	deadline := time.Now().Add(10 * time.Second)
	for {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			out, _ := os.ReadFile(filepath.Join(dir, "stderr.log"))
			log, _ := os.ReadFile(filepath.Join(dir, "error.log"))
			t.Fatalf("%s did not listen on %s: %s %s", name, addr, out, log)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The wrapper script execs the loader, which runs nginx in the same process.
	return nginxProc{addr: addr, pid: cmd.Process.Pid}
}

func nginxListen(body string) string {
	_, rest, _ := strings.Cut(body, "listen ")
	addr, _, _ := strings.Cut(rest, ";")
	return strings.Fields(addr)[0]
}

const nginxProxyCommon = `
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_buffering off;
      proxy_request_buffering off;`

func nginx1Hop(listen, target string) string {
	return fmt.Sprintf(`
  upstream target { server %s; keepalive 64; }
  server {
    listen %s;
    location / {
      proxy_pass http://target;%s
    }
  }`, target, listen, nginxProxyCommon)
}

// nginxDCHop is the datacenter side: TLS with a client certificate required, then the target.
func nginxDCHop(listen, target, pkiDir string) string {
	return fmt.Sprintf(`
  upstream target { server %s; keepalive 64; }
  server {
    listen %s ssl;
    ssl_certificate %s;
    ssl_certificate_key %s;
    ssl_client_certificate %s;
    ssl_verify_client on;
    ssl_protocols TLSv1.3;
    keepalive_requests 100000;
    location / {
      proxy_pass http://target;%s
    }
  }`, target, listen, filepath.Join(pkiDir, pki.DCCertFile), filepath.Join(pkiDir, pki.DCKeyFile),
		filepath.Join(pkiDir, pki.CACertFile), nginxProxyCommon)
}

// nginxBranchHop is the branch side: plain HTTP from the user, TLS with its own certificate to
// the datacenter hop, which it verifies.
func nginxBranchHop(listen, dc, pkiDir string) string {
	return fmt.Sprintf(`
  upstream dc { server %s; keepalive 64; keepalive_requests 100000; }
  server {
    listen %s;
    location / {
      proxy_pass https://dc;%s
      proxy_ssl_certificate %s;
      proxy_ssl_certificate_key %s;
      proxy_ssl_trusted_certificate %s;
      proxy_ssl_verify on;
      proxy_ssl_name localhost;
      proxy_ssl_protocols TLSv1.3;
      proxy_ssl_session_reuse on;
    }
  }`, dc, listen, nginxProxyCommon, pki.EdgeCertPath(pkiDir, edgeID), pki.EdgeKeyPath(pkiDir, edgeID),
		filepath.Join(pkiDir, pki.CACertFile))
}
