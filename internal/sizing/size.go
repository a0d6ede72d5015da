package sizing

import (
	"fmt"
	"math"
)

// GB is the unit of every *_gb input: 1e9 bytes (a vendor's "80 GB" HBM is 80 GiB, about 7 % more,
// so reading it as 80e9 errs on the safe side).
const GB = 1e9

// Report is one sizing: each step's results next to the assumptions they came from.
type Report struct {
	Assumptions Assumptions      `json:"assumptions" yaml:"assumptions"`
	Fleet       *FleetSources    `json:"fleet,omitempty" yaml:"fleet,omitempty"`
	Demand      DemandStep       `json:"demand" yaml:"demand"`
	Utilisation UtilisationStep  `json:"utilisation" yaml:"utilisation"`
	Capacity    CapacityStep     `json:"capacity" yaml:"capacity"`
	Memory      MemoryStep       `json:"memory" yaml:"memory"`
	Speculative *SpeculativeStep `json:"speculative,omitempty" yaml:"speculative,omitempty"`
	Cost        CostStep         `json:"cost" yaml:"cost"`
	Checks      []Check          `json:"checks" yaml:"checks"`
}

// DemandStep is step 1, in output tokens.
type DemandStep struct {
	MeanTokS         float64 `json:"mean_tok_s" yaml:"mean_tok_s"`
	PeakTokS         float64 `json:"peak_tok_s" yaml:"peak_tok_s"`
	PeakRequestsPerS float64 `json:"peak_requests_per_s" yaml:"peak_requests_per_s"`
}

// UtilisationStep is step 2.
type UtilisationStep struct {
	Method string  `json:"method" yaml:"method"` // "table" or "mm1"
	How    string  `json:"how" yaml:"how"`
	RhoMax float64 `json:"rho_max" yaml:"rho_max"`
}

// CapacityStep is step 3 for one throughput per GPU (plain, or with drafting).
type CapacityStep struct {
	InstalledTokS    float64 `json:"installed_tok_s" yaml:"installed_tok_s"`
	ThroughputPerGPU float64 `json:"throughput_per_gpu_tok_s" yaml:"throughput_per_gpu_tok_s"`
	GPUsExact        float64 `json:"gpus_exact" yaml:"gpus_exact"`
	GPUs             int     `json:"gpus" yaml:"gpus"`
	Nodes            int     `json:"nodes" yaml:"nodes"`
	NodesDeployed    int     `json:"nodes_deployed" yaml:"nodes_deployed"` // with headroom
	GPUsDeployed     int     `json:"gpus_deployed" yaml:"gpus_deployed"`
	Replicas         int     `json:"replicas" yaml:"replicas"` // on Nodes, before headroom
	ReplicasDeployed int     `json:"replicas_deployed" yaml:"replicas_deployed"`
	// SLOConcurrencyPerReplica is Little's law on Replicas: peak requests/s per replica × the
	// longest request the SLO allows (TTFT p99 + output tokens × TPOT p95).
	SLOConcurrencyPerReplica float64 `json:"slo_concurrency_per_replica" yaml:"slo_concurrency_per_replica"`
	// MeanUtilisation is the mean demand over the deployed fleet's capacity.
	MeanUtilisation float64 `json:"mean_utilisation" yaml:"mean_utilisation"`
}

