package e2e

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/quic-go/quic-go"

	"github.com/sucursal/sucursal/internal/agent"
	"github.com/sucursal/sucursal/internal/pki"
	"github.com/sucursal/sucursal/internal/wire"
)

// helloEdge opens edge id's QUIC + mTLS connection (its own fleet certificate) and sends the
// hello the real edge sends, offering the control stream; when the gateway keeps it, the edge
// pings on it every 500 ms (link.ping_interval's default) until the connection ends, as an idle
// real edge does. With a gateway that offers heartbeats the edge asks for one every 500 ms
// instead and pings no more, as a real edge does, unless pingsOnly (an edge of an older build).
func helloEdge(ctx context.Context, pkiDir, id, addr string, pingsOnly bool) (*quic.Conn, error) {
	conf, err := pki.ClientTLS(pkiDir, id)
	if err != nil {
		return nil, err
	}
	conf.ServerName = "localhost"
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	conn, err := quic.DialAddr(ctx, addr, conf, &quic.Config{MaxIdleTimeout: time.Minute, KeepAlivePeriod: 15 * time.Second})
	if err != nil {
		return nil, err
	}
	str, err := conn.OpenStreamSync(ctx)
	if err == nil {
		err = wire.WriteJSON(str, wire.TypeHello, wire.Hello{Version: wire.Version, EdgeID: id, Features: []string{wire.FeatureControl}})
	}
	var ack wire.HelloAck
	fr := wire.NewReader(str)
	if err == nil {
		var f wire.Frame
		if f, err = fr.Read(); err == nil && f.Type != wire.TypeHelloAck {
			err = fmt.Errorf("got %v, not a hello ack", f.Type)
		} else if err == nil {
			err = f.Decode(&ack)
		}
	}
	if err != nil {
		conn.CloseWithError(0, "")
		return nil, err
	}
	if wire.HasFeature(ack.Features, wire.FeatureControl) {
		go func() { // pongs: read and dropped
			for {
				if _, err := fr.Read(); err != nil {
					return
				}
			}
		}()
		if wire.HasFeature(ack.Features, wire.FeatureHeartbeat) && !pingsOnly {
			if err := wire.WriteJSON(str, wire.TypePing, wire.Ping{Seq: 1, HeartbeatMillis: 500}); err != nil {
				conn.CloseWithError(0, "")
				return nil, err
			}
			return conn, nil
		}
		go func() {
			t := time.NewTicker(500 * time.Millisecond)
			defer t.Stop()
			for seq := uint64(1); ; seq++ {
				select {
				case <-conn.Context().Done():
					return
				case <-t.C:
				}
				if wire.WriteJSON(str, wire.TypePing, wire.Ping{Seq: seq}) != nil {
					return
				}
			}
		}()
	}
	return conn, nil
}

