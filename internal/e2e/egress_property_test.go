package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/sucursal/sucursal/internal/agent"
	"github.com/sucursal/sucursal/internal/redact/corpus"
)

// captureTarget is an OpenAI-compatible target in the "datacenter" that records every body it
// receives and answers a short fixed text.
type captureTarget struct {
	mu       sync.Mutex
	captured [][]byte
}

func (c *captureTarget) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet {
		// The gateway's own health probe (GET /models): carries nothing from a branch.
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"object":"list","data":[{"id":"echo","object":"model","created":1,"owned_by":"test"}]}`)
		return
	}
	body, _ := io.ReadAll(r.Body)
	c.mu.Lock()
	c.captured = append(c.captured, body)
	c.mu.Unlock()
	var req struct {
		Stream bool `json:"stream"`
	}
	_ = json.Unmarshal(body, &req)
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"c","object":"chat.completion","created":1,"model":"echo","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"entendido"}}]}`)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	_, _ = io.WriteString(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"echo\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"entendido\"},\"finish_reason\":null}]}\n\n")
	_, _ = io.WriteString(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"echo\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
}

func (c *captureTarget) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.captured)
}

func (c *captureTarget) last() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.captured[len(c.captured)-1]
}

// egressPropertyBodies is how many generated bodies the property test sends; EGRESS_BODIES
// overrides it (the ablation runs use fewer).
func egressPropertyBodies(t *testing.T) int {
	if s := os.Getenv("EGRESS_BODIES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			t.Fatalf("EGRESS_BODIES=%q is not a positive number", s)
		}
		return n
	}
	return 10000
}

// TestEgressProperty (issue #11): generated OpenAI bodies — every field a client can send,
// random key casing, random nesting, personal values planted in random Unicode forms, wrapped
// at line breaks and split between messages and parts — go through edge-agent → QUIC →
// dc-gateway → a capturing target. The captured egress must hold no planted value in its
// NFKC-normalised, separator-free or digits-only form; each body must get exactly the answer its
// placement calls for (answered; refused for a recased key; blocked at the exit for a value in
// an identifier), and a refused or blocked body must send nothing.
//
// scripts/egress-ablation.sh runs it against builds with the allow-list or the normalisation
// removed (build tags ablate_allowlist, ablate_normalize) and requires it to fail there.
func TestEgressProperty(t *testing.T) {
	n := egressPropertyBodies(t)
	target := &captureTarget{}
	srv := httptest.NewServer(target)
	defer srv.Close()
	pkiDir := newPKI(t)
	gw := startGateway(t, pkiDir, srv.URL+"/v1")
	url, a := startAgent(t, pkiDir, gw, func(c *agent.Config) {
		c.Egress.Passthrough = []string{egressPassthrough}
		c.Egress.AllowParts = []string{"image_url"}
	})
	waitLink(t, a)

	g := &gen{v: corpus.NewValues(20261201)}
	var leaks, wrong, sentWhenRefused, plants int
	byOutcome := map[int]int{}
	reported := 0
	report := func(format string, args ...any) {
		if reported < 15 {
			t.Errorf(format, args...)
		}
		reported++
	}
	client := httpClient()
	for i := 0; i < n; i++ {
		gb := g.body()
		plants += len(gb.plants)
		before := target.count()
		resp, err := client.Post(url+"/v1/chat/completions", "application/json", bytes.NewReader(gb.body))
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		byOutcome[resp.StatusCode]++
		code := errorCode(raw)
		if resp.StatusCode != gb.want || (gb.code != "" && code != gb.code) {
			wrong++
			report("body %d: got %d %s, want %d %s; plants %s", i, resp.StatusCode, code, gb.want, gb.code, describePlants(gb.plants))
		}
		after := target.count()
		if resp.StatusCode != http.StatusOK {
			if after != before {
				sentWhenRefused++
				report("body %d: answered %d but the DC received it", i, resp.StatusCode)
			}
			continue
		}
		if after != before+1 {
			report("body %d: answered 200 with %d requests at the DC", i, after-before)
			continue
		}
		if l := leakedPlants(target.last(), gb.plants); len(l) > 0 {
			leaks += len(l)
			report("body %d: raw value(s) reached the DC: %s", i, describePlants(l))
		}
	}
	t.Logf("%d bodies, %d planted values: outcomes %v; %d raw values reached the DC, %d wrong outcomes, %d refused bodies sent anyway",
		n, plants, byOutcome, leaks, wrong, sentWhenRefused)
	if leaks > 0 || wrong > 0 || sentWhenRefused > 0 {
		t.Errorf("EGRESS PROPERTY VIOLATED: %d raw values reached the DC, %d wrong outcomes, %d refused bodies sent", leaks, wrong, sentWhenRefused)
	}
}

func errorCode(body []byte) string {
	var e struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &e) == nil {
		return e.Error.Code
	}
	return ""
}

func describePlants(ps []plant) string {
	var b bytes.Buffer
	for i, p := range ps {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s %q as %s in %s", p.kind, p.canon, p.form, p.where)
	}
	return b.String()
}
