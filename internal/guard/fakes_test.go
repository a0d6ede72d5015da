package guard

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"go.uber.org/goleak"
)

// fake is a classifier whose behaviour a test writes as a function; it records what it saw.
type fake struct {
	name string
	kind Kind
	fn   func(ctx context.Context, text string) (Verdict, error)
	// quiet: record nothing (benchmarks)
	quiet bool

	mu   sync.Mutex
	seen []string
}

func (f *fake) Name() string { return f.name }
func (f *fake) Kind() Kind   { return f.kind }
func (f *fake) Classify(ctx context.Context, text string) (Verdict, error) {
	if f.quiet {
		return f.fn(ctx, text)
	}
	f.mu.Lock()
	f.seen = append(f.seen, text)
	f.mu.Unlock()
	return f.fn(ctx, text)
}

func (f *fake) texts() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.seen...)
}

func safetySays(cats ...string) func(context.Context, string) (Verdict, error) {
	return func(context.Context, string) (Verdict, error) {
		v := Verdict{Kind: KindSafety}
		for _, c := range cats {
			cat, _ := LookupCategory(c)
			v.Categories = append(v.Categories, cat)
			v.Malicious, v.Score = true, 1
		}
		return v, nil
	}
}

func injectionScore(p float64) func(context.Context, string) (Verdict, error) {
	return func(context.Context, string) (Verdict, error) {
		return Verdict{Kind: KindInjection, Malicious: p >= 0.5, Score: p}, nil
	}
}

type harness struct {
	g   *Guard
	reg *prometheus.Registry
	log *bytes.Buffer
}

func newHarness(t *testing.T, p Policy, input, output []Classifier, fallback Classifier) harness {
	t.Helper()
	reg := prometheus.NewRegistry()
	var buf bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&syncWriter{w: &buf}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	g, err := New(p, input, output, fallback, reg, log)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return harness{g: g, reg: reg, log: &buf}
}

type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (s *syncWriter) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(b)
}

// counter sums a counter family over the series whose labels include want.
func (h harness) counter(t *testing.T, name string, want map[string]string) float64 {
	t.Helper()
	mfs, err := h.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			if labelsMatch(m, want) {
				sum += m.GetCounter().GetValue()
			}
		}
	}
	return sum
}

func labelsMatch(m *dto.Metric, want map[string]string) bool {
	got := map[string]string{}
	for _, l := range m.GetLabel() {
		got[l.GetName()] = l.GetValue()
	}
	for k, v := range want {
		if got[k] != v {
			return false
		}
	}
	return true
}

// assertNoLeak fails if secret appears in a log line or in any metric label.
func (h harness) assertNoLeak(t *testing.T, secret string) {
	t.Helper()
	if strings.Contains(h.log.String(), secret) {
		t.Errorf("log contains the scanned text")
	}
	mfs, err := h.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if strings.Contains(l.GetValue(), secret) {
					t.Errorf("metric %s label %s contains the scanned text", mf.GetName(), l.GetName())
				}
			}
		}
	}
}

func slogDiscard() *slog.Logger { return slog.New(slog.DiscardHandler) }

// Every goroutine the guard starts must be waited for before a check returns.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