// MemoryStep is step 4, per replica of tensor_parallel GPUs.
type MemoryStep struct {
	WeightsBytes          float64 `json:"weights_bytes" yaml:"weights_bytes"`
	WeightsPerGPUBytes    float64 `json:"weights_per_gpu_bytes" yaml:"weights_per_gpu_bytes"`
	KVBudgetPerGPUBytes   float64 `json:"kv_budget_per_gpu_bytes" yaml:"kv_budget_per_gpu_bytes"`
	KVBytesPerToken       float64 `json:"kv_bytes_per_token" yaml:"kv_bytes_per_token"`
	KVBytesPerTokenPerGPU float64 `json:"kv_bytes_per_token_per_gpu" yaml:"kv_bytes_per_token_per_gpu"`
	ContextTokens         float64 `json:"context_tokens" yaml:"context_tokens"`
	MaxTokensPerReplica   float64 `json:"max_tokens_per_replica" yaml:"max_tokens_per_replica"`
	MaxSequences          float64 `json:"max_sequences_per_replica" yaml:"max_sequences_per_replica"`
	DecodeTPOTBoundMs     float64 `json:"decode_tpot_bound_ms" yaml:"decode_tpot_bound_ms"`
	PrefillTokS           float64 `json:"prefill_tok_s" yaml:"prefill_tok_s"`
	PrefillMs             float64 `json:"prefill_ms" yaml:"prefill_ms"` // of input_tokens_mean
	RequestTimeS          float64 `json:"request_time_s" yaml:"request_time_s"`
	// ImpliedComputeShare is the share of peak FLOP/s that throughput_per_gpu_tok_s implies at
	// 2P FLOPs per token, prefill of the inputs included.
	ImpliedComputeShare float64 `json:"implied_compute_share" yaml:"implied_compute_share"`
}

// SpeculativeStep is step 5: the same sizing with drafting on the edge.
type SpeculativeStep struct {
	TokensPerPass      float64      `json:"tokens_per_pass" yaml:"tokens_per_pass"`
	Speedup            float64      `json:"speedup" yaml:"speedup"` // tokens per pass / c
	VerifyCostRoofline float64      `json:"verify_cost_roofline" yaml:"verify_cost_roofline"`
	Capacity           CapacityStep `json:"capacity" yaml:"capacity"`
	FleetYear          float64      `json:"fleet_year" yaml:"fleet_year"`
	PerMTokAtRhoMax    float64      `json:"per_mtok_at_rho_max" yaml:"per_mtok_at_rho_max"`
	PerMTokAtMean      float64      `json:"per_mtok_at_mean" yaml:"per_mtok_at_mean"`
}

// CostStep is step 6. Money is in Assumptions.Cost.Currency.
type CostStep struct {
	NodeYear        float64 `json:"node_year" yaml:"node_year"`
	FleetYear       float64 `json:"fleet_year" yaml:"fleet_year"` // deployed nodes
	GPUHourAtRhoMax float64 `json:"gpu_hour_at_rho_max" yaml:"gpu_hour_at_rho_max"`
	GPUHourAtMean   float64 `json:"gpu_hour_at_mean" yaml:"gpu_hour_at_mean"`
	PerMTokAtRhoMax float64 `json:"per_mtok_at_rho_max" yaml:"per_mtok_at_rho_max"`
	PerMTokAtMean   float64 `json:"per_mtok_at_mean" yaml:"per_mtok_at_mean"`
	Cloud           *Cloud  `json:"cloud,omitempty" yaml:"cloud,omitempty"`
}

// Cloud compares owning a node with renting its GPU-hours at cost.cloud_gpu_hour.
type Cloud struct {
	BreakEvenUtilisation float64 `json:"break_even_utilisation" yaml:"break_even_utilisation"`
	RentPerNodeMonth     float64 `json:"rent_per_node_month" yaml:"rent_per_node_month"` // all GPUs, all hours
	// Payback is capex / (monthly rent of the same GPU-hours − monthly opex); nil: never.
	PaybackMonthsAlwaysOn *float64 `json:"payback_months_always_on" yaml:"payback_months_always_on"`
	PaybackMonthsAsUsed   *float64 `json:"payback_months_as_used" yaml:"payback_months_as_used"`
}

// Check is one pass/fail verdict on the plan. Status is ok, warn or fail.
type Check struct {
	Name   string `json:"name" yaml:"name"`
	Status string `json:"status" yaml:"status"`
	Detail string `json:"detail" yaml:"detail"`
}

// Check statuses. A plan with a fail cannot meet its SLO as sized; a warn is an input to re-check.
const (
	StatusOK   = "ok"
	StatusWarn = "warn"
	StatusFail = "fail"
)