// rssOf is a process's resident set in bytes (VmRSS).
func rssOf(pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(data)) {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// BenchmarkGatewayManyEdges: one dc-gateway process (the released binary) and GATEWAY_EDGES
// (default 1 000) edges, each with its own fleet certificate, opening QUIC + mTLS connections 8
// at a time and saying hello, then staying idle as a real edge is (heartbeats every 500 ms on the
// control stream, or pings with a gateway that does not offer them). It reports the handshake
// rate (TLS 1.3 with client certificates verified against the fleet CA, plus the hello round
// trip), the gateway's resident memory per idle connection (RSS with all connected minus RSS
// with one, divided by the rest) just after connecting and over GATEWAY_IDLE (default 2m30s,
// more than the runtime's forced-GC period; 0 skips it) with the gateway's heap, stacks, GCs,
// allocation and CPU meanwhile, and the latency and gateway CPU of short requests from a real
// edge-agent through the same gateway while the others are connected. Run once:
//
//	go test ./internal/e2e -run '^$' -bench BenchmarkGatewayManyEdges -benchtime 1x
//
// GATEWAY_BIN runs another dc-gateway build instead (a before/after in one session);
// GATEWAY_EDGE_PINGS=1 makes the edges ping as builds before heartbeats did;
// GATEWAY_PPROF=host:port saves the gateway's heap profile and goroutines, after the idle time,
// into GATEWAY_PPROF_DIR (a build with a pprof listener: docs/SCALE.md).
func BenchmarkGatewayManyEdges(b *testing.B) {
	n := envN("GATEWAY_EDGES", 1000)
	idle := 150 * time.Second
	if v := os.Getenv("GATEWAY_IDLE"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			b.Fatalf("GATEWAY_IDLE: %v", err)
		}
		idle = d
	}
	pingsOnly := os.Getenv("GATEWAY_EDGE_PINGS") != "" // edges of a build before heartbeats
	agentBin, gatewayBin := releasedBinaries(b)
	if v := os.Getenv("GATEWAY_BIN"); v != "" { // another build of dc-gateway, for a before/after
		gatewayBin = v
	}
	ids := []string{edgeID}
	for i := range n {
		ids = append(ids, fmt.Sprintf("nuc-%04d", i))
	}
	t0 := time.Now()
	pkiDir := newPKI(b, ids...)
	b.Logf("fleet PKI with %d edge certificates in %v", len(ids), time.Since(t0).Round(time.Millisecond))
	target := pacedTarget(b, 3, time.Millisecond)
	gwAddr, gwMetrics, listen := freeAddr(b, "udp"), freeAddr(b, "tcp"), freeAddr(b, "tcp")
	gw := gatewayProc(b, gatewayBin, pkiDir, target, gwAddr, gwMetrics)
	waitHTTP(b, "http://"+gwMetrics+"/readyz", http.StatusOK, 30*time.Second)

	for range b.N {
		ctx := context.Background()
		first, err := helloEdge(ctx, pkiDir, ids[1], gwAddr, pingsOnly)
		if err != nil {
			b.Fatalf("first edge: %v", err)
		}
		time.Sleep(time.Second)
		base := rssOf(gw.cmd.Process.Pid)
		conns := make([]*quic.Conn, n)
		conns[0] = first
		var next atomic.Int64
		next.Store(1)
		var wg sync.WaitGroup
		var mu sync.Mutex
		var hs []time.Duration
		var failures []error
		start := time.Now()
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
					s := time.Now()
					c, err := helloEdge(ctx, pkiDir, ids[i+1], gwAddr, pingsOnly)
					mu.Lock()
					if err != nil {
						failures = append(failures, fmt.Errorf("%s: %w", ids[i+1], err))
					} else {
						conns[i] = c
						hs = append(hs, time.Since(s))
					}
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		elapsed := time.Since(start)
		if len(failures) > 0 {
			b.Fatalf("%d of %d handshakes failed, first: %v", len(failures), n-1, errors.Join(failures[0]))
		}
		time.Sleep(2 * time.Second) // let the gateway's per-connection goroutines settle
		all := rssOf(gw.cmd.Process.Pid)
		perConn := float64(all-base) / float64(n-1)
		connected := gatewayRuntime(b, gwMetrics)
		b.Logf("just connected: gateway RSS %.1f MiB with 1 edge, %.1f MiB with %d: %.1f KiB per idle connection; %s",
			float64(base)/(1<<20), float64(all)/(1<<20), n, perConn/1024, connected.perConn(n))
		// Steady state: an idle fleet stays connected for hours. The runtime forces a GC every 2
		// minutes when nothing else triggers one, stacks shrink at a GC, and the scavenger returns
		// freed pages to the OS; what the gateway holds after that is what an idle edge costs.
		steadyPerConn, idleCPURate := perConn, 0.0
		if idle > 0 {
			// RSS moves with the GC cycle: its mean over the second half of the idle time is the
			// figure, its peak over the whole of it what a gateway must be given.
			var sum, peak int64
			var samples int
			for start := time.Now(); time.Since(start) < idle; time.Sleep(time.Second) {
				r := rssOf(gw.cmd.Process.Pid)
				peak = max(peak, r)
				if time.Since(start) >= idle/2 {
					sum, samples = sum+r, samples+1
				}
			}
			steady := sum / int64(max(samples, 1))
			steadyPerConn = float64(steady-base) / float64(n-1)
			peakPerConn := float64(peak-base) / float64(n-1)
			after := gatewayRuntime(b, gwMetrics)
			cpu := after.cpuSeconds - connected.cpuSeconds
			idleCPURate = cpu / idle.Seconds()
			b.Logf("idle for %v: gateway RSS %.1f MiB (mean of the second half; peak %.1f KiB per connection): %.1f KiB per idle connection; at the end %s; %.0f GCs meanwhile, %.0f bytes allocated per edge per second; gateway CPU %.1f %% of a core (%.0f µs per edge per second)",
				idle, float64(steady)/(1<<20), peakPerConn/1024, steadyPerConn/1024, after.perConn(n), after.gcs-connected.gcs,
				(after.allocated-connected.allocated)/idle.Seconds()/float64(n),
				100*cpu/idle.Seconds(), 1e6*cpu/idle.Seconds()/float64(n))
		}
		if addr, dir := os.Getenv("GATEWAY_PPROF"), os.Getenv("GATEWAY_PPROF_DIR"); addr != "" {
			saveGatewayProfiles(b, addr, dir)
		}

		// A real edge on the same gateway, light load: one short request at a time.
		url := "http://" + listen
		agentProc(b, agentBin, pkiDir, listen, gwAddr)
		waitHTTP(b, url+"/readyz", http.StatusOK, 30*time.Second)
		var lat []time.Duration
		const requests = 200
		before, t0 := gatewayRuntime(b, gwMetrics), time.Now()
		for range requests {
			s := time.Now()
			if ok, why := quickChat(url); !ok {
				b.Fatalf("request with %d edges connected: %s", n, why)
			}
			lat = append(lat, time.Since(s))
		}
		reqSpan := time.Since(t0)
		// The idle edges' pings cost CPU meanwhile too; their rate is known when the idle phase ran.
		afterReqs := gatewayRuntime(b, gwMetrics)
		reqCPU := (afterReqs.cpuSeconds - before.cpuSeconds - idleCPURate*reqSpan.Seconds()) / requests
		reqAlloc := (afterReqs.allocated - before.allocated) / requests // the idle edges' share included
		alive := 0
		for _, c := range conns {
			if c != nil && c.Context().Err() == nil {
				alive++
			}
		}
		slices.Sort(hs)
		rate := float64(n-1) / elapsed.Seconds()
		b.Logf("%d edges connected (%d still up after the requests); handshake+hello p50 %v p99 %v, %.0f handshakes/s at 8 in flight",
			n, alive, hs[len(hs)/2].Round(time.Millisecond), hs[len(hs)*99/100].Round(time.Millisecond), rate)
		b.Logf("short request through a real edge-agent meanwhile: p50 %.2f ms p99 %.2f ms; gateway CPU %.2f ms per request (%d in %v, less the idle edges' share), %.0f KiB allocated per request (with the idle edges'), %.0f GCs; load %s",
			pct(lat, 0.5), pct(lat, 0.99), 1000*reqCPU, requests, reqSpan.Round(time.Millisecond), reqAlloc/1024, afterReqs.gcs-before.gcs, loadavgLine())
		b.ReportMetric(rate, "handshakes/s")
		b.ReportMetric(perConn/1024, "KiB/idle-conn")
		if idle > 0 {
			b.ReportMetric(steadyPerConn/1024, "KiB/idle-conn-steady")
		}
		b.ReportMetric(1000*reqCPU, "gw-cpu-ms/request")
		b.ReportMetric(pct(lat, 0.99), "request-p99-ms")
		for _, c := range conns {
			if c != nil {
				c.CloseWithError(0, "")
			}
		}
	}
}

