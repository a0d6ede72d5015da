package e2e

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/sys/unix"

	"github.com/sucursal/sucursal/internal/gateway"
	"github.com/sucursal/sucursal/internal/netemu"
	"github.com/sucursal/sucursal/internal/openaicompat"
	"github.com/sucursal/sucursal/internal/pki"
)

// wan is one emulated link: round-trip time, jitter (each packet gets up to this much extra
// one-way delay, uniformly) and loss (per packet, each direction).
type wan struct {
	rtt, jitter time.Duration
	loss        float64
}

func (w wan) String() string {
	return fmt.Sprintf("rtt=%dms/loss=%g%%", w.rtt.Milliseconds(), w.loss*100)
}

// The two ends of a lossy-WAN cell, each in its own network namespace joined by netemu's link:
// the DC (namespace B) runs a dc-gateway (QUIC) and a TLS reverse proxy (HTTPS over TCP) on
// 10.77.0.2, both in front of the paced target on the host's loopback; the branch (namespace A)
// runs an edge-agent process and makes the HTTPS client's connections. Every packet between
// them, UDP or TCP, crosses the same emulated link.
const (
	wanGatewayPort = "4433"
	wanTLSPort     = "8443"
	wanAgentListen = "127.0.0.1:8080" // the agent's HTTP, on namespace A's own loopback
)

type wanCell struct {
	link       *netemu.Link
	quic, tcp  *http.Client
	agentURL   string // base URL the quic client is given (its dialer goes to wanAgentListen)
	tcpURL     string
	tcpRecover string // tcp_recovery, tcp_early_retrans
	ccMu       sync.Mutex
	// connections dialled by each client (the agent's on A's loopback; HTTPS over the link)
	agentDials, tcpDials atomic.Int64
	ccSeen               map[string]int // "branch cubic" / "dc cubic": each HTTPS connection's TCP congestion control, by end
	closeAll             func()
}

