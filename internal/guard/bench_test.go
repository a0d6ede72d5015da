package guard

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// BenchmarkCheckInput measures the guard's own cost and its concurrency with classifiers whose
// latency is known, so it can be read apart from any model server:
//
//   - instant: classifiers that answer at once — the guard's overhead per check;
//
//   - 2ms-each: two classifiers that each take 2 ms (a stand-in for a model call), run one after
//     the other (max_concurrency=1, the baseline) and concurrently (4).
//
//     go test -run '^$' -bench CheckInput -benchmem ./internal/guard/
func BenchmarkCheckInput(b *testing.B) {
	sleepy := func(d time.Duration, v Verdict) func(context.Context, string) (Verdict, error) {
		return func(ctx context.Context, _ string) (Verdict, error) {
			select {
			case <-time.After(d):
				return v, nil
			case <-ctx.Done():
				return Verdict{}, ctx.Err()
			}
		}
	}
	safe, benign := Verdict{Kind: KindSafety}, Verdict{Kind: KindInjection, Score: 0.01}
	texts := []ScanText{{Source: SourceUser, Text: "¿Cuál es el saldo de la cuenta de ahorro?"}}
	for _, tc := range []struct {
		name  string
		delay time.Duration
		conc  int
	}{{"instant", 0, 4}, {"2ms-each/max_concurrency=1", 2 * time.Millisecond, 1}, {"2ms-each/max_concurrency=4", 2 * time.Millisecond, 4}} {
		b.Run(tc.name, func(b *testing.B) {
			p := DefaultPolicy()
			p.MaxConcurrency = tc.conc
			in := []Classifier{
				&fake{name: "lg", kind: KindSafety, fn: sleepy(tc.delay, safe)},
				&fake{name: "pg", kind: KindInjection, fn: sleepy(tc.delay, benign)},
			}
			if tc.delay == 0 {
				in = []Classifier{
					&fake{name: "lg", kind: KindSafety, fn: func(context.Context, string) (Verdict, error) { return safe, nil }},
					&fake{name: "pg", kind: KindInjection, fn: func(context.Context, string) (Verdict, error) { return benign, nil }},
				}
			}
			g, err := New(p, in, nil, nil, prometheus.NewRegistry(), slog.New(slog.DiscardHandler))
			if err != nil {
				b.Fatal(err)
			}
			for _, c := range in {
				c.(*fake).quiet = true
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := g.CheckInput(context.Background(), texts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkWindows is the cost of cutting a 100 KB document into Prompt Guard windows.
func BenchmarkWindows(b *testing.B) {
	doc := words(15000)
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		if len(Windows(doc, 512, 64)) < 2 {
			b.Fatal("one window")
		}
	}
}
