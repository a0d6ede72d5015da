package sizing

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Assumptions is one sizing's inputs. The YAML keys are fixed: two plans are compared with diff.
type Assumptions struct {
	// Date is the day the assumptions were made (YYYY-MM-DD); Load fills in today when absent.
	Date     Date     `yaml:"date" json:"date"`
	Demand   Demand   `yaml:"demand" json:"demand"`
	SLO      SLO      `yaml:"slo" json:"slo"`
	Model    Model    `yaml:"model" json:"model"`
	Hardware Hardware `yaml:"hardware" json:"hardware"`
	// ThroughputPerGPU is output tokens/s per GPU at saturation, measured with this model,
	// hardware, tensor parallelism and input/output mix (e.g. vLLM's benchmark_serving).
	ThroughputPerGPU float64      `yaml:"throughput_per_gpu_tok_s" json:"throughput_per_gpu_tok_s"`
	Headroom         float64      `yaml:"headroom" json:"headroom"`
	Speculative      *Speculative `yaml:"speculative,omitempty" json:"speculative,omitempty"`
	Cost             Cost         `yaml:"cost" json:"cost"`
}

// Date is a calendar day, YYYY-MM-DD. It is written unquoted, as people write it.
type Date string

// MarshalYAML keeps the date a plain scalar (a string that looks like a timestamp would be quoted).
func (d Date) MarshalYAML() (any, error) {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!timestamp", Value: string(d)}, nil
}

// Demand is the traffic forecast.
type Demand struct {
	RequestsPerDay   float64 `yaml:"requests_per_day" json:"requests_per_day"`
	InputTokensMean  float64 `yaml:"input_tokens_mean" json:"input_tokens_mean"`
	OutputTokensMean float64 `yaml:"output_tokens_mean" json:"output_tokens_mean"`
	// PeakFactor is the peak hour's rate over the mean rate of the active hours (≥ 1).
	PeakFactor  float64 `yaml:"peak_factor" json:"peak_factor"`
	ActiveHours float64 `yaml:"active_hours" json:"active_hours"`
}

// SLO is the latency target. The utilisation ceiling comes from RhoTable at TTFTP99Ms, or from the
// M/M/1 form when both MaxQueueWaitMs and ServiceTimeMs are given.
type SLO struct {
	TTFTP99Ms      float64  `yaml:"ttft_p99_ms" json:"ttft_p99_ms"`
	TPOTP95Ms      float64  `yaml:"tpot_p95_ms" json:"tpot_p95_ms"`
	MaxQueueWaitMs float64  `yaml:"max_queue_wait_ms,omitempty" json:"max_queue_wait_ms,omitempty"`
	ServiceTimeMs  float64  `yaml:"service_time_ms,omitempty" json:"service_time_ms,omitempty"`
	RhoTable       []RhoRow `yaml:"rho_table,omitempty" json:"rho_table,omitempty"`
}

// RhoRow is one row of the TTFT p99 → utilisation ceiling table.
type RhoRow struct {
	TTFTP99Ms float64 `yaml:"ttft_p99_ms" json:"ttft_p99_ms"`
	RhoMax    float64 `yaml:"rho_max" json:"rho_max"`
}

// DefaultRhoTable is an M/M/1-style rule of thumb, not a measurement (docs/SIZING.md).
func DefaultRhoTable() []RhoRow {
	return []RhoRow{{200, 0.55}, {300, 0.63}, {400, 0.70}, {500, 0.75}}
}

// Model is the served model's shape.
type Model struct {
	Name          string  `yaml:"name" json:"name"`
	ParamsB       float64 `yaml:"params_b" json:"params_b"`
	BytesPerParam float64 `yaml:"bytes_per_param" json:"bytes_per_param"`
	Layers        int     `yaml:"layers" json:"layers"`
	KVHeads       int     `yaml:"kv_heads" json:"kv_heads"`
	HeadDim       int     `yaml:"head_dim" json:"head_dim"`
}

