package loadbench

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// File is a scenario file: what to run, against which SLO, and what the run declares about the
// system under test.
type File struct {
	// Seed makes the run reproducible: prompt lengths, output lengths, Poisson arrivals and the
	// sampled requests' seeds all derive from it (0: 1).
	Seed  uint64 `yaml:"seed" json:"seed"`
	Model string `yaml:"model" json:"model"` // the model every scenario asks for unless it names one
	SLO   SLO    `yaml:"slo" json:"slo"`
	// Warmup runs before each cell's measurement, at the cell's load; its requests are not counted.
	Warmup Phase `yaml:"warmup" json:"warmup"`
	// Measure is one repetition of a cell's measurement.
	Measure     Phase `yaml:"measure" json:"measure"`
	Repetitions int   `yaml:"repetitions" json:"repetitions"` // default 1
	// Timeout bounds one request (default 120s); a request past it is an error.
	Timeout  Duration `yaml:"timeout" json:"timeout"`
	Declared Declared `yaml:"declared" json:"declared"`
	// Scenarios run in order, each over its own matrix.
	Scenarios []Scenario `yaml:"scenarios" json:"scenarios"`
}

// SLO is what one request must meet to count towards goodput; a zero field is not checked. A
// cell meets the SLO when at least Attainment of its attempted requests (rejected and failed ones
// included) met it.
type SLO struct {
	TTFTMs     float64 `yaml:"ttft_ms" json:"ttft_ms"`
	ITLMs      float64 `yaml:"itl_ms" json:"itl_ms"` // the request's mean inter-token gap
	E2EMs      float64 `yaml:"e2e_ms" json:"e2e_ms"`
	Attainment float64 `yaml:"attainment" json:"attainment"` // default 0.95
}

// Phase is how long a phase lasts: a number of requests, or a duration (for open loops, a number
// of arrivals). One of them.
type Phase struct {
	Requests int      `yaml:"requests" json:"requests,omitempty"`
	Duration Duration `yaml:"duration" json:"duration,omitempty"`
}

// Declared is what the run cannot see from outside and the operator states: it goes into the
// report's snapshot as given.
type Declared struct {
	Runtime       string `yaml:"runtime" json:"runtime,omitempty"`
	Hardware      string `yaml:"hardware" json:"hardware,omitempty"` // of the serving side, when it is not this machine
	PrefixCaching string `yaml:"prefix_caching" json:"prefix_caching,omitempty"`
	Notes         string `yaml:"notes" json:"notes,omitempty"`
}

// Scenario is one kind of traffic.
type Scenario struct {
	Name         string       `yaml:"name" json:"name"`
	Model        string       `yaml:"model" json:"model,omitempty"`
	Stream       *bool        `yaml:"stream" json:"stream"`                     // default true
	Sampling     string       `yaml:"sampling" json:"sampling"`                 // greedy (default) or sampled
	Temperature  float64      `yaml:"temperature" json:"temperature,omitempty"` // sampled: default 0.8
	InputTokens  Distribution `yaml:"input_tokens" json:"input_tokens"`
	OutputTokens Distribution `yaml:"output_tokens" json:"output_tokens"`
	// RepeatedPrompts sends the same prompt for the same length (what prefix caching feeds on);
	// by default every prompt starts with its own request number, so no two share a prefix.
	RepeatedPrompts bool    `yaml:"repeated_prompts" json:"repeated_prompts"`
	Arrival         Arrival `yaml:"arrival" json:"arrival"`
}

// Arrival is the arrival process and the matrix it runs over.
type Arrival struct {
	// Mode: closed (Concurrency workers, each sending its next request when the last ended), open
	// (Poisson arrivals at each of Rates requests/s), or trace (the recorded Trace, its offsets
	// divided by each of Speedups).
	Mode        string       `yaml:"mode" json:"mode"`
	Concurrency []int        `yaml:"concurrency" json:"concurrency,omitempty"`
	Rates       []float64    `yaml:"rates" json:"rates,omitempty"`
	Trace       []TraceEntry `yaml:"trace" json:"trace,omitempty"`
	Speedups    []float64    `yaml:"speedups" json:"speedups,omitempty"` // trace: default [1]
}