// gatewaySnapshot is what the gateway's /metrics says about its Go runtime and CPU.
type gatewaySnapshot struct {
	goroutines, heapAlloc, stackInuse, heapInuse, heapReleased float64
	gcs, allocated                                             float64
	cpuSeconds                                                 float64
}

func (g gatewaySnapshot) perConn(n int) string {
	return fmt.Sprintf("per connection: heap in use by objects %.1f KiB, stacks %.1f KiB (%d goroutines in all), heap spans in use %.1f KiB; %.1f MiB released to the OS",
		g.heapAlloc/float64(n)/1024, g.stackInuse/float64(n)/1024, int(g.goroutines), g.heapInuse/float64(n)/1024, g.heapReleased/(1<<20))
}

// gatewayRuntime reads the Go collector's and the process collector's series off the gateway's
// /metrics (dc-gateway registers both).
func gatewayRuntime(b *testing.B, metricsAddr string) gatewaySnapshot {
	b.Helper()
	resp, err := http.Get("http://" + metricsAddr + "/metrics")
	if err != nil {
		b.Fatalf("gateway /metrics: %v", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		b.Fatalf("gateway /metrics: %v", err)
	}
	var g gatewaySnapshot
	fields := map[string]*float64{
		"go_goroutines": &g.goroutines, "go_memstats_heap_alloc_bytes": &g.heapAlloc,
		"go_memstats_stack_inuse_bytes": &g.stackInuse, "go_memstats_heap_inuse_bytes": &g.heapInuse,
		"go_memstats_heap_released_bytes": &g.heapReleased, "go_gc_duration_seconds_count": &g.gcs,
		"process_cpu_seconds_total": &g.cpuSeconds, "go_memstats_alloc_bytes_total": &g.allocated,
	}
	for line := range strings.Lines(string(data)) {
		name, val, ok := strings.Cut(strings.TrimSpace(line), " ")
		if p := fields[name]; ok && p != nil {
			*p, _ = strconv.ParseFloat(val, 64)
		}
	}
	return g
}

// saveGatewayProfiles fetches the gateway's heap profile (after a GC) and goroutine stacks from
// its net/http/pprof listener at addr into dir (the working directory when empty). The released
// dc-gateway has no such listener; docs/SCALE.md shows the build that adds one.
func saveGatewayProfiles(b *testing.B, addr, dir string) {
	for name, path := range map[string]string{
		"gateway-heap.pb.gz":     "heap?gc=1",
		"gateway-heap.txt":       "heap?gc=1&debug=1",
		"gateway-goroutines.txt": "goroutine?debug=1",
	} {
		resp, err := http.Get("http://" + addr + "/debug/pprof/" + path)
		if err != nil {
			b.Fatalf("gateway profile %s: %v", path, err)
		}
		data, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err == nil && resp.StatusCode != http.StatusOK {
			err = fmt.Errorf("HTTP %d", resp.StatusCode)
		}
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, name), data, 0o644)
		}
		if err != nil {
			b.Fatalf("gateway profile %s: %v", path, err)
		}
	}
}