// Hardware is one GPU node type and how a replica is laid out on it. GB means 1e9 bytes.
type Hardware struct {
	GPU            string  `yaml:"gpu" json:"gpu"`
	VRAMGB         float64 `yaml:"vram_gb" json:"vram_gb"`
	HBMTBs         float64 `yaml:"hbm_tb_s" json:"hbm_tb_s"`
	TFLOPs         float64 `yaml:"tflops" json:"tflops"`
	GPUsPerNode    int     `yaml:"gpus_per_node" json:"gpus_per_node"`
	TensorParallel int     `yaml:"tensor_parallel" json:"tensor_parallel"`
	ActivationsGB  float64 `yaml:"activations_gb" json:"activations_gb"`
	OverheadGB     float64 `yaml:"overhead_gb" json:"overhead_gb"`
	// Efficiency is the fraction of peak FLOP/s that prefill reaches.
	Efficiency float64 `yaml:"efficiency" json:"efficiency"`
}

// Speculative is the drafting lever: the edge drafts γ tokens, the DC verifies them in one pass.
type Speculative struct {
	Acceptance float64 `yaml:"acceptance" json:"acceptance"`
	Gamma      int     `yaml:"gamma" json:"gamma"`
	// VerifyCost is c: one verify pass of γ+1 tokens costs c decode passes. Default 1.
	VerifyCost float64 `yaml:"verify_cost" json:"verify_cost"`
}

// DefaultVerifyCost is the memory-bound ideal (the target reads its weights once per pass,
// whether it scores one token or γ+1), as in Leviathan et al. 2023. Report checks flag it when
// the roofline says otherwise.
const DefaultVerifyCost = 1.0

// Cost is the money side. CloudGPUHour 0 means no cloud comparison.
type Cost struct {
	NodeCapex       float64 `yaml:"node_capex" json:"node_capex"`
	Years           float64 `yaml:"years" json:"years"`
	NodeOpexPerYear float64 `yaml:"node_opex_per_year" json:"node_opex_per_year"`
	Currency        string  `yaml:"currency" json:"currency"`
	CloudGPUHour    float64 `yaml:"cloud_gpu_hour,omitempty" json:"cloud_gpu_hour,omitempty"`
}

// requiredKeys must be present in a file even where zero is a valid value (a missing headroom is
// a forgotten one, not "no headroom").
var requiredKeys = []string{
	"demand.requests_per_day", "demand.input_tokens_mean", "demand.output_tokens_mean",
	"demand.peak_factor", "demand.active_hours",
	"slo.ttft_p99_ms", "slo.tpot_p95_ms",
	"model.params_b", "model.bytes_per_param", "model.layers", "model.kv_heads", "model.head_dim",
	"hardware.vram_gb", "hardware.hbm_tb_s", "hardware.tflops", "hardware.gpus_per_node",
	"hardware.tensor_parallel", "hardware.activations_gb", "hardware.overhead_gb", "hardware.efficiency",
	"throughput_per_gpu_tok_s", "headroom",
	"cost.node_capex", "cost.years", "cost.node_opex_per_year",
}

// ErrInvalid is wrapped by every error about bad assumptions.
var ErrInvalid = errors.New("invalid assumptions")

// InvalidError lists every problem found in one pass.
type InvalidError struct{ Problems []string }

func (e *InvalidError) Error() string {
	return fmt.Sprintf("%v (%d):\n  - %s", ErrInvalid, len(e.Problems), strings.Join(e.Problems, "\n  - "))
}

func (e *InvalidError) Unwrap() error { return ErrInvalid }

