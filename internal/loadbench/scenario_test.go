package loadbench

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestExampleScenarioFilesLoad(t *testing.T) {
	files, _ := filepath.Glob("../../packaging/bench/*.yaml")
	more, _ := filepath.Glob("../../docs/bench/*.yaml")
	files = append(files, more...)
	if len(files) == 0 {
		t.Fatal("no scenario examples in packaging/bench")
	}
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Load(data); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}

func TestLoadListsEveryProblem(t *testing.T) {
	for _, tc := range []struct {
		yaml string
		want []string
	}{
		{`scenarios: []`, []string{"measure: requests or duration is required", "at least one is required"}},
		{`
measure: {requests: 5, duration: 3s}
slo: {attainment: 2}
scenarios:
  - name: a
    sampling: top-k
    input_tokens: {p50: 10, p95: 5}
    output_tokens: {values: [0]}
    arrival: {mode: burst}
  - name: a
    model: m
    input_tokens: {p50: 1}
    output_tokens: {p50: 1}
    arrival: {mode: closed, concurrency: [0]}
  - name: t
    model: m
    input_tokens: {p50: 1}
    output_tokens: {p50: 1}
    arrival: {mode: trace, trace: [{at_ms: 5}, {at_ms: 1}]}
`, []string{"slo.attainment", "measure: give requests or duration", "model is required", "sampling must be greedy or sampled",
			"input_tokens: want 1 ≤ p50 ≤ p95", "output_tokens: values must be", "arrival.mode must be closed, open or trace", "name used twice",
			"arrival.concurrency", "offsets must be non-negative and in order"}},
		{"measure: {requests: 1}\nsurprise: 1\n", []string{"field surprise not found"}},
		{"measure: {duration: soon}\n", []string{`"soon" is not a duration`}},
	} {
		_, err := Load([]byte(tc.yaml))
		if err == nil {
			t.Errorf("accepted:\n%s", tc.yaml)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("error %q lacks %q", err, w)
			}
		}
	}
}

func TestDistribution(t *testing.T) {
	d := Distribution{P50: 100, P95: 400, P99: 800}
	for _, q := range []struct{ q, want float64 }{{0.5, 100}, {0.95, 400}, {0.99, 800}, {0, 25}, {1, 1200}} {
		if got := d.Quantile(q.q); math.Abs(got-q.want) > 1e-9 {
			t.Errorf("Quantile(%v) = %v, want %v", q.q, got, q.want)
		}
	}
	// Drawn counts follow the quantiles (seeded: the same every run).
	r := rand.New(rand.NewPCG(1, 2))
	var s []int
	for range 20000 {
		s = append(s, d.Draw(r))
	}
	slices.Sort(s)
	for _, q := range []struct {
		q    float64
		want int
	}{{0.5, 100}, {0.95, 400}, {0.99, 800}} {
		if got := s[int(q.q*float64(len(s)))]; math.Abs(float64(got-q.want)) > 0.05*float64(q.want) {
			t.Errorf("drawn p%g = %d, want about %d", q.q*100, got, q.want)
		}
	}
	v := Distribution{Values: []int{3, 7}}
	for range 100 {
		if n := v.Draw(r); n != 3 && n != 7 {
			t.Fatalf("drew %d from %v", n, v.Values)
		}
	}
	if one := (Distribution{P50: 1, P95: 1, P99: 1}); one.Draw(r) != 1 {
		t.Error("a fixed length of 1 drew something else")
	}
}

func TestPromptLength(t *testing.T) {
	for _, n := range []int{1, 2, 50, 3000} {
		for _, rep := range []bool{false, true} {
			if got := len(strings.Fields(prompt(n, 9, rep))); got != n {
				t.Errorf("prompt(%d, repeated=%v) has %d words", n, rep, got)
			}
		}
	}
	if prompt(10, 1, false) == prompt(10, 2, false) || prompt(10, 1, true) != prompt(10, 2, true) {
		t.Error("unique prompts must differ and repeated ones must not")
	}
}

func FuzzLoad(f *testing.F) {
	f.Add([]byte("model: m\nmeasure: {requests: 1}\nscenarios:\n  - {name: s, input_tokens: {p50: 4}, output_tokens: {p50: 4}, arrival: {mode: closed, concurrency: [1]}}\n"))
	f.Add([]byte("scenarios: [{arrival: {mode: trace, trace: [{at_ms: -1}]}}]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Load(data)
		if err != nil {
			return
		}
		if file.Validate() != nil || len(file.Scenarios) == 0 || file.Repetitions < 1 {
			t.Fatalf("Load accepted an invalid file: %+v", file)
		}
		for _, s := range file.Scenarios {
			r := rand.New(rand.NewPCG(1, 1))
			if s.InputTokens.Draw(r) < 1 || s.OutputTokens.Draw(r) < 1 {
				t.Fatal("drew a length below 1")
			}
		}
	})
}

func FuzzParseHistogram(f *testing.F) {
	f.Add("sucursal_admission_queue_wait_seconds_bucket{le=\"0.1\"} 3\nsucursal_admission_queue_wait_seconds_bucket{le=\"+Inf\"} 5\n")
	f.Add("sucursal_admission_queue_wait_seconds_bucket{x=\"1\",le=\"NaN\"} 1 17\n")
	f.Fuzz(func(t *testing.T, text string) {
		h, err := ParseHistogram(strings.NewReader(text), queueWaitMetric)
		if err != nil {
			return
		}
		if len(h.Bounds) != len(h.Counts) || !slices.IsSorted(h.Bounds) {
			t.Fatalf("histogram %+v", h)
		}
		_ = h.quantiles()
	})
}