// Failed returns the checks whose status is fail.
func (r *Report) Failed() []Check {
	var out []Check
	for _, c := range r.Checks {
		if c.Status == StatusFail {
			out = append(out, c)
		}
	}
	return out
}

const hoursPerYear = 8760

// Size runs the six steps of docs/SIZING.md. p says which inputs came from the fleet (zero: none).
func Size(a Assumptions, p Provenance) (*Report, error) {
	if err := a.Validate(); err != nil {
		return nil, err
	}
	r := &Report{Assumptions: a, Fleet: p.sources()}
	d := a.Demand

	// 1. Demand.
	r.Demand = DemandStep{
		MeanTokS:         d.RequestsPerDay * d.OutputTokensMean / 86400,
		PeakTokS:         d.PeakFactor * d.RequestsPerDay * d.OutputTokensMean / (d.ActiveHours * 3600),
		PeakRequestsPerS: d.PeakFactor * d.RequestsPerDay / (d.ActiveHours * 3600),
	}

	// 2. Utilisation ceiling.
	if a.SLO.MaxQueueWaitMs > 0 {
		rho, err := RhoMM1(a.SLO.MaxQueueWaitMs, a.SLO.ServiceTimeMs)
		if err != nil {
			return nil, err
		}
		r.Utilisation = UtilisationStep{Method: "mm1", RhoMax: rho, How: "M/M/1 mean queue wait"}
	} else {
		rho, how, err := RhoFromTable(a.SLO.RhoTable, a.SLO.TTFTP99Ms)
		if err != nil {
			return nil, err
		}
		r.Utilisation = UtilisationStep{Method: "table", RhoMax: rho, How: how}
	}

	// 4 before 3's Little's law check and 5's roofline: the memory model of one replica.
	r.Memory = memory(a)

	// 3. GPUs and nodes.
	installed := r.Demand.PeakTokS / r.Utilisation.RhoMax
	r.Capacity = capacity(a, r.Demand, installed, a.ThroughputPerGPU, r.Memory.RequestTimeS)

	// 6. Cost (before 5, which prices its own fleet the same way).
	r.Cost = cost(a, r.Utilisation.RhoMax, r.Capacity)

	// 5. Drafting.
	if sp := a.Speculative; sp != nil {
		e := TokensPerPass(sp.Acceptance, sp.Gamma)
		s := &SpeculativeStep{TokensPerPass: e, Speedup: e / sp.VerifyCost}
		s.Capacity = capacity(a, r.Demand, installed, a.ThroughputPerGPU*s.Speedup, r.Memory.RequestTimeS)
		s.VerifyCostRoofline = verifyCostRoofline(r.Memory, a, s.Capacity.SLOConcurrencyPerReplica)
		c := cost(a, r.Utilisation.RhoMax, s.Capacity)
		s.FleetYear, s.PerMTokAtRhoMax, s.PerMTokAtMean = c.FleetYear, c.PerMTokAtRhoMax, c.PerMTokAtMean
		r.Speculative = s
	}

	r.Checks = checks(r)
	return r, nil
}

// ceil rounds up, forgiving float noise: 20 × 1.15 is 23.000000000000004 and must give 23.
func ceil(x float64) int {
	return int(math.Ceil(x - 1e-9*math.Max(1, math.Abs(x))))
}

func capacity(a Assumptions, d DemandStep, installed, perGPU, requestTimeS float64) CapacityStep {
	h := a.Hardware
	c := CapacityStep{InstalledTokS: installed, ThroughputPerGPU: perGPU, GPUsExact: installed / perGPU}
	c.GPUs = ceil(c.GPUsExact)
	c.Nodes = ceil(float64(c.GPUs) / float64(h.GPUsPerNode))
	c.NodesDeployed = ceil(float64(c.Nodes) * (1 + a.Headroom))
	c.GPUsDeployed = c.NodesDeployed * h.GPUsPerNode
	perNode := h.GPUsPerNode / h.TensorParallel
	c.Replicas, c.ReplicasDeployed = c.Nodes*perNode, c.NodesDeployed*perNode
	c.SLOConcurrencyPerReplica = d.PeakRequestsPerS / float64(c.Replicas) * requestTimeS
	c.MeanUtilisation = d.MeanTokS / (float64(c.GPUsDeployed) * perGPU)
	return c
}

