package ollamaguard_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/guard"
	"github.com/sucursal/sucursal/internal/guard/ollamaguard"
)

// BenchmarkGuardLatency measures what the guard adds on a real Ollama with the generated tiny guard
// models, against a baseline measured in the same run: the bare Ollama chat call the safety
// classifier makes. The difference is the guard's own cost (template, parse, policy, goroutines,
// metrics). "safety+injection" runs both kinds, one after the other (max_concurrency=1) and
// concurrently (4), to show what concurrency buys on this machine.
//
//	go test -run '^$' -bench GuardLatency -benchtime 200x ./internal/guard/ollamaguard/
func BenchmarkGuardLatency(b *testing.B) {
	s := startWithModels(b, "guard-safe", "pg-benign")
	ctx := context.Background()
	p := guard.DefaultPolicy()
	p.Timeout = time.Minute
	text := []guard.ScanText{{Source: guard.SourceUser, Text: prompt}}

	b.Run("baseline-ollama-chat", func(b *testing.B) {
		gen := ollamaguard.New(s.Client(), "guard-safe", ollamaguard.Options{})
		msgs := []guard.Message{{Role: "user", Content: prompt}}
		measure(b, func() error { _, err := gen.Generate(ctx, msgs); return err })
	})
	b.Run("guard-safety", func(b *testing.B) {
		e := newGuard(b, p, []guard.Classifier{safety(s, "guard-safe", guard.RoleUser)}, nil, nil)
		measure(b, func() error { _, err := e.g.CheckInput(ctx, text); return err })
	})
	for _, conc := range []int{1, 4} {
		b.Run(fmt.Sprintf("guard-safety+injection/max_concurrency=%d", conc), func(b *testing.B) {
			pc := p
			pc.MaxConcurrency = conc
			e := newGuard(b, pc, []guard.Classifier{safety(s, "guard-safe", guard.RoleUser), injection(s, "pg-benign")}, nil, nil)
			measure(b, func() error { _, err := e.g.CheckInput(ctx, text); return err })
		})
	}
}

// measure runs f b.N times after a warm-up and reports p50 and p99 latency.
func measure(b *testing.B, f func() error) {
	b.Helper()
	for range 3 {
		if err := f(); err != nil {
			b.Fatal(err)
		}
	}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for b.Loop() {
		t0 := time.Now()
		if err := f(); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	slices.Sort(lat)
	q := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000 }
	b.ReportMetric(q(0.50), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
}