// Load parses an assumptions file, fills in the defaults (today is the date used when the file
// has none) and validates it. Unknown keys, missing keys and bad values are reported together.
func Load(data []byte, today time.Time) (Assumptions, error) {
	var a Assumptions
	var problems []string
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	err := dec.Decode(&a)
	var te *yaml.TypeError
	switch {
	case errors.Is(err, io.EOF):
		return a, &InvalidError{Problems: []string{"the file is empty"}}
	case errors.As(err, &te):
		for _, e := range te.Errors {
			problems = append(problems, sectionNames.Replace(e))
		}
	case err != nil:
		return a, &InvalidError{Problems: []string{err.Error()}}
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err == nil {
		for _, k := range requiredKeys {
			if lookup(&root, k) == nil {
				problems = append(problems, k+" is missing")
			}
		}
		// The decoder truncates 4.5 into an int field without a word.
		for _, k := range wholeKeys {
			if n := lookup(&root, k); n != nil && n.Kind == yaml.ScalarNode && n.Tag != "!!int" {
				problems = append(problems, fmt.Sprintf("%s must be a whole number, got %s", k, n.Value))
			}
		}
	}
	a.fillDefaults(today)
	problems = append(problems, a.problems()...)
	if len(problems) > 0 {
		return a, &InvalidError{Problems: problems}
	}
	return a, nil
}

func (a *Assumptions) fillDefaults(today time.Time) {
	if a.Date == "" {
		a.Date = Date(today.Format(time.DateOnly))
	}
	if len(a.SLO.RhoTable) == 0 {
		a.SLO.RhoTable = DefaultRhoTable()
	}
	if a.Speculative != nil && a.Speculative.VerifyCost == 0 {
		a.Speculative.VerifyCost = DefaultVerifyCost
	}
	if a.Cost.Currency == "" {
		a.Cost.Currency = "EUR"
	}
}

// sectionNames turns the decoder's Go type names into the file's words.
var sectionNames = strings.NewReplacer(
	"field ", "unknown key ",
	" not found in type sizing.Assumptions", " at the top level",
	" not found in type sizing.Demand", " in demand",
	" not found in type sizing.SLO", " in slo",
	" not found in type sizing.RhoRow", " in a slo.rho_table row",
	" not found in type sizing.Model", " in model",
	" not found in type sizing.Hardware", " in hardware",
	" not found in type sizing.Speculative", " in speculative",
	" not found in type sizing.Cost", " in cost",
)

// wholeKeys are the int fields.
var wholeKeys = []string{"model.layers", "model.kv_heads", "model.head_dim",
	"hardware.gpus_per_node", "hardware.tensor_parallel", "speculative.gamma"}

// lookup returns the value at the dotted path of the document's nested mappings, nil if absent or null.
func lookup(n *yaml.Node, path string) *yaml.Node {
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	for _, part := range strings.Split(path, ".") {
		if n.Kind != yaml.MappingNode {
			return nil
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == part {
				next = n.Content[i+1]
			}
		}
		if next == nil || next.Tag == "!!null" {
			return nil
		}
		n = next
	}
	return n
}

// Validate checks the values (not which keys a file had: that is Load's job), every problem at once.
func (a Assumptions) Validate() error {
	if p := a.problems(); len(p) > 0 {
		return &InvalidError{Problems: p}
	}
	return nil
}

func (a Assumptions) problems() []string {
	var c checker
	if _, err := time.Parse(time.DateOnly, string(a.Date)); err != nil {
		c.add("date %q is not YYYY-MM-DD", a.Date)
	}
	d := a.Demand
	c.positive("demand.requests_per_day", d.RequestsPerDay)
	c.positive("demand.input_tokens_mean", d.InputTokensMean)
	c.positive("demand.output_tokens_mean", d.OutputTokensMean)
	c.atLeast("demand.peak_factor", d.PeakFactor, 1, "the peak cannot be below the mean")
	if c.finite("demand.active_hours", d.ActiveHours) && (d.ActiveHours <= 0 || d.ActiveHours > 24) {
		c.add("demand.active_hours must be in (0, 24], got %g", d.ActiveHours)
	}

	s := a.SLO
	c.positive("slo.ttft_p99_ms", s.TTFTP99Ms)
	c.positive("slo.tpot_p95_ms", s.TPOTP95Ms)
	if (s.MaxQueueWaitMs != 0) != (s.ServiceTimeMs != 0) {
		c.add("slo.max_queue_wait_ms and slo.service_time_ms go together (the M/M/1 form needs both)")
	} else if s.MaxQueueWaitMs != 0 {
		c.positive("slo.max_queue_wait_ms", s.MaxQueueWaitMs)
		c.positive("slo.service_time_ms", s.ServiceTimeMs)
	}
	c.rhoTable(s)

	m := a.Model
	c.positive("model.params_b", m.ParamsB)
	c.positive("model.bytes_per_param", m.BytesPerParam)
	c.positiveInt("model.layers", m.Layers)
	c.positiveInt("model.kv_heads", m.KVHeads)
	c.positiveInt("model.head_dim", m.HeadDim)

	h := a.Hardware
	c.positive("hardware.vram_gb", h.VRAMGB)
	c.positive("hardware.hbm_tb_s", h.HBMTBs)
	c.positive("hardware.tflops", h.TFLOPs)
	gpn := c.positiveInt("hardware.gpus_per_node", h.GPUsPerNode)
	tp := c.positiveInt("hardware.tensor_parallel", h.TensorParallel)
	if gpn && tp && h.GPUsPerNode%h.TensorParallel != 0 {
		c.add("hardware.tensor_parallel %d does not divide hardware.gpus_per_node %d (a replica would span nodes)",
			h.TensorParallel, h.GPUsPerNode)
	}
	if tp && m.KVHeads > 0 && m.KVHeads%h.TensorParallel != 0 && h.TensorParallel%m.KVHeads != 0 {
		c.add("hardware.tensor_parallel %d and model.kv_heads %d: one must divide the other", h.TensorParallel, m.KVHeads)
	}
	c.atLeast("hardware.activations_gb", h.ActivationsGB, 0, "")
	c.atLeast("hardware.overhead_gb", h.OverheadGB, 0, "")
	if c.finite("hardware.efficiency", h.Efficiency) && (h.Efficiency <= 0 || h.Efficiency > 1) {
		c.add("hardware.efficiency must be in (0, 1], got %g", h.Efficiency)
	}

	c.positive("throughput_per_gpu_tok_s", a.ThroughputPerGPU)
	c.atLeast("headroom", a.Headroom, 0, "")

	if sp := a.Speculative; sp != nil {
		if c.finite("speculative.acceptance", sp.Acceptance) && (sp.Acceptance < 0 || sp.Acceptance > 1) {
			c.add("speculative.acceptance must be in [0, 1], got %g", sp.Acceptance)
		}
		c.positiveInt("speculative.gamma", sp.Gamma)
		c.positive("speculative.verify_cost", sp.VerifyCost)
	}

	k := a.Cost
	c.atLeast("cost.node_capex", k.NodeCapex, 0, "")
	c.positive("cost.years", k.Years)
	c.atLeast("cost.node_opex_per_year", k.NodeOpexPerYear, 0, "")
	c.atLeast("cost.cloud_gpu_hour", k.CloudGPUHour, 0, "0 means no cloud comparison")
	return c.problems
}

func (c *checker) rhoTable(s SLO) {
	for i, r := range s.RhoTable {
		key := fmt.Sprintf("slo.rho_table[%d]", i)
		c.positive(key+".ttft_p99_ms", r.TTFTP99Ms)
		if c.finite(key+".rho_max", r.RhoMax) && (r.RhoMax <= 0 || r.RhoMax >= 1) {
			c.add("%s.rho_max must be in (0, 1), got %g", key, r.RhoMax)
		}
		if i > 0 {
			prev := s.RhoTable[i-1]
			if r.TTFTP99Ms <= prev.TTFTP99Ms {
				c.add("%s: ttft_p99_ms must increase from row to row (%g after %g)", key, r.TTFTP99Ms, prev.TTFTP99Ms)
			}
			if r.RhoMax < prev.RhoMax {
				c.add("%s: rho_max must not decrease as the SLO loosens (%g after %g)", key, r.RhoMax, prev.RhoMax)
			}
		}
	}
	// The M/M/1 form replaces the table, so only then may the SLO be tighter than its first row.
	if len(s.RhoTable) > 0 && s.MaxQueueWaitMs == 0 && s.TTFTP99Ms > 0 && s.TTFTP99Ms < s.RhoTable[0].TTFTP99Ms {
		c.add("slo.ttft_p99_ms %g is tighter than the rho table's first row (%g ms), which the table cannot extrapolate: add a row or give slo.max_queue_wait_ms and slo.service_time_ms",
			s.TTFTP99Ms, s.RhoTable[0].TTFTP99Ms)
	}
}

type checker struct{ problems []string }

func (c *checker) add(format string, args ...any) {
	c.problems = append(c.problems, fmt.Sprintf(format, args...))
}

func (c *checker) finite(key string, v float64) bool {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		c.add("%s must be a finite number, got %g", key, v)
		return false
	}
	return true
}

func (c *checker) positive(key string, v float64) bool {
	if !c.finite(key, v) {
		return false
	}
	if v <= 0 {
		c.add("%s must be > 0, got %g", key, v)
		return false
	}
	return true
}

func (c *checker) positiveInt(key string, v int) bool {
	if v <= 0 {
		c.add("%s must be a whole number ≥ 1, got %d", key, v)
		return false
	}
	return true
}

func (c *checker) atLeast(key string, v, min float64, why string) {
	if !c.finite(key, v) || v >= min {
		return
	}
	if why != "" {
		why = " (" + why + ")"
	}
	c.add("%s must be ≥ %g, got %g%s", key, min, v, why)
}