func memory(a Assumptions) MemoryStep {
	m, h, d := a.Model, a.Hardware, a.Demand
	tp := float64(h.TensorParallel)
	params := m.ParamsB * 1e9
	var s MemoryStep
	s.WeightsBytes = params * m.BytesPerParam
	s.WeightsPerGPUBytes = s.WeightsBytes / tp
	s.KVBudgetPerGPUBytes = (h.VRAMGB-h.ActivationsGB-h.OverheadGB)*GB - s.WeightsPerGPUBytes
	s.KVBytesPerToken = 2 * float64(m.Layers*m.KVHeads*m.HeadDim) * m.BytesPerParam
	// Each GPU holds its share of the KV heads; with more GPUs than KV heads they are replicated.
	headsPerGPU := math.Ceil(float64(m.KVHeads) / tp)
	s.KVBytesPerTokenPerGPU = 2 * float64(m.Layers) * headsPerGPU * float64(m.HeadDim) * m.BytesPerParam
	s.ContextTokens = d.InputTokensMean + d.OutputTokensMean
	if s.KVBudgetPerGPUBytes > 0 {
		s.MaxTokensPerReplica = math.Floor(s.KVBudgetPerGPUBytes / s.KVBytesPerTokenPerGPU)
		s.MaxSequences = math.Floor(s.KVBudgetPerGPUBytes / (s.KVBytesPerTokenPerGPU * s.ContextTokens))
	}
	s.DecodeTPOTBoundMs = s.WeightsPerGPUBytes / (h.HBMTBs * 1e12) * 1e3
	s.PrefillTokS = tp * h.TFLOPs * 1e12 * h.Efficiency / (2 * params)
	s.PrefillMs = d.InputTokensMean / s.PrefillTokS * 1e3
	s.RequestTimeS = (a.SLO.TTFTP99Ms + d.OutputTokensMean*a.SLO.TPOTP95Ms) / 1e3
	s.ImpliedComputeShare = a.ThroughputPerGPU * s.ContextTokens / d.OutputTokensMean * 2 * params / (h.TFLOPs * 1e12)
	return s
}

func cost(a Assumptions, rhoMax float64, c CapacityStep) CostStep {
	k, gpn := a.Cost, float64(a.Hardware.GPUsPerNode)
	var s CostStep
	s.NodeYear = k.NodeCapex/k.Years + k.NodeOpexPerYear
	s.FleetYear = float64(c.NodesDeployed) * s.NodeYear
	gpuHour := func(rho float64) float64 { return s.NodeYear / (gpn * hoursPerYear * rho) }
	perMTok := func(gh float64) float64 { return gh * 1e6 / (c.ThroughputPerGPU * 3600) }
	s.GPUHourAtRhoMax, s.GPUHourAtMean = gpuHour(rhoMax), gpuHour(c.MeanUtilisation)
	s.PerMTokAtRhoMax, s.PerMTokAtMean = perMTok(s.GPUHourAtRhoMax), perMTok(s.GPUHourAtMean)
	if k.CloudGPUHour > 0 {
		cl := &Cloud{
			BreakEvenUtilisation: s.NodeYear / (gpn * hoursPerYear * k.CloudGPUHour),
			RentPerNodeMonth:     gpn * hoursPerYear / 12 * k.CloudGPUHour,
		}
		payback := func(rent float64) *float64 {
			saved := rent - k.NodeOpexPerYear/12
			if saved <= 0 {
				return nil
			}
			months := k.NodeCapex / saved
			return &months
		}
		cl.PaybackMonthsAlwaysOn = payback(cl.RentPerNodeMonth)
		cl.PaybackMonthsAsUsed = payback(cl.RentPerNodeMonth * c.MeanUtilisation)
		s.Cloud = cl
	}
	return s
}

