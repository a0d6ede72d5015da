package sizing

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestSizeInvalidAssumptions: each bad file is refused with a message naming the key and the fix.
func TestSizeInvalidAssumptions(t *testing.T) {
	tests := []struct {
		name string
		old  string // replaced in the example file by new
		new  string
		want []string // substrings of the error, all required
	}{
		{"negative demand", "requests_per_day: 5000000", "requests_per_day: -5",
			[]string{"demand.requests_per_day must be > 0, got -5"}},
		{"zero GPUs per node", "gpus_per_node: 4", "gpus_per_node: 0",
			[]string{"hardware.gpus_per_node must be a whole number ≥ 1, got 0"}},
		{"TP does not divide GPUs per node", "gpus_per_node: 4", "gpus_per_node: 6",
			[]string{"hardware.tensor_parallel 4 does not divide hardware.gpus_per_node 6"}},
		{"TP and KV heads", "kv_heads: 8", "kv_heads: 6",
			[]string{"hardware.tensor_parallel 4 and model.kv_heads 6: one must divide the other"}},
		{"unknown keys, all of them", "headroom: 0.15", "headroom: 0.15\nheadrom: 0.2\nextra: 1",
			[]string{"line 9: unknown key headrom at the top level", "line 10: unknown key extra at the top level"}},
		{"unknown nested key", "gamma: 4}", "gamma: 4, draft_model: x}",
			[]string{"unknown key draft_model in speculative"}},
		{"missing key where zero is valid", "headroom: 0.15\n", "",
			[]string{"headroom is missing"}},
		{"acceptance above 1", "acceptance: 0.65", "acceptance: 1.5",
			[]string{"speculative.acceptance must be in [0, 1], got 1.5"}},
		{"gamma zero", "gamma: 4", "gamma: 0",
			[]string{"speculative.gamma must be a whole number ≥ 1"}},
		{"more than 24 active hours", "active_hours: 16", "active_hours: 25",
			[]string{"demand.active_hours must be in (0, 24]"}},
		{"peak below mean", "peak_factor: 1.8", "peak_factor: 0.5",
			[]string{"demand.peak_factor must be ≥ 1", "the peak cannot be below the mean"}},
		{"SLO tighter than the table", "ttft_p99_ms: 300", "ttft_p99_ms: 100",
			[]string{"slo.ttft_p99_ms 100 is tighter than the rho table's first row (200 ms)"}},
		{"half of the M/M/1 form", "tpot_p95_ms: 50}", "tpot_p95_ms: 50, max_queue_wait_ms: 40}",
			[]string{"slo.max_queue_wait_ms and slo.service_time_ms go together"}},
		{"rho table going the wrong way", "tpot_p95_ms: 50}",
			"tpot_p95_ms: 50, rho_table: [{ttft_p99_ms: 200, rho_max: 0.6}, {ttft_p99_ms: 300, rho_max: 0.5}, {ttft_p99_ms: 300, rho_max: 1}]}",
			[]string{"slo.rho_table[1]: rho_max must not decrease", "slo.rho_table[2]: ttft_p99_ms must increase", "slo.rho_table[2].rho_max must be in (0, 1)"}},
		{"efficiency above 1", "efficiency: 0.5", "efficiency: 5",
			[]string{"hardware.efficiency must be in (0, 1]"}},
		{"not a number", "vram_gb: 80", "vram_gb: eighty",
			[]string{"cannot unmarshal !!str `eighty` into float64"}},
		{"NaN", "hbm_tb_s: 3.35", "hbm_tb_s: .nan",
			[]string{"hardware.hbm_tb_s must be a finite number"}},
		{"fractional GPUs", "gpus_per_node: 4", "gpus_per_node: 4.5",
			[]string{"hardware.gpus_per_node must be a whole number, got 4.5"}},
		{"bad date", "date: 2026-12-01", "date: 1 December",
			[]string{`date "1 December" is not YYYY-MM-DD`}},
		{"zero years", "years: 3", "years: 0",
			[]string{"cost.years must be > 0"}},
		{"every problem at once", "requests_per_day: 5000000", "requests_per_day: 0, colour: red",
			[]string{"line 2: unknown key colour in demand", "demand.requests_per_day must be > 0"}},
	}
	base := string(exampleBytes(t))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !strings.Contains(base, tt.old) {
				t.Fatalf("the example file has no %q", tt.old)
			}
			_, err := Load([]byte(strings.Replace(base, tt.old, tt.new, 1)), today)
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("err = %v, want ErrInvalid", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error does not mention %q:\n%v", w, err)
				}
			}
		})
	}

	if _, err := Load(nil, today); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("empty file: %v", err)
	}
	// Size refuses what Validate refuses, for callers that build Assumptions in code.
	a := example(t)
	a.Hardware.TensorParallel = 3
	if _, err := Size(a, Provenance{}); !errors.Is(err, ErrInvalid) {
		t.Errorf("Size with TP 3 on 4 GPUs per node: %v", err)
	}
}

// TestSizeWrittenAssumptionsRoundTrip: the written file loads back to the same values, with every
// default written out, so a plan can be re-run as it was.
func TestSizeWrittenAssumptionsRoundTrip(t *testing.T) {
	a := example(t)
	out, err := a.Marshal("written by a test")
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	for _, want := range []string{
		"# written by a test\n", "\ndate: 2026-12-01\n", "requests_per_day: 5000000\n",
		"- {ttft_p99_ms: 200, rho_max: 0.55}", "verify_cost: 1\n", "currency: EUR\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("written file lacks %q:\n%s", want, s)
		}
	}
	back, err := Load(out, today)
	if err != nil {
		t.Fatalf("%v\n%s", err, s)
	}
	if !reflect.DeepEqual(a, back) {
		t.Errorf("round trip changed the assumptions:\n%+v\n%+v", a, back)
	}

	// A file without a date gets today's; defaults are filled in.
	noDate := strings.Replace(string(exampleBytes(t)), "date: 2026-12-01\n", "", 1)
	noDate = strings.Replace(noDate, ", currency: EUR", "", 1)
	b, err := Load([]byte(noDate), today)
	if err != nil {
		t.Fatal(err)
	}
	if b.Date != "2027-03-15" || b.Cost.Currency != "EUR" || len(b.SLO.RhoTable) != 4 || b.Speculative.VerifyCost != DefaultVerifyCost {
		t.Errorf("defaults not filled in: %+v", b)
	}
}
