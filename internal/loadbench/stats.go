package loadbench

import (
	"math"
	"slices"
	"time"
)

// Percentiles of one latency, in milliseconds, over Samples requests (nearest rank; 0 without
// samples).
type Percentiles struct {
	P50     float64 `json:"p50_ms"`
	P95     float64 `json:"p95_ms"`
	P99     float64 `json:"p99_ms"`
	Samples int     `json:"samples"`
}

func percentiles(d []time.Duration) Percentiles {
	if len(d) == 0 {
		return Percentiles{}
	}
	s := slices.Clone(d)
	slices.Sort(s)
	at := func(q float64) float64 {
		i := max(0, int(math.Ceil(q*float64(len(s))))-1)
		return round3(float64(s[i]) / 1e6)
	}
	return Percentiles{P50: at(0.50), P95: at(0.95), P99: at(0.99), Samples: len(s)}
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

func mean(sum float64, n int) float64 {
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}