// startWANCell builds one cell's link and both paths over it. WAN_TCP_CC (default cubic, Linux's
// default) is the HTTPS connections' TCP congestion control at both ends; WAN_REORDER=1 lets
// jitter reorder packets.
func startWANCell(b *testing.B, w wan, seed uint64, pkiDir, agentBin, target string) *wanCell {
	b.Helper()
	link, err := netemu.New(netemu.Config{RTT: w.rtt, Jitter: w.jitter, Loss: w.loss, Seed: seed,
		Reorder: os.Getenv("WAN_REORDER") == "1"})
	if err != nil {
		b.Fatalf("the emulated link needs root and /dev/net/tun: %v", err)
	}
	c := &wanCell{link: link}
	var closers []func()
	c.closeAll = func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}
	closers = append(closers, func() { link.Close() })
	fail := func(format string, args ...any) {
		c.closeAll()
		b.Fatalf(format, args...)
	}
	// Both ends' TCP sockets get the congestion control by setsockopt (TCP_CONGESTION, allowed
	// with CAP_NET_ADMIN): a namespace other than the host's may only default to the host's
	// allowed list, and changing that is the host's business. Accepted connections inherit the
	// listener's; both ends are checked below.
	cc := "cubic"
	if v := os.Getenv("WAN_TCP_CC"); v != "" {
		cc = v
	}
	rec, _ := link.A.Sysctl("net/ipv4/tcp_recovery")
	tlp, _ := link.A.Sysctl("net/ipv4/tcp_early_retrans")
	c.tcpRecover = "tcp_recovery=" + rec + " tcp_early_retrans=" + tlp
	c.ccSeen = map[string]int{}
	control := func(_, _ string, rc syscall.RawConn) error {
		var serr error
		if err := rc.Control(func(fd uintptr) {
			serr = unix.SetsockoptString(int(fd), unix.IPPROTO_TCP, unix.TCP_CONGESTION, cc)
		}); err != nil {
			return err
		}
		return serr
	}
	note := func(side string, conn net.Conn) {
		if tc, ok := conn.(*net.TCPConn); ok {
			if rc, err := tc.SyscallConn(); err == nil {
				var got string
				_ = rc.Control(func(fd uintptr) { got, _ = unix.GetsockoptString(int(fd), unix.IPPROTO_TCP, unix.TCP_CONGESTION) })
				c.ccMu.Lock()
				c.ccSeen[side+" "+strings.TrimRight(got, "\x00")]++
				c.ccMu.Unlock()
			}
		}
	}

	// The DC: dc-gateway in-process, its UDP socket in B.
	tlsConf, err := pki.ServerTLS(pkiDir)
	if err != nil {
		fail("%v", err)
	}
	srv, err := gateway.New(gateway.Config{Target: openaicompat.New(target, "")}, tlsConf, prometheus.NewRegistry(), testLogger())
	if err != nil {
		fail("%v", err)
	}
	var gln *gateway.Listener
	if err := link.B.Do(func() (err error) {
		gln, err = srv.Listen(net.JoinHostPort(link.AddrB.String(), wanGatewayPort))
		return err
	}); err != nil {
		fail("gateway listen: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = srv.Serve(ctx, gln)
	}()
	closers = append(closers, func() {
		cancel()
		srv.Abort()
		gln.Close()
		<-served
	})

	// The DC: the TLS reverse proxy, its TCP listener in B.
	tu, _ := url.Parse(target)
	rp := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: "http", Host: tu.Host})
	rp.FlushInterval = -1
	tlsSrv := httptest.NewUnstartedServer(rp)
	tlsSrv.Listener.Close()
	if err := link.B.Do(func() (err error) {
		tlsSrv.Listener, err = (&net.ListenConfig{Control: control}).Listen(context.Background(), "tcp", net.JoinHostPort(link.AddrB.String(), wanTLSPort))
		return err
	}); err != nil {
		fail("TLS listen: %v", err)
	}
	tlsSrv.Config.ConnState = func(conn net.Conn, st http.ConnState) { // httptest chains its own after it
		if tc, ok := conn.(*tls.Conn); ok && st == http.StateNew {
			note("dc", tc.NetConn())
		}
	}
	tlsSrv.StartTLS()
	closers = append(closers, tlsSrv.Close)
	c.tcpURL = tlsSrv.URL

	// The branch: edge-agent, a process started in A.
	p := &proc{name: "edge-agent", out: &lockedBuffer{}, done: make(chan struct{}),
		cmd: exec.Command(agentBin, "--listen", wanAgentListen, "--edge-id", edgeID,
			"--dc", net.JoinHostPort(link.AddrB.String(), wanGatewayPort), "--dc-server-name", "localhost",
			"--pki", pkiDir, "--log-level", "warn")}
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	if err := link.A.Do(p.cmd.Start); err != nil {
		fail("start edge-agent in the branch namespace: %v", err)
	}
	go func() {
		_ = p.cmd.Wait()
		close(p.done)
	}()
	closers = append(closers, p.kill)

	// Clients: their connections are made in A (the agent on A's loopback; HTTPS across the
	// link). Both keep up to 8 idle connections: with 4 in flight, every request finds one warm.
	inA := func(addr string, dials *atomic.Int64) func(context.Context, string, string) (net.Conn, error) {
		return func(ctx context.Context, network, _ string) (net.Conn, error) {
			dials.Add(1)
			return link.A.DialContext(ctx, network, addr)
		}
	}
	tcpInA := func(ctx context.Context, network, _ string) (conn net.Conn, err error) {
		c.tcpDials.Add(1)
		err = link.A.Do(func() (err error) {
			conn, err = (&net.Dialer{Control: control}).DialContext(ctx, network, net.JoinHostPort(link.AddrB.String(), wanTLSPort))
			return err
		})
		if err == nil {
			note("branch", conn)
		}
		return conn, err
	}
	c.quic = &http.Client{Transport: &http.Transport{DialContext: inA(wanAgentListen, &c.agentDials), MaxIdleConnsPerHost: 8}}
	c.agentURL = "http://" + wanAgentListen
	tr := tlsSrv.Client().Transport.(*http.Transport).Clone()
	tr.DialContext = tcpInA
	tr.TLSClientConfig = tr.TLSClientConfig.Clone()
	tr.TLSClientConfig.ServerName = "example.com" // httptest's certificate names it, not 10.77.0.2
	tr.TLSClientConfig.ClientSessionCache = tls.NewLRUClientSessionCache(8)
	// TCP at its best: every request on a warm keep-alive connection (the default pool keeps 2
	// per host, and a 3rd and 4th concurrent request paid a new TLS handshake each time), so
	// only the link's delay and loss separate the two.
	tr.MaxIdleConnsPerHost = 8
	c.tcp = &http.Client{Transport: tr}
	closers = append(closers, func() {
		c.quic.CloseIdleConnections()
		c.tcp.CloseIdleConnections()
	})

	// Wait for the branch's link to the DC (its /readyz, asked in A).
	ready := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{DialContext: inA(wanAgentListen, new(atomic.Int64)), DisableKeepAlives: true}}
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := ready.Get(c.agentURL + "/readyz")
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			fail("%s: the edge-agent in the branch namespace was not ready within 60 s (last: %v)", w, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return c
}

