package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/sucursal/sucursal/internal/agent"
)

// TestChaosEveryRequestEnds: 1000 requests (half streamed) from 8 clients while the primary
// gateway is stopped and restarted, its link black-holed and restored, and the target Ollama
// killed and restarted, at random (seeded) every 50–250 ms. Every request must end — a 200 with a
// complete answer or an OpenAI-shaped error — within the client's bound (a hang fails the test),
// and once everything is stopped no goroutine of the agent or the gateways is left.
func TestChaosEveryRequestEnds(t *testing.T) {
	const requests, clients = 1000, 8
	o := startOllama(t)
	pkiDir := newPKI(t)
	baseline := goleak.IgnoreCurrent()

	secondary := startGatewayAt(t, pkiDir, o.URL+"/v1", "127.0.0.1:0")
	primary := startGatewayAt(t, pkiDir, o.URL+"/v1", "127.0.0.1:0")
	primaryAddr := primary.addr
	wanAddr, drop := startBlackhole(t, primaryAddr)

	cfg := agent.DefaultConfig()
	cfg.Listen, cfg.EdgeID, cfg.DC, cfg.DCServerName, cfg.PKI = "127.0.0.1:0", edgeID, wanAddr, "localhost", pkiDir
	cfg.DCSecondary = []string{secondary.addr}
	cfg.ShutdownGrace = time.Second
	cfg.Link.IdleTimeout, cfg.Link.KeepAlive = 3*time.Second, time.Second
	a, err := agent.New(cfg, testLogger())
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Listen(); err != nil {
		t.Fatal(err)
	}
	ctx, stopAgent := context.WithCancel(context.Background())
	agentDone := make(chan error, 1)
	go func() { agentDone <- a.Run(ctx) }()
	waitLink(t, a)
	url := "http://" + a.Addr()

	chaosCtx, stopChaos := context.WithCancel(context.Background())
	var chaosWG sync.WaitGroup
	var actions atomic.Int64
	var mu sync.Mutex // guards primary
	chaosWG.Add(1)
	go func() {
		defer chaosWG.Done()
		rng := rand.New(rand.NewPCG(20261129, 7))
		for {
			select {
			case <-chaosCtx.Done():
				return
			case <-time.After(time.Duration(50+rng.IntN(200)) * time.Millisecond):
			}
			actions.Add(1)
			switch rng.IntN(3) {
			case 0:
				mu.Lock()
				primary.stop()
				primary = startGatewayAt(t, pkiDir, o.URL+"/v1", primaryAddr)
				mu.Unlock()
			case 1:
				drop.Store(!drop.Load())
			case 2:
				o.Stop(t)
				o.Restart(t)
			}
		}
	}()

	client := &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	var ok, apiErrors, hangs atomic.Int64
	codes := sync.Map{}
	var wg sync.WaitGroup
	next := atomic.Int64{}
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1)
				if i > requests {
					return
				}
				// Pace the clients so the run spans many chaos actions (a failing request returns
				// in microseconds).
				time.Sleep(15 * time.Millisecond)
				stream := i%2 == 0
				body := fmt.Sprintf(`{"model":"tiny","stream":%v,"max_tokens":25,"messages":[{"role":"user","content":"a"}]}`, stream)
				outcome, err := oneRequest(client, url, body, stream)
				switch {
				case err != nil:
					hangs.Add(1)
					t.Errorf("request %d did not end cleanly: %v", i, err)
				case outcome == "ok":
					ok.Add(1)
				default:
					apiErrors.Add(1)
					n, _ := codes.LoadOrStore(outcome, new(atomic.Int64))
					n.(*atomic.Int64).Add(1)
				}
			}
		}()
	}
	wg.Wait()
	stopChaos()
	chaosWG.Wait()
	var summary []string
	codes.Range(func(k, v any) bool {
		summary = append(summary, fmt.Sprintf("%s=%d", k, v.(*atomic.Int64).Load()))
		return true
	})
	t.Logf("%d requests, %d chaos actions: %d answered, %d clear errors (%s), %d hangs or broken answers",
		requests, actions.Load(), ok.Load(), apiErrors.Load(), strings.Join(summary, " "), hangs.Load())
	if ok.Load() == 0 {
		t.Fatalf("nothing was answered: the test exercised only failures")
	}

	// Stop everything of ours; nothing may be left running.
	stopAgent()
	if err := <-agentDone; err != nil {
		t.Errorf("agent: %v", err)
	}
	mu.Lock()
	primary.stop()
	mu.Unlock()
	secondary.stop()
	client.CloseIdleConnections()
	o.Stop(t) // the harness's own connections to Ollama go with it
	// The WAN-emulating proxy is a test tool that lives until cleanup; everything else must be gone.
	goleak.VerifyNone(t, baseline, goleak.IgnoreAnyFunction("github.com/quic-go/quic-go/integrationtests/tools/proxy.(*Proxy).runProxy"),
		goleak.IgnoreAnyFunction("github.com/quic-go/quic-go/integrationtests/tools/proxy.(*Proxy).runIncomingConnection"),
		goleak.IgnoreAnyFunction("github.com/quic-go/quic-go/integrationtests/tools/proxy.(*Proxy).runOutgoingConnection"),
		goleak.IgnoreAnyFunction("github.com/quic-go/quic-go/integrationtests/tools/proxy.(*Proxy).runOutgoingConnection.func1"))
}

// oneRequest returns "ok" for a complete answer, the error code for an OpenAI-shaped error, or an
// error for anything else (a hang past the client timeout, a cut stream, a non-OpenAI body).
func oneRequest(client *http.Client, url, body string, stream bool) (string, error) {
	resp, err := client.Post(url+"/v1/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		raw, _ := io.ReadAll(resp.Body)
		var e openAIError
		if json.Unmarshal(raw, &e) != nil || e.Error.Code == nil {
			return "", fmt.Errorf("status %d with a non-OpenAI body %q", resp.StatusCode, raw)
		}
		if resp.StatusCode == http.StatusServiceUnavailable && resp.Header.Get("Retry-After") == "" {
			return "", fmt.Errorf("503 without Retry-After")
		}
		return *e.Error.Code, nil
	}
	if !stream {
		raw, err := io.ReadAll(resp.Body)
		if err != nil || !bytes.Contains(raw, []byte(`"choices"`)) {
			return "", fmt.Errorf("incomplete completion: %v", err)
		}
		return "ok", nil
	}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if line == "data: [DONE]" {
			return "ok", nil
		}
		if data, ok := strings.CutPrefix(line, "data: "); ok && strings.HasPrefix(data, `{"error"`) {
			var e openAIError
			if json.Unmarshal([]byte(data), &e) != nil || e.Error.Code == nil {
				return "", fmt.Errorf("malformed error event %q", data)
			}
			return "stream:" + *e.Error.Code, nil
		}
	}
	return "", fmt.Errorf("stream ended without [DONE] or an error event: %v", sc.Err())
}
