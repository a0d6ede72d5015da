package e2e

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	proxy "github.com/quic-go/quic-go/integrationtests/tools/proxy"
)

// wan is one emulated link: round-trip time, jitter (each packet or chunk gets up to this much
// extra one-way delay, uniformly) and loss (per packet, each direction).
type wan struct {
	rtt, jitter time.Duration
	loss        float64
}

func (w wan) String() string {
	return fmt.Sprintf("rtt=%dms/loss=%g%%", w.rtt.Milliseconds(), w.loss*100)
}

func (w wan) oneWay() time.Duration {
	d := w.rtt / 2
	if w.jitter > 0 {
		d += rand.N(w.jitter)
	}
	return d
}

// startLossyUDP is quic-go's test proxy in front of addr with the link's delay, jitter and loss
// on every datagram in both directions.
func startLossyUDP(t testing.TB, addr string, w wan) string {
	t.Helper()
	server, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy.Proxy{
		Conn: conn, ServerAddr: server,
		DelayPacket: func(proxy.Direction, net.Addr, net.Addr, []byte) time.Duration { return w.oneWay() },
		DropPacket:  func(proxy.Direction, net.Addr, net.Addr, []byte) bool { return rand.Float64() < w.loss },
	}
	if err := p.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p.LocalAddr().String()
}

// tcpRTO is what a lost segment costs a TCP stream in this model: Linux's minimum
// retransmission timeout. A kernel TCP sometimes does better (fast retransmit after three
// duplicate ACKs, when enough data follows the loss; a tail-loss probe at about 2 RTT) and
// sometimes worse (a lost retransmission doubles the timeout) — see docs/SCALE.md.
const tcpRTO = 200 * time.Millisecond

