package redact

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

func TestLoadExamplePolicy(t *testing.T) {
	cfg, err := LoadConfig(filepath.Join("..", "..", "testdata", "redact", "policy.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.NER.Mode != NERFallbackDegraded || cfg.MatchTimeout != time.Second || len(cfg.Custom) != 1 || cfg.Thresholds["PHONE"] != 0.55 {
		t.Errorf("policy not read as written: %+v", cfg)
	}
}

func TestConfigListsEveryProblem(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Threshold = 2
	cfg.ChecksumFailure = "maybe"
	cfg.MatchTimeout = 0
	cfg.NER.Mode = "sometimes"
	cfg.EndOfStream = "later"
	cfg.Deny = []DenyEntry{{Value: "", Type: "lower"}}
	cfg.Custom = []CustomRecognizer{{Name: "x", Type: "X", Pattern: "(", Validator: "nope", Score: 3}}
	err := cfg.Validate()
	if err == nil {
		t.Fatal("invalid config accepted")
	}
	for _, want := range []string{"threshold", "checksum_failure", "match_timeout", "ner.mode", "end_of_stream",
		"deny[0].value", "deny[0].type", "custom[0].pattern", "custom[0].validator", "custom[0].score"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not mention %s:\n%v", want, err)
		}
	}
}

func TestLoadConfigRejectsUnknownKeys(t *testing.T) {
	p := filepath.Join(t.TempDir(), "p.yaml")
	if err := os.WriteFile(p, []byte("treshold: 0.4\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadConfig(p); err == nil || !strings.Contains(err.Error(), "treshold") {
		t.Fatalf("a misspelt key must be an error, got %v", err)
	}
}

func TestNewNeedsNERWhenModeSaysSo(t *testing.T) {
	cfg := DefaultConfig()
	cfg.NER.Mode = NERRequired
	if _, err := New(cfg, nil, nil, nil); err == nil {
		t.Fatal("New accepted ner.mode=required without a backend")
	}
}

// TestMetricsCarryNoValues: after a session with every kind of value, no label of any metric
// holds anything but a type or an outcome.
func TestMetricsCarryNoValues(t *testing.T) {
	reg := prometheus.NewRegistry()
	r, err := New(DefaultConfig(), nil, reg, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := r.NewSession(0)
	mustRedact(t, s, piiText)
	st := s.NewStream()
	st.Write("@@PERSON-1@@ @@JUANPEREZ-9@@")
	st.Flush()
	s.Close()
	if got := counter(t, r.m.redactions.WithLabelValues(TypeDNI)); got != 1 {
		t.Errorf("redactions{type=DNI} = %v, want 1", got)
	}
	if got := counter(t, r.m.drift.WithLabelValues("OTHER", "invented")); got != 1 {
		t.Errorf("drift{OTHER,invented} = %v, want 1", got)
	}
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if v := l.GetValue(); !knownTypes[v] && v != "OTHER" && v != "dropped" && v != "invented" && v != "degraded" && v != "refused" {
					t.Errorf("%s has label %s=%q", mf.GetName(), l.GetName(), v)
				}
				for _, secret := range []string{"Juan", "JUANPEREZ", "12345678Z", "600"} {
					if strings.Contains(l.GetValue(), secret) {
						t.Errorf("%s label carries a value", mf.GetName())
					}
				}
			}
		}
	}
	if _, err := New(DefaultConfig(), nil, reg, nil); err == nil {
		t.Error("registering twice on one registry must fail loudly")
	}
}

func counter(t *testing.T, c prometheus.Counter) float64 {
	t.Helper()
	var m dto.Metric
	if err := c.Write(&m); err != nil {
		t.Fatal(err)
	}
	return m.GetCounter().GetValue()
}