// TraceEntry is one recorded arrival: its offset from the start, and optionally its own lengths.
type TraceEntry struct {
	AtMs         float64 `yaml:"at_ms" json:"at_ms"`
	InputTokens  int     `yaml:"input_tokens" json:"input_tokens,omitempty"`
	OutputTokens int     `yaml:"output_tokens" json:"output_tokens,omitempty"`
}

// Distribution is a token-count distribution: explicit Values (drawn uniformly), or quantiles.
// From quantiles, counts are drawn by interpolating the quantile function linearly between the
// knots (0, P50²/P95), (0.5, P50), (0.95, P95), (0.99, P99), (1, P99 + (P99−P95)); P95 and P99
// default to the knot before them.
type Distribution struct {
	P50    int   `yaml:"p50" json:"p50,omitempty"`
	P95    int   `yaml:"p95" json:"p95,omitempty"`
	P99    int   `yaml:"p99" json:"p99,omitempty"`
	Values []int `yaml:"values" json:"values,omitempty"`
}

// Duration is a time.Duration written as "30s" in YAML and JSON.
type Duration time.Duration

func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := time.ParseDuration(n.Value)
	if err != nil {
		return fmt.Errorf("line %d: %q is not a duration (e.g. 30s, 2m)", n.Line, n.Value)
	}
	*d = Duration(v)
	return nil
}

func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// Modes and samplings.
const (
	ModeClosed = "closed"
	ModeOpen   = "open"
	ModeTrace  = "trace"
	Greedy     = "greedy"
	Sampled    = "sampled"
)

// Load reads a scenario file strictly (unknown keys are errors), fills defaults and lists every
// problem at once.
func Load(data []byte) (File, error) {
	var f File
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		return File{}, fmt.Errorf("scenario file: %w", err)
	}
	f.defaults()
	if err := f.Validate(); err != nil {
		return File{}, err
	}
	return f, nil
}

func (f *File) defaults() {
	if f.Seed == 0 {
		f.Seed = 1
	}
	if f.SLO.Attainment == 0 {
		f.SLO.Attainment = 0.95
	}
	if f.Repetitions == 0 {
		f.Repetitions = 1
	}
	if f.Timeout == 0 {
		f.Timeout = Duration(120 * time.Second)
	}
	for i := range f.Scenarios {
		s := &f.Scenarios[i]
		if s.Model == "" {
			s.Model = f.Model
		}
		if s.Stream == nil {
			t := true
			s.Stream = &t
		}
		if s.Sampling == "" {
			s.Sampling = Greedy
		}
		if s.Sampling == Sampled && s.Temperature == 0 {
			s.Temperature = 0.8
		}
		if s.Arrival.Mode == ModeTrace && len(s.Arrival.Speedups) == 0 {
			s.Arrival.Speedups = []float64{1}
		}
		for _, d := range []*Distribution{&s.InputTokens, &s.OutputTokens} {
			if d.P95 == 0 {
				d.P95 = d.P50
			}
			if d.P99 == 0 {
				d.P99 = d.P95
			}
		}
	}
}

