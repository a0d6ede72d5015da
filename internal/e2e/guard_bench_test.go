package e2e

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/agent"
	"github.com/sucursal/sucursal/internal/guard"
	"github.com/sucursal/sucursal/internal/guard/guardsetup"
	"github.com/sucursal/sucursal/internal/ollamatest"
	"github.com/sucursal/sucursal/internal/redact"
	"github.com/sucursal/sucursal/internal/testmodel"
)

// guardBenchPrompt is a branch-style prompt of about 1 KB with personal data of several types, so
// redaction has real work to do; it stays inside the tiny models' 2048-token context.
func guardBenchPrompt() string {
	var b strings.Builder
	for i := range 6 {
		b.WriteString("La clienta Ana García López, con DNI 12345678Z y cuenta ES9121000418450200051332, ")
		b.WriteString("escribe desde ana.garcia@example.com y llama al +34 612 345 678. ")
		if i%2 == 0 {
			b.WriteString("Pide revisar las comisiones del último trimestre. ")
		}
	}
	return b.String()
}

// BenchmarkGuardTTFT measures what the input guard adds to the time to first token, with the guard
// sequential (verdict, then redaction) and concurrent with redaction (Build's default), against the
// same path without a guard, all three in the same run, interleaved request by request so that
// drift on a shared machine hits them alike. Real servers throughout: a generated Llama Guard
// stand-in ("safe") on its own Ollama, the target on another, edge-agent → QUIC → dc-gateway.
//
//	go test -run '^$' -bench GuardTTFT -benchtime 200x ./internal/e2e/
func BenchmarkGuardTTFT(b *testing.B) {
	dc := startOllama(b)
	local := ollamatest.Start(b, ollamatest.NumParallel(2))
	createGuardModels(b, local)
	// A NER stand-in that finds nothing: redaction then costs one local model call, like a real
	// NER backend, instead of microseconds of regular expressions.
	local.CreateModel(b, "ner-none", testmodel.FixedOutput(verdictMarker, `{"entities":[]}`), testmodel.FixedOutputTemplate(verdictMarker))
	pkiDir := newPKI(b)
	gw := startGateway(b, pkiDir, dc.URL+"/v1")

	policy := guard.DefaultPolicy()
	policy.Timeout = time.Minute // a slow moment on 2 busy cores must not turn into a 503
	withGuard := func(mode string) agentOpt {
		return func(c *agent.Config) {
			c.Guard = guardsetup.Config{Enabled: true, Mode: mode, Policy: &guardsetup.InlinePolicy{Policy: policy},
				Classifiers: []guardsetup.ClassifierConfig{{Name: "llamaguard", Kind: "safety", Stage: "input",
					Backend: "ollama", URL: local.URL, Model: "guard-safe"}}}
		}
	}
	withNER := func(c *agent.Config) {
		c.Redaction.NER = redact.NERConfig{Mode: redact.NERRequired, Timeout: time.Minute, Backend: "ollama", URL: local.URL, Model: "ner-none"}
	}
	body, _ := json.Marshal(map[string]any{"model": "tiny", "stream": true, "max_tokens": 4,
		"messages": []map[string]string{{"role": "user", "content": guardBenchPrompt()}}})
	for _, redaction := range []string{"regex", "regex+ner"} {
		b.Run("redaction="+redaction, func(b *testing.B) {
			variants := []string{"none", "sequential", "concurrent"}
			urls := map[string]string{}
			for _, v := range variants {
				var opts []agentOpt
				if v != "none" {
					opts = append(opts, withGuard(v))
				}
				if redaction == "regex+ner" {
					opts = append(opts, withNER)
				}
				u, a := startAgent(b, pkiDir, gw, opts...)
				waitLink(b, a)
				urls[v] = u + "/v1/chat/completions"
			}
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
			ttft := map[string][]time.Duration{}
			one := func(v string) {
				t, _, err := streamTimings(client, urls[v], body)
				if err != nil {
					b.Fatalf("%s: %v", v, err)
				}
				ttft[v] = append(ttft[v], t)
			}
			for range 3 { // load the models and warm every path
				for _, v := range variants {
					one(v)
				}
			}
			ttft = map[string][]time.Duration{}
			i := 0
			b.ResetTimer()
			for b.Loop() {
				for j := range variants {
					one(variants[(i+j)%len(variants)])
				}
				i++
			}
			b.StopTimer()
			for _, v := range variants {
				b.ReportMetric(pct(ttft[v], 0.5), "ttft-p50-ms-"+v)
				b.ReportMetric(pct(ttft[v], 0.99), "ttft-p99-ms-"+v)
			}
			for _, v := range variants[1:] {
				b.ReportMetric(pct(ttft[v], 0.5)-pct(ttft["none"], 0.5), "added-p50-ms-"+v)
				b.ReportMetric(pct(ttft[v], 0.99)-pct(ttft["none"], 0.99), "added-p99-ms-"+v)
			}
		})
	}
}