// startLossyTCP forwards TCP connections to addr through the same link in user space. Bytes are
// delayed by the link's one-way time, in order. Loss cannot be done to a TCP stream from user
// space (the kernels on both ends would retransmit it unseen), so it is modelled by its effect:
// each 1 400-byte segment of a read is lost with the link's probability, and a loss holds that
// read — and, the stream being in order, everything behind it — for one more tcpRTO + RTT/2.
func startLossyTCP(t testing.TB, addr string, w wan) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	pipe := func(dst, src net.Conn) {
		type chunk struct {
			b  []byte
			at time.Time
		}
		q := make(chan chunk, 1024)
		go func() {
			defer close(q)
			last := time.Time{}
			buf := make([]byte, 32<<10)
			for {
				n, err := src.Read(buf)
				if n > 0 {
					at := time.Now().Add(w.oneWay())
					for seg := 0; seg < (n+1399)/1400; seg++ {
						if rand.Float64() < w.loss {
							at = at.Add(tcpRTO + w.rtt/2)
						}
					}
					if at.Before(last) {
						at = last // in order: nothing overtakes a held segment
					}
					last = at
					q <- chunk{append([]byte(nil), buf[:n]...), at}
				}
				if err != nil {
					return
				}
			}
		}()
		for c := range q {
			time.Sleep(time.Until(c.at))
			if _, err := dst.Write(c.b); err != nil {
				break
			}
		}
		_ = dst.Close()
		_ = src.Close()
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial("tcp", addr)
			if err != nil {
				c.Close()
				continue
			}
			go pipe(s, c)
			go pipe(c, s)
		}
	}()
	return ln.Addr().String()
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
// emulated WAN two ways: the branch's path (client → edge-agent on loopback → QUIC over the
// link → dc-gateway → target) and what a branch would otherwise run (client → HTTPS, TLS over
// TCP, over the same link → a TLS reverse proxy → target), at 40 and 100 ms RTT with 1 % and
// 3 % loss and 10 ms jitter. Every answer must arrive exact; it reports TTFT p50/p99 and tokens/s
// per cell. WAN_REQUESTS (default 40) requests per cell, 4 at a time, after a warm-up; run once:
//
//	go test ./internal/e2e -run '^$' -bench BenchmarkLossyWAN -benchtime 1x
func BenchmarkLossyWAN(b *testing.B) {
	requests, chunks := envN("WAN_REQUESTS", 40), envN("WAN_CHUNKS", 30)
	target := pacedTarget(b, chunks, 10*time.Millisecond)
	var want strings.Builder
	for i := range chunks {
		fmt.Fprintf(&want, "w%d ", i)
	}
	pkiDir := newPKI(b)
	gateway := startGateway(b, pkiDir, target)

	tu, _ := url.Parse(target)
	rp := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: "http", Host: tu.Host})
	rp.FlushInterval = -1
	tlsSrv := httptest.NewTLSServer(rp)
	b.Cleanup(tlsSrv.Close)

	links := []wan{
		{rtt: 40 * time.Millisecond, jitter: 10 * time.Millisecond, loss: 0.01},
		{rtt: 40 * time.Millisecond, jitter: 10 * time.Millisecond, loss: 0.03},
		{rtt: 100 * time.Millisecond, jitter: 10 * time.Millisecond, loss: 0.01},
		{rtt: 100 * time.Millisecond, jitter: 10 * time.Millisecond, loss: 0.03},
	}
	for range b.N {
		for _, w := range links {
			agentURL, a := startAgent(b, pkiDir, startLossyUDP(b, gateway, w))
			waitLink(b, a)
			quicClient := &http.Client{}
			tcpAddr := startLossyTCP(b, strings.TrimPrefix(tlsSrv.URL, "https://"), w)
			tr := tlsSrv.Client().Transport.(*http.Transport).Clone()
			tr.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
				return (&net.Dialer{}).DialContext(ctx, network, tcpAddr)
			}
			tr.TLSClientConfig = tr.TLSClientConfig.Clone()
			tr.TLSClientConfig.ClientSessionCache = tls.NewLRUClientSessionCache(8)
			// TCP at its best: every request on a warm keep-alive connection (the default
			// pool keeps 2 per host, and a 3rd and 4th concurrent request paid a new TLS
			// handshake each time), so only the link's delay and loss separate the two.
			tr.MaxIdleConnsPerHost = 8
			tcpClient := &http.Client{Transport: tr}
			for _, path := range []struct {
				name     string
				client   *http.Client
				endpoint string
			}{
				{"quic", quicClient, agentURL + "/v1/chat/completions"},
				{"tcp+tls", tcpClient, tlsSrv.URL + "/v1/chat/completions"},
			} {
				for range 4 { // warm-up: connections up, keep-alive pools full
					if _, err := readStream(context.Background(), path.client, path.endpoint); err != nil {
						b.Fatalf("%s %s warm-up: %v", w, path.name, err)
					}
				}
				var mu sync.Mutex
				var ttfts []time.Duration
				var tokens, seconds float64
				var wg sync.WaitGroup
				work := make(chan struct{}, requests)
				for range requests {
					work <- struct{}{}
				}
				close(work)
				var failure error
				for range 4 {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for range work {
							s, err := readStream(context.Background(), path.client, path.endpoint)
							mu.Lock()
							switch {
							case err != nil:
								failure = err
							case s.text != want.String():
								failure = fmt.Errorf("answer not exact: %d chunks, %q", s.chunks, s.text)
							default:
								ttfts = append(ttfts, s.ttft)
								tokens += float64(s.chunks)
								seconds += (s.total - s.ttft).Seconds()
							}
							mu.Unlock()
						}
					}()
				}
				wg.Wait()
				if failure != nil {
					b.Fatalf("%s %s: %v", w, path.name, failure)
				}
				name := fmt.Sprintf("%dms-%g%%-%s", w.rtt.Milliseconds(), w.loss*100, path.name)
				b.ReportMetric(pct(ttfts, 0.5), name+"-ttft-p50-ms")
				b.ReportMetric(pct(ttfts, 0.99), name+"-ttft-p99-ms")
				b.ReportMetric(tokens/seconds, name+"-tok/s")
				b.Logf("%s %-7s TTFT p50 %6.1f ms p99 %6.1f ms, %5.1f tokens/s after the first, %d exact answers",
					w, path.name, pct(ttfts, 0.5), pct(ttfts, 0.99), tokens/seconds, len(ttfts))
			}
			tr.CloseIdleConnections()
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
