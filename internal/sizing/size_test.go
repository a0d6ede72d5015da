package sizing

import (
	"errors"
	"flag"
	"math"
	"os"
	"strings"
	"testing"
	"time"
)

// Every test here is named TestSize… so that `go test ./internal/sizing/ -run Size` runs them all.

var update = flag.Bool("update", false, "rewrite testdata/example-report.txt from the current output")

const examplePath = "../../packaging/sizing/example-assumptions.yaml"

var today = time.Date(2027, 3, 15, 0, 0, 0, 0, time.UTC)

func exampleBytes(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(examplePath)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func example(t *testing.T) Assumptions {
	t.Helper()
	a, err := Load(exampleBytes(t), today)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func sizeOf(t *testing.T, a Assumptions) *Report {
	t.Helper()
	r, err := Size(a, Provenance{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

// TestSizeExample pins the figures the issue asks for on the example file (GB = 1e9 bytes).
func TestSizeExample(t *testing.T) {
	r := sizeOf(t, example(t))
	tests := []struct {
		name      string
		got, want float64
		tol       float64
	}{
		{"peak output tok/s", r.Demand.PeakTokS, 40000, 1e-6},
		{"mean output tok/s", r.Demand.MeanTokS, 5e6 * 256 / 86400, 1e-6},
		{"rho_max at 300 ms", r.Utilisation.RhoMax, 0.63, 0},
		{"installed tok/s ≈ 63 500", r.Capacity.InstalledTokS, 63500, 10},
		{"GPUs", float64(r.Capacity.GPUs), 35, 0},
		{"nodes", float64(r.Capacity.Nodes), 9, 0},
		{"nodes with headroom", float64(r.Capacity.NodesDeployed), 11, 0},
		{"replicas", float64(r.Capacity.Replicas), 9, 0},
		{"KV bytes per token", r.Memory.KVBytesPerToken, 327680, 0},
		{"KV bytes per token per GPU (8 heads over TP 4)", r.Memory.KVBytesPerTokenPerGPU, 81920, 0},
		{"weights per GPU bytes", r.Memory.WeightsPerGPUBytes, 35e9, 0},
		{"KV budget per GPU is 38 GB of 1e9 bytes", r.Memory.KVBudgetPerGPUBytes, 38 * 1e9, 1},
		{"KV budget per GPU in GB", r.Memory.KVBudgetPerGPUBytes / GB, 38, 1e-9},
		{"decode TPOT bound ms ≈ 10.4", r.Memory.DecodeTPOTBoundMs, 10.4, 0.05},
		{"prefill tok/s ≈ 14 000", r.Memory.PrefillTokS, 14000, 150},
		{"max sequences at 768 tokens", r.Memory.MaxSequences, 603, 0},
		{"request time s", r.Memory.RequestTimeS, 13.1, 1e-9},
		{"SLO concurrency per replica", r.Capacity.SLOConcurrencyPerReplica, 156.25 / 9 * 13.1, 1e-9},
		{"tokens per pass α=0.65 γ=4", r.Speculative.TokensPerPass, (1 - math.Pow(0.65, 5)) / 0.35, 1e-12},
		{"GPUs with drafting", float64(r.Speculative.Capacity.GPUs), 14, 0},
		{"nodes with drafting, deployed", float64(r.Speculative.Capacity.NodesDeployed), 5, 0},
		{"node-year", r.Cost.NodeYear, 166000.0/3 + 28000, 1e-9},
		{"GPU-hour at rho_max", r.Cost.GPUHourAtRhoMax, (166000.0/3 + 28000) / (4 * 8760 * 0.63), 1e-9},
		{"per 1M tok at rho_max", r.Cost.PerMTokAtRhoMax, (166000.0/3 + 28000) / (4 * 8760 * 0.63) * 1e6 / (1850 * 3600), 1e-12},
		{"break-even utilisation", r.Cost.Cloud.BreakEvenUtilisation, (166000.0/3 + 28000) / (4 * 8760 * 3.63), 1e-12},
		{"payback months, renting every hour", *r.Cost.Cloud.PaybackMonthsAlwaysOn, 166000 / (3.63*4*730 - 28000.0/12), 1e-9},
	}
	for _, tt := range tests {
		if !near(tt.got, tt.want, tt.tol) {
			t.Errorf("%s = %v, want %v ± %v", tt.name, tt.got, tt.want, tt.tol)
		}
	}
	if r.Cost.Cloud.PaybackMonthsAsUsed != nil {
		t.Errorf("renting only the hours used (mean utilisation %.3f) is cheaper than the opex: payback must be never, got %v",
			r.Capacity.MeanUtilisation, *r.Cost.Cloud.PaybackMonthsAsUsed)
	}
	if f := r.Failed(); len(f) != 0 {
		t.Errorf("the example plan fails %v", f)
	}
}

func TestSizeRhoTable(t *testing.T) {
	tests := []struct {
		ttft    float64
		want    float64
		how     string
		wantErr bool
	}{
		{ttft: 200, want: 0.55, how: "row 200 ms"},
		{ttft: 300, want: 0.63, how: "row 300 ms"},
		{ttft: 250, want: 0.59, how: "linear between rows 200 ms and 300 ms"},
		{ttft: 450, want: 0.725, how: "linear between rows 400 ms and 500 ms"},
		{ttft: 500, want: 0.75, how: "row 500 ms"},
		{ttft: 2000, want: 0.75, how: "last row 500 ms (the table is not extrapolated upwards)"},
		{ttft: 199, wantErr: true},
	}
	for _, tt := range tests {
		rho, how, err := RhoFromTable(DefaultRhoTable(), tt.ttft)
		if tt.wantErr {
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("ttft %v: err = %v, want ErrInvalid", tt.ttft, err)
			}
			continue
		}
		if err != nil || !near(rho, tt.want, 1e-12) || how != tt.how {
			t.Errorf("ttft %v: ρ = %v (%q), %v; want %v (%q)", tt.ttft, rho, how, err, tt.want, tt.how)
		}
	}
}

func TestSizeRhoMM1(t *testing.T) {
	tests := []struct {
		wait, service float64
		want          float64
		wantErr       bool
	}{
		{wait: 50, service: 50, want: 0.5},
		{wait: 150, service: 50, want: 0.75},
		{wait: 10, service: 40, want: 0.2},
		{wait: 950, service: 50, want: 0.95},
		{wait: 0, service: 50, wantErr: true},
		{wait: 50, service: -1, wantErr: true},
		{wait: math.Inf(1), service: 50, wantErr: true},
	}
	for _, tt := range tests {
		rho, err := RhoMM1(tt.wait, tt.service)
		if tt.wantErr != (err != nil) || !near(rho, tt.want, 1e-12) {
			t.Errorf("W=%v s=%v: ρ = %v, %v; want %v (error %v)", tt.wait, tt.service, rho, err, tt.want, tt.wantErr)
		}
		if err == nil {
			// The defining identity: an M/M/1 queue at ρ has mean wait s·ρ/(1−ρ).
			if w := tt.service * rho / (1 - rho); !near(w, tt.wait, 1e-9) {
				t.Errorf("W=%v s=%v: ρ %v gives a mean wait of %v", tt.wait, tt.service, rho, w)
			}
		}
	}

	// In a file, the M/M/1 form replaces the table, even for an SLO tighter than its first row.
	b := strings.Replace(string(exampleBytes(t)), "{ttft_p99_ms: 300, tpot_p95_ms: 50}",
		"{ttft_p99_ms: 150, tpot_p95_ms: 50, max_queue_wait_ms: 60, service_time_ms: 40}", 1)
	a, err := Load([]byte(b), today)
	if err != nil {
		t.Fatal(err)
	}
	r := sizeOf(t, a)
	if r.Utilisation.Method != "mm1" || !near(r.Utilisation.RhoMax, 0.6, 1e-12) {
		t.Fatalf("utilisation %+v, want the M/M/1 form at 0.6", r.Utilisation)
	}
	if !strings.Contains(r.Text(), "(W/s)/(1+W/s)") {
		t.Errorf("the text report does not show the M/M/1 formula")
	}
}

func TestSizeTokensPerPass(t *testing.T) {
	tests := []struct {
		alpha float64
		gamma int
		want  float64
	}{
		{alpha: 0, gamma: 4, want: 1}, // every draft rejected: the target's own token only
		{alpha: 1, gamma: 4, want: 5}, // every draft accepted: γ+1
		{alpha: 1, gamma: 1, want: 2},
		{alpha: 0.5, gamma: 1, want: 1.5}, // 1 + 0.5
		{alpha: 0.5, gamma: 2, want: 1.75},
		{alpha: 0.65, gamma: 4, want: 1 + 0.65 + 0.65*0.65 + math.Pow(0.65, 3) + math.Pow(0.65, 4)},
		{alpha: 1 - 1e-9, gamma: 4, want: 5}, // continuous at α → 1
	}
	for _, tt := range tests {
		if got := TokensPerPass(tt.alpha, tt.gamma); !near(got, tt.want, 1e-6) {
			t.Errorf("α=%v γ=%d: %v, want %v", tt.alpha, tt.gamma, got, tt.want)
		}
	}

	// α = 0 with c = 1: drafting changes nothing; α = 1: γ+1 times the throughput.
	for _, tt := range []struct {
		alpha    float64
		wantGPUs int
	}{{0, 35}, {1, 7}} {
		a := example(t)
		a.Speculative.Acceptance = tt.alpha
		s := sizeOf(t, a).Speculative
		if s.Capacity.GPUs != tt.wantGPUs {
			t.Errorf("α=%v: %d GPUs with drafting, want %d", tt.alpha, s.Capacity.GPUs, tt.wantGPUs)
		}
	}

	// The verify pass cost divides the gain: c = E gives back the plain fleet.
	a := example(t)
	a.Speculative.VerifyCost = TokensPerPass(0.65, 4)
	if s := sizeOf(t, a).Speculative; !near(s.Speedup, 1, 1e-12) || s.Capacity.GPUs != 35 {
		t.Errorf("c = E: speed-up %v, %d GPUs; want 1 and 35", s.Speedup, s.Capacity.GPUs)
	}
}

func TestSizeCeilForgivesFloatNoise(t *testing.T) {
	for _, tt := range []struct {
		x    float64
		want int
	}{{20 * 1.15, 23}, {9 * 1.15, 11}, {34.32, 35}, {35, 35}, {35.000001, 36}, {0, 0}} {
		if got := ceil(tt.x); got != tt.want {
			t.Errorf("ceil(%v) = %d, want %d", tt.x, got, tt.want)
		}
	}
}

// TestSizeFailingChecks: a plan that cannot meet its SLO says which check fails and why.
func TestSizeFailingChecks(t *testing.T) {
	tests := []struct {
		name   string
		change func(a *Assumptions)
		fail   string
	}{
		{"weights do not fit", func(a *Assumptions) { a.Model.ParamsB = 405 }, "memory"},
		{"TPOT below the weight-read bound", func(a *Assumptions) { a.SLO.TPOTP95Ms = 8 }, "tpot"},
		{"prefill slower than the TTFT", func(a *Assumptions) { a.Demand.InputTokensMean = 8000 }, "ttft"},
		{"long contexts overflow the KV cache", func(a *Assumptions) {
			a.Demand.InputTokensMean, a.Demand.RequestsPerDay = 3500, 4e6
		}, "kv-concurrency"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := example(t)
			tt.change(&a)
			r := sizeOf(t, a)
			var names []string
			for _, c := range r.Failed() {
				names = append(names, c.Name)
			}
			if !strings.Contains(strings.Join(names, ","), tt.fail) {
				t.Fatalf("failed checks %v, want %s among them\n%s", names, tt.fail, r.Text())
			}
		})
	}
}

// TestSizeGoldenText pins the whole text report of the example file. Regenerate with
// go test ./internal/sizing/ -run SizeGoldenText -update, and read the diff.
func TestSizeGoldenText(t *testing.T) {
	got := sizeOf(t, example(t)).Text()
	const golden = "testdata/example-report.txt"
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("text report differs from %s (run with -update and read the diff):\n%s", golden, got)
	}
}

func TestSizeReportFormats(t *testing.T) {
	r := sizeOf(t, example(t))
	for _, f := range Formats {
		var b strings.Builder
		if err := r.Write(&b, f); err != nil || b.Len() == 0 {
			t.Errorf("format %s: %v (%d bytes)", f, err, b.Len())
		}
		if f == "yaml" && strings.Contains(b.String(), "e+") {
			t.Errorf("yaml report has exponent notation:\n%s", b.String())
		}
	}
	if err := r.Write(&strings.Builder{}, "xml"); err == nil || !strings.Contains(err.Error(), "xml") {
		t.Errorf("unknown format: err = %v", err)
	}
}

// TestSizeDocShowsTheReport keeps docs/SIZING.md's copy of the example's report current.
func TestSizeDocShowsTheReport(t *testing.T) {
	doc, err := os.ReadFile("../../docs/SIZING.md")
	if err != nil {
		t.Fatal(err)
	}
	if report := sizeOf(t, example(t)).Text(); !strings.Contains(string(doc), "```\n"+report+"```\n") {
		t.Errorf("docs/SIZING.md does not show the example's current report; paste testdata/example-report.txt into it")
	}
}