// Validate lists every problem of a loaded file.
func (f File) Validate() error {
	var errs []string
	bad := func(format string, a ...any) { errs = append(errs, fmt.Sprintf(format, a...)) }
	if f.SLO.TTFTMs < 0 || f.SLO.ITLMs < 0 || f.SLO.E2EMs < 0 {
		bad("slo: thresholds must not be negative")
	}
	if f.SLO.Attainment <= 0 || f.SLO.Attainment > 1 {
		bad("slo.attainment must be in (0,1], got %v", f.SLO.Attainment)
	}
	for name, p := range map[string]Phase{"warmup": f.Warmup, "measure": f.Measure} {
		if p.Requests < 0 || p.Duration < 0 || (p.Requests > 0 && p.Duration > 0) {
			bad("%s: give requests or duration (not both, not negative)", name)
		}
	}
	if f.Measure.Requests == 0 && f.Measure.Duration == 0 {
		bad("measure: requests or duration is required")
	}
	if f.Repetitions < 1 {
		bad("repetitions must be at least 1")
	}
	if len(f.Scenarios) == 0 {
		bad("scenarios: at least one is required")
	}
	seen := map[string]bool{}
	for i, s := range f.Scenarios {
		at := fmt.Sprintf("scenarios[%d] (%s)", i, s.Name)
		if s.Name == "" {
			bad("scenarios[%d]: name is required", i)
		} else if seen[s.Name] {
			bad("%s: name used twice", at)
		}
		seen[s.Name] = true
		if s.Model == "" {
			bad("%s: model is required (here or at the top of the file)", at)
		}
		if s.Sampling != Greedy && s.Sampling != Sampled {
			bad("%s: sampling must be greedy or sampled, got %q", at, s.Sampling)
		}
		if s.Temperature < 0 || s.Temperature > 2 {
			bad("%s: temperature must be in [0,2]", at)
		}
		for name, d := range map[string]Distribution{"input_tokens": s.InputTokens, "output_tokens": s.OutputTokens} {
			if err := d.validate(); err != nil {
				bad("%s: %s: %v", at, name, err)
			}
		}
		a := s.Arrival
		switch a.Mode {
		case ModeClosed:
			if len(a.Concurrency) == 0 || slices.ContainsFunc(a.Concurrency, func(n int) bool { return n < 1 || n > 4096 }) {
				bad("%s: arrival.concurrency: a list of levels in [1,4096]", at)
			}
		case ModeOpen:
			if len(a.Rates) == 0 || slices.ContainsFunc(a.Rates, func(r float64) bool { return !(r > 0) || r > 10000 }) {
				bad("%s: arrival.rates: a list of requests/s in (0,10000]", at)
			}
			if f.Measure.Requests == 0 && f.Measure.Duration == 0 {
				bad("%s: an open loop needs measure.requests or measure.duration", at)
			}
		case ModeTrace:
			if len(a.Trace) == 0 {
				bad("%s: arrival.trace: at least one entry", at)
			}
			if slices.ContainsFunc(a.Speedups, func(r float64) bool { return !(r > 0) }) {
				bad("%s: arrival.speedups must be positive", at)
			}
			for j, e := range a.Trace {
				if e.AtMs < 0 || e.InputTokens < 0 || e.OutputTokens < 0 || (j > 0 && e.AtMs < a.Trace[j-1].AtMs) {
					bad("%s: arrival.trace[%d]: offsets must be non-negative and in order, lengths non-negative", at, j)
					break
				}
			}
		default:
			bad("%s: arrival.mode must be closed, open or trace, got %q", at, a.Mode)
		}
	}
	if len(errs) > 0 {
		return errors.New("scenario file: " + strings.Join(errs, "; "))
	}
	return nil
}

func (d Distribution) validate() error {
	if len(d.Values) > 0 {
		if d.P50 != 0 {
			return errors.New("give values or quantiles, not both")
		}
		if slices.ContainsFunc(d.Values, func(n int) bool { return n < 1 || n > 1<<20 }) {
			return errors.New("values must be in [1, 1048576]")
		}
		return nil
	}
	if d.P50 < 1 || d.P50 > 1<<20 || d.P95 < d.P50 || d.P99 < d.P95 || d.P99 > 1<<20 {
		return fmt.Errorf("want 1 ≤ p50 ≤ p95 ≤ p99 ≤ 1048576, got %d, %d, %d", d.P50, d.P95, d.P99)
	}
	return nil
}

// knots are the quantile function's interpolation points.
func (d Distribution) knots() (q, v []float64) {
	p50, p95, p99 := float64(d.P50), float64(d.P95), float64(d.P99)
	return []float64{0, 0.5, 0.95, 0.99, 1}, []float64{math.Max(1, p50*p50/p95), p50, p95, p99, p99 + (p99 - p95)}
}

// Quantile is the distribution's q-quantile (before rounding to a whole token).
func (d Distribution) Quantile(q float64) float64 {
	if len(d.Values) > 0 {
		s := slices.Sorted(slices.Values(d.Values))
		return float64(s[min(len(s)-1, int(q*float64(len(s))))])
	}
	qs, vs := d.knots()
	for i := 1; i < len(qs); i++ {
		if q <= qs[i] {
			return vs[i-1] + (vs[i]-vs[i-1])*(q-qs[i-1])/(qs[i]-qs[i-1])
		}
	}
	return vs[len(vs)-1]
}

// Draw draws one token count.
func (d Distribution) Draw(r *rand.Rand) int {
	if len(d.Values) > 0 {
		return d.Values[r.IntN(len(d.Values))]
	}
	return max(1, int(math.Round(d.Quantile(r.Float64()))))
}

func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return err
	}
	*d = Duration(v)
	return nil
}