func checks(r *Report) []Check {
	a, m, c := r.Assumptions, r.Memory, r.Capacity
	var out []Check
	// hint is appended only when the check does not pass.
	add := func(name string, ok bool, bad, hint, detail string, args ...any) {
		ch := Check{Name: name, Status: StatusOK, Detail: fmt.Sprintf(detail, args...)}
		if !ok {
			ch.Status = bad
			if hint != "" {
				ch.Detail += ": " + hint
			}
		}
		out = append(out, ch)
	}
	add("memory", m.MaxSequences >= 1, StatusFail, "try a larger tensor_parallel or a smaller model",
		"%s GB of weights per GPU + %s GB activations + %s GB overhead leave %s GB of %s GB for KV: room for %s sequences of %s tokens per replica",
		num(m.WeightsPerGPUBytes/GB, 1), num(a.Hardware.ActivationsGB, 1), num(a.Hardware.OverheadGB, 1),
		num(m.KVBudgetPerGPUBytes/GB, 1), num(a.Hardware.VRAMGB, 1), num(m.MaxSequences, 0), num(m.ContextTokens, 0))
	add("tpot", m.DecodeTPOTBoundMs <= a.SLO.TPOTP95Ms, StatusFail, "try a larger tensor_parallel, fewer bytes per parameter or faster HBM",
		"decode cannot beat %s ms per token (weights per GPU / HBM bandwidth); the SLO is p95 %s ms",
		num(m.DecodeTPOTBoundMs, 1), num(a.SLO.TPOTP95Ms, 0))
	add("ttft", m.PrefillMs <= a.SLO.TTFTP99Ms, StatusFail, "try a larger tensor_parallel or faster GPUs",
		"prefill of %s input tokens takes at least %s ms; the SLO is p99 %s ms",
		num(a.Demand.InputTokensMean, 0), num(m.PrefillMs, 0), num(a.SLO.TTFTP99Ms, 0))
	add("kv-concurrency", c.SLOConcurrencyPerReplica <= m.MaxSequences, StatusFail, "deploy more replicas than the throughput needs, or more memory per replica",
		"Little's law puts %s sequences in flight per replica at peak; the KV cache holds %s",
		num(c.SLOConcurrencyPerReplica, 0), num(m.MaxSequences, 0))
	add("throughput", m.ImpliedComputeShare <= a.Hardware.Efficiency, StatusWarn,
		"check it was measured with this model, GPU, TP and input/output mix",
		"%s tok/s per GPU at %s input + %s output tokens means %s%% of peak FLOP/s at 2P FLOPs per token; efficiency is %s",
		num(a.ThroughputPerGPU, 0), num(a.Demand.InputTokensMean, 0), num(a.Demand.OutputTokensMean, 0),
		num(m.ImpliedComputeShare*100, 0), num(a.Hardware.Efficiency, 2))
	if s := r.Speculative; s != nil {
		add("drafting-kv-concurrency", s.Capacity.SLOConcurrencyPerReplica <= m.MaxSequences, StatusWarn,
			"the drafting fleet is too small for its KV cache",
			"with drafting, %s sequences in flight per replica at peak; the KV cache holds %s",
			num(s.Capacity.SLOConcurrencyPerReplica, 0), num(m.MaxSequences, 0))
		add("drafting-verify-cost", s.VerifyCostRoofline <= 1.1*a.Speculative.VerifyCost, StatusWarn,
			"the drafting gain shown is an upper bound until c is measured",
			"verify_cost %s; the roofline at %s sequences per replica puts a verify pass of %d tokens at %s decode passes",
			num(a.Speculative.VerifyCost, 2), num(s.Capacity.SLOConcurrencyPerReplica, 0), a.Speculative.Gamma+1, num(s.VerifyCostRoofline, 1))
	}
	return out
}