// wanStream is one streamed answer as its client saw it.
type wanStream struct {
	ttft, total time.Duration
	text        string
	chunks      int
}

func readStream(ctx context.Context, client *http.Client, endpoint string) (wanStream, error) {
	body := `{"model":"paced","stream":true,"messages":[{"role":"user","content":"a"}]}`
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		return wanStream{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		raw, _ := io.ReadAll(resp.Body)
		return wanStream{}, fmt.Errorf("status %d: %s", resp.StatusCode, raw)
	}
	var out wanStream
	var text strings.Builder
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		if line == "[DONE]" {
			out.total, out.text = time.Since(start), text.String()
			// Read to the end, or the client closes the connection instead of keeping it
			// for the next request (and TCP+TLS would pay a handshake every time).
			_, _ = io.Copy(io.Discard, resp.Body)
			return out, nil
		}
		var ch struct {
			Choices []struct {
				Delta struct {
					Content string `json:"content"`
				} `json:"delta"`
			} `json:"choices"`
		}
		if err := json.Unmarshal([]byte(line), &ch); err != nil || len(ch.Choices) == 0 {
			return out, fmt.Errorf("chunk %q: %v", line, err)
		}
		if out.chunks == 0 {
			out.ttft = time.Since(start)
		}
		out.chunks++
		text.WriteString(ch.Choices[0].Delta.Content)
	}
	return out, fmt.Errorf("stream ended without [DONE]: %v", sc.Err())
}

