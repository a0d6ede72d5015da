package fleet

import (
	"errors"
	"testing"
)

func TestParseGate(t *testing.T) {
	tests := []struct {
		in   string
		want Gate
		err  bool
	}{
		{"error_rate<0.02", Gate{MetricErrorRate, "<", 0.02}, false},
		{" ttft_p95_ratio <= 1.5 ", Gate{MetricTTFTRatio, "<=", 1.5}, false},
		{"install_failures==0", Gate{MetricInstallFailures, "==", 0}, false},
		{"failover_rate>=1e-3", Gate{MetricFailoverRate, ">=", 0.001}, false},
		{"cpu<1", Gate{}, true},
		{"error_rate", Gate{}, true},
		{"error_rate<abc", Gate{}, true},
		{"error_rate<NaN", Gate{}, true},
		{"<1", Gate{}, true},
	}
	for _, tt := range tests {
		g, err := ParseGate(tt.in)
		if tt.err {
			if !errors.Is(err, ErrBadGate) {
				t.Errorf("ParseGate(%q) err = %v, want ErrBadGate", tt.in, err)
			}
			continue
		}
		if err != nil || g != tt.want {
			t.Errorf("ParseGate(%q) = %+v, %v; want %+v", tt.in, g, err, tt.want)
		}
	}
}

func TestGateHolds(t *testing.T) {
	tests := []struct {
		gate string
		v    float64
		want bool
	}{
		{"error_rate<0.1", 0.05, true},
		{"error_rate<0.1", 0.1, false},
		{"error_rate<=0.1", 0.1, true},
		{"ttft_p95_ratio>1", 1, false},
		{"install_failures==0", 0, true},
		{"install_failures==0", 1, false},
	}
	for _, tt := range tests {
		g, err := ParseGate(tt.gate)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.Holds(tt.v); got != tt.want {
			t.Errorf("%s holds for %v = %v, want %v", tt.gate, tt.v, got, tt.want)
		}
	}
}

func FuzzParseGate(f *testing.F) {
	for _, s := range []string{"error_rate<0.02", "ttft_p95_ratio <= 1.5", "x==", "<<=1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g, err := ParseGate(s)
		if err != nil {
			return
		}
		back, err := ParseGate(g.String())
		if err != nil || back != g {
			t.Fatalf("round trip %q -> %q -> %+v, %v", s, g.String(), back, err)
		}
	})
}

func FuzzParseWaves(f *testing.F) {
	for _, s := range []string{"5%,25%,100%", "100", "50,40,100", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		w, err := ParseWaves(s)
		if err != nil {
			return
		}
		if len(w) == 0 || w[len(w)-1] != 100 {
			t.Fatalf("%q -> %v: must end at 100", s, w)
		}
		for i := 1; i < len(w); i++ {
			if w[i] <= w[i-1] || w[i-1] <= 0 {
				t.Fatalf("%q -> %v: must rise from above 0", s, w)
			}
		}
	})
}