func loadavgLine() string {
	data, _ := os.ReadFile("/proc/loadavg")
	return strings.Join(strings.Fields(string(data))[:3], " ")
}

// BenchmarkTwoGatewaysOneFleet: GATEWAY_PAIR_EDGES (default 20) real edge-agents (in-process)
// spread over two in-process dc-gateways, half with A as primary and B as secondary, half the
// other way round. Gateway A stops (cleanly: its connections close with a reason); it reports
// how long each of A's edges took to answer again through B, and whether B's own edges noticed
// (every one of them must keep answering). Run once:
//
//	go test ./internal/e2e -run '^$' -bench BenchmarkTwoGatewaysOneFleet -benchtime 1x
func BenchmarkTwoGatewaysOneFleet(b *testing.B) {
	n := envN("GATEWAY_PAIR_EDGES", 20)
	var ids []string
	for i := range n {
		ids = append(ids, fmt.Sprintf("spread-%02d", i))
	}
	pkiDir := newPKI(b, ids...)
	target := pacedTarget(b, 3, time.Millisecond)
	for range b.N {
		gwA := startGatewayAt(b, pkiDir, target, "127.0.0.1:0")
		gwB := startGatewayAt(b, pkiDir, target, "127.0.0.1:0")
		var onA, onB []string
		for i, id := range ids {
			primary, secondary := gwA.addr, gwB.addr
			if i%2 == 1 {
				primary, secondary = secondary, primary
			}
			url, a := startAgent(b, pkiDir, primary, withSecondary(secondary), func(c *agent.Config) { c.EdgeID = id })
			waitLink(b, a)
			if ok, why := quickChat(url); !ok {
				b.Fatalf("%s before the failover: %s", id, why)
			}
			if i%2 == 0 {
				onA = append(onA, url)
			} else {
				onB = append(onB, url)
			}
		}
		gwA.stop()
		stopped := time.Now()
		var back []time.Duration
		var mu sync.Mutex
		var wg sync.WaitGroup
		for _, url := range onA {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for time.Since(stopped) < 30*time.Second {
					if ok, _ := quickChat(url); ok {
						mu.Lock()
						back = append(back, time.Since(stopped))
						mu.Unlock()
						return
					}
					time.Sleep(5 * time.Millisecond)
				}
			}()
		}
		bFailed := 0
		for _, url := range onB {
			if ok, _ := quickChat(url); !ok {
				bFailed++
			}
		}
		wg.Wait()
		if len(back) != len(onA) {
			b.Fatalf("%d of %d edges of the stopped gateway answered again within 30 s", len(back), len(onA))
		}
		if bFailed > 0 {
			b.Fatalf("%d of %d edges of the gateway still up failed a request", bFailed, len(onB))
		}
		slices.Sort(back)
		b.Logf("%d edges over 2 gateways; A stopped: its %d edges answer through B after p50 %v, max %v; B's %d edges: no failed request; load %s",
			n, len(onA), back[len(back)/2].Round(time.Millisecond), back[len(back)-1].Round(time.Millisecond), len(onB), loadavgLine())
		b.ReportMetric(float64(back[len(back)/2].Microseconds())/1000, "failover-p50-ms")
		b.ReportMetric(float64(back[len(back)-1].Microseconds())/1000, "failover-max-ms")
	}
}