// BenchmarkLossyWAN streams the same paced answer (WAN_CHUNKS chunks, 10 ms apart) through an
// emulated WAN two ways: the branch's path (client → edge-agent on the branch's loopback → QUIC
// over the link → dc-gateway → target) and what a branch would otherwise run (client → HTTPS,
// TLS over the kernel's TCP, over the same link → a TLS reverse proxy → target). The link is
// netemu's packet-level emulator between two network namespaces, so both the UDP and the TCP
// packets are delayed, jittered and dropped the same way, and both kernels' TCP recover as they
// would on a real WAN. Cells: 40 and 100 ms RTT with 0, 1 and 3 % loss (each direction) and
// 10 ms jitter. Every answer must arrive exact; it reports TTFT p50/p99 and tokens/s per cell
// and path. WAN_REQUESTS (default 40) requests per cell and path, 4 at a time, after a warm-up,
// in 4 rounds that alternate the paths (QUIC, TCP, QUIC, ...) so load from elsewhere falls on
// both alike. WAN_ONLY=100ms-3% runs that cell alone; WAN_SEED=n changes the links' loss and
// jitter draws. Needs root and /dev/net/tun. Run once:
//
//	go test ./internal/e2e -run '^$' -bench BenchmarkLossyWAN -benchtime 1x
func BenchmarkLossyWAN(b *testing.B) {
	requests, chunks := envN("WAN_REQUESTS", 40), envN("WAN_CHUNKS", 30)
	const rounds, inFlight = 4, 4
	target := pacedTarget(b, chunks, 10*time.Millisecond)
	var want strings.Builder
	for i := range chunks {
		fmt.Fprintf(&want, "w%d ", i)
	}
	pkiDir := newPKI(b)
	agentBin, _ := releasedBinaries(b)

	var links []wan
	for _, rtt := range []time.Duration{40 * time.Millisecond, 100 * time.Millisecond} {
		for _, loss := range []float64{0, 0.01, 0.03} {
			links = append(links, wan{rtt: rtt, jitter: 10 * time.Millisecond, loss: loss})
		}
	}
	type result struct {
		ttfts         []time.Duration
		tokens, secs  float64
		packets, lost uint64
	}
	for range b.N {
		logged := false
		for k, w := range links {
			cell := fmt.Sprintf("%dms-%g%%", w.rtt.Milliseconds(), w.loss*100)
			if only := os.Getenv("WAN_ONLY"); only != "" && only != cell {
				continue
			}
			c := startWANCell(b, w, uint64(k+1)+uint64(envN("WAN_SEED", 0))*100, pkiDir, agentBin, target)
			paths := []struct {
				name     string
				client   *http.Client
				endpoint string
			}{
				{"quic", c.quic, c.agentURL + "/v1/chat/completions"},
				{"tcp+tls", c.tcp, c.tcpURL + "/v1/chat/completions"},
			}
			results := make([]result, len(paths))
			var failure error
			// Warm-up: two waves of inFlight requests at once per path, so that each path has
			// inFlight connections up and idle in its pool before anything is measured (one at
			// a time would warm only one, and the measured requests would pay TCP and TLS
			// handshakes over the link).
			for _, path := range paths {
				for range 2 {
					var wg sync.WaitGroup
					var mu sync.Mutex
					for range inFlight {
						wg.Add(1)
						go func() {
							defer wg.Done()
							if _, err := readStream(context.Background(), path.client, path.endpoint); err != nil {
								mu.Lock()
								failure = fmt.Errorf("%s %s warm-up: %v", w, path.name, err)
								mu.Unlock()
							}
						}()
					}
					wg.Wait()
				}
			}
			warmDials := []int64{c.agentDials.Load(), c.tcpDials.Load()}
			for round := range rounds {
				for i, path := range paths {
					if failure != nil {
						break
					}
					n := requests / rounds
					if round < requests%rounds {
						n++
					}
					ab0, ba0 := c.link.Stats()
					var mu sync.Mutex
					var wg sync.WaitGroup
					work := make(chan struct{}, n)
					for range n {
						work <- struct{}{}
					}
					close(work)
					r := &results[i]
					for range inFlight {
						wg.Add(1)
						go func() {
							defer wg.Done()
							for range work {
								s, err := readStream(context.Background(), path.client, path.endpoint)
								mu.Lock()
								switch {
								case err != nil:
									failure = fmt.Errorf("%s %s: %v", w, path.name, err)
								case s.text != want.String():
									failure = fmt.Errorf("%s %s: answer not exact: %d chunks of %d", w, path.name, s.chunks, chunks)
								default:
									r.ttfts = append(r.ttfts, s.ttft)
									r.tokens += float64(s.chunks - 1)
									r.secs += (s.total - s.ttft).Seconds()
								}
								mu.Unlock()
							}
						}()
					}
					wg.Wait()
					ab1, ba1 := c.link.Stats()
					r.packets += ab1.Packets - ab0.Packets + ba1.Packets - ba0.Packets
					r.lost += ab1.Lost - ab0.Lost + ba1.Lost - ba0.Lost
				}
			}
			newDials := []int64{c.agentDials.Load() - warmDials[0], c.tcpDials.Load() - warmDials[1]}
			c.closeAll()
			if failure != nil {
				b.Fatal(failure)
			}
			for i, path := range paths {
				r := results[i]
				name := cell + "-" + path.name
				b.ReportMetric(pct(r.ttfts, 0.5), name+"-ttft-p50-ms")
				b.ReportMetric(pct(r.ttfts, 0.99), name+"-ttft-p99-ms")
				b.ReportMetric(r.tokens/r.secs, name+"-tok/s")
				b.Logf("%s %-7s TTFT p50 %6.1f ms p90 %6.1f ms p99 %6.1f ms, %5.1f tokens/s after the first, %d exact answers; the link dropped %d of %d packets (%.2f %%) while it ran; %d connections dialled after the warm-up",
					w, path.name, pct(r.ttfts, 0.5), pct(r.ttfts, 0.9), pct(r.ttfts, 0.99), r.tokens/r.secs, len(r.ttfts), r.lost, r.packets, 100*float64(r.lost)/float64(max(r.packets, 1)), newDials[i])
			}
			if !logged {
				logged = true
				c.ccMu.Lock()
				b.Logf("kernel TCP on the link: %s; HTTPS connections by end and congestion control: %v; jitter reorders: %v", c.tcpRecover, c.ccSeen, os.Getenv("WAN_REORDER") == "1")
				c.ccMu.Unlock()
			}
		}
	}
	b.Logf("load average: %s", loadavgLine())
}

func envN(name string, def int) int {
	var n int
	if _, err := fmt.Sscan(os.Getenv(name), &n); err == nil && n > 0 {
		return n
	}
	return def
}
