package sizing

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Formats are the report formats Write accepts; the first is the default.
var Formats = []string{"text", "json", "yaml"}

// Write writes the report as text (each step with its inputs and formulas), json or yaml.
func (r *Report) Write(w io.Writer, format string) error {
	switch format {
	case "text":
		_, err := io.WriteString(w, r.Text())
		return err
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	case "yaml":
		b, err := encodeYAML(r, nil)
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	}
	return fmt.Errorf("unknown report format %q (want %s)", format, strings.Join(Formats, ", "))
}

// Text is the human report: every step prints its inputs (marked when they came from the fleet),
// the formula and the result, so each figure can be checked by hand.
func (r *Report) Text() string {
	t := &textReport{r: r}
	t.header()
	t.demand()
	t.utilisation()
	t.capacity()
	t.memory()
	t.speculative()
	t.cost()
	t.checks()
	return t.b.String()
}

type textReport struct {
	r *Report
	b strings.Builder
}

func (t *textReport) f(format string, args ...any) { fmt.Fprintf(&t.b, format, args...) }

// row is one result: what, how it is computed, and the value.
func (t *textReport) row(what, formula, value string) {
	t.f("   %-22s %-36s = %s\n", what, formula, value)
}

// in names one input; an input taken from the fleet says so with its sample count.
func (t *textReport) in(key, label, value string) string {
	s := label + " = " + value
	if f := t.r.Fleet; f != nil {
		if n, ok := f.Samples[key]; ok {
			s += fmt.Sprintf(" [fleet: %d samples]", n)
		}
	}
	return s
}

func (t *textReport) header() {
	a := t.r.Assumptions
	t.f("Sizing of %s on %s, assumptions dated %s\n", dash(a.Model.Name), dash(a.Hardware.GPU), a.Date)
	t.f("Units: GB = 1e9 bytes; tok/s = output tokens per second; money in %s.\n", a.Cost.Currency)
	if f := t.r.Fleet; f != nil {
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(f.Samples)) {
			parts = append(parts, fmt.Sprintf("%s (%d samples)", k, f.Samples[k]))
		}
		if len(parts) == 0 {
			parts = []string{"none"}
		}
		t.f("Inputs: from the fleet over %s: %s; every other input is an assumption from the file.\n", f.Window, strings.Join(parts, ", "))
		for _, n := range f.Notes {
			t.f("   fleet: %s\n", n)
		}
	} else {
		t.f("Inputs: every input is an assumption from the file (none from the fleet).\n")
	}
}

func (t *textReport) demand() {
	d, s := t.r.Assumptions.Demand, t.r.Demand
	t.f("\n1. Demand\n")
	t.f("   inputs: %s, %s, %s,\n           %s, %s\n",
		t.in(KeyRequestsPerDay, "D", num(d.RequestsPerDay, -1)+" requests/day"),
		t.in(KeyInputTokensMean, "L_in", num(d.InputTokensMean, -1)+" tokens"),
		t.in(KeyOutputTokensMean, "L_out", num(d.OutputTokensMean, -1)+" tokens"),
		t.in(KeyPeakFactor, "k", num(d.PeakFactor, -1)),
		t.in(KeyActiveHours, "H", num(d.ActiveHours, -1)+" active hours"))
	t.row("mean output", "D·L_out/86400", num(s.MeanTokS, 0)+" tok/s")
	t.row("peak output", "k·D·L_out/(H·3600)", num(s.PeakTokS, 0)+" tok/s")
	t.row("peak requests", "k·D/(H·3600)", num(s.PeakRequestsPerS, 2)+" requests/s")
}

func (t *textReport) utilisation() {
	s, u := t.r.Assumptions.SLO, t.r.Utilisation
	t.f("\n2. Utilisation ceiling from the latency SLO\n")
	if u.Method == "mm1" {
		t.f("   inputs: max queue wait W = %s ms, mean service time s = %s ms (M/M/1 form; the table is not used)\n",
			num(s.MaxQueueWaitMs, -1), num(s.ServiceTimeMs, -1))
		t.row("ρ_max", "(W/s)/(1+W/s)", num(u.RhoMax, 3))
		return
	}
	rows := make([]string, len(s.RhoTable))
	for i, r := range s.RhoTable {
		rows[i] = fmt.Sprintf("%s ms → %s", num(r.TTFTP99Ms, -1), num(r.RhoMax, 2))
	}
	t.f("   inputs: TTFT p99 = %s ms; table TTFT p99 → ρ_max: %s\n", num(s.TTFTP99Ms, -1), strings.Join(rows, ", "))
	t.row("ρ_max", u.How, num(u.RhoMax, 3))
}

func (t *textReport) capacity() {
	a, c := t.r.Assumptions, t.r.Capacity
	h := a.Hardware
	t.f("\n3. GPUs and nodes\n")
	t.f("   inputs: T_gpu = %s tok/s per GPU, %d GPUs per node, TP = %d, headroom = %s\n",
		num(a.ThroughputPerGPU, -1), h.GPUsPerNode, h.TensorParallel, num(a.Headroom, -1))
	t.row("installed", "peak/ρ_max", num(c.InstalledTokS, 0)+" tok/s")
	t.row("GPUs", "ceil(installed/T_gpu)", fmt.Sprintf("ceil(%s) = %d", num(c.GPUsExact, 2), c.GPUs))
	t.row("nodes", fmt.Sprintf("ceil(GPUs/%d)", h.GPUsPerNode), fmt.Sprintf("%d (%d replicas)", c.Nodes, c.Replicas))
	t.row("with headroom", "ceil(nodes·(1+headroom))",
		fmt.Sprintf("%d nodes, %d GPUs, %d replicas", c.NodesDeployed, c.GPUsDeployed, c.ReplicasDeployed))
	t.row("mean utilisation", fmt.Sprintf("mean/(%d·T_gpu)", c.GPUsDeployed), num(c.MeanUtilisation, 3))
}

func (t *textReport) memory() {
	a, m, c := t.r.Assumptions, t.r.Memory, t.r.Capacity
	md, h, d := a.Model, a.Hardware, a.Demand
	t.f("\n4. Memory and speed of one replica (TP = %d GPUs)\n", h.TensorParallel)
	t.f("   inputs: P = %s B params, b = %s bytes/param, L = %d layers, H_kv = %d, d_head = %d;\n",
		num(md.ParamsB, -1), num(md.BytesPerParam, -1), md.Layers, md.KVHeads, md.HeadDim)
	t.f("           per GPU V = %s GB, HBM %s TB/s, %s TFLOP/s, η = %s, activations %s GB, overhead %s GB\n",
		num(h.VRAMGB, -1), num(h.HBMTBs, -1), num(h.TFLOPs, -1), num(h.Efficiency, -1), num(h.ActivationsGB, -1), num(h.OverheadGB, -1))
	t.row("weights", "P·b/TP", fmt.Sprintf("%s GB / %d = %s GB per GPU", num(m.WeightsBytes/GB, 1), h.TensorParallel, num(m.WeightsPerGPUBytes/GB, 1)))
	t.row("KV budget", "V − weights − activations − overhead",
		fmt.Sprintf("%s − %s − %s − %s = %s GB per GPU", num(h.VRAMGB, -1), num(m.WeightsPerGPUBytes/GB, 1),
			num(h.ActivationsGB, -1), num(h.OverheadGB, -1), num(m.KVBudgetPerGPUBytes/GB, 1)))
	t.row("KV per token", "2·L·H_kv·d_head·b", fmt.Sprintf("%s bytes (%s per GPU)", num(m.KVBytesPerToken, 0), num(m.KVBytesPerTokenPerGPU, 0)))
	t.row("KV capacity", fmt.Sprintf("budget/(KV per token·%s tokens)", num(m.ContextTokens, 0)),
		fmt.Sprintf("%s sequences per replica (%s tokens)", num(m.MaxSequences, 0), num(m.MaxTokensPerReplica, 0)))
	t.row("decode TPOT ≥", "weights per GPU/HBM", fmt.Sprintf("%s ms (SLO p95 %s ms)", num(m.DecodeTPOTBoundMs, 1), num(a.SLO.TPOTP95Ms, -1)))
	t.row("prefill", "TP·FLOP/s·η/(2P)", fmt.Sprintf("%s tok/s: %s input tokens in %s ms (SLO p99 %s ms)",
		num(m.PrefillTokS, 0), num(d.InputTokensMean, -1), num(m.PrefillMs, 0), num(a.SLO.TTFTP99Ms, -1)))
	t.row("request time", "TTFT p99 + L_out·TPOT p95", num(m.RequestTimeS, 2)+" s")
	t.row("concurrency", fmt.Sprintf("(peak requests/s ÷ %d replicas)·request time", c.Replicas),
		fmt.Sprintf("%s sequences per replica (KV holds %s)", num(c.SLOConcurrencyPerReplica, 0), num(m.MaxSequences, 0)))
	t.row("implied compute", "T_gpu·(L_in+L_out)/L_out·2P/FLOP/s", fmt.Sprintf("%s%% of peak (η = %s)", num(m.ImpliedComputeShare*100, 0), num(h.Efficiency, -1)))
}

func (t *textReport) speculative() {
	s, a := t.r.Speculative, t.r.Assumptions
	t.f("\n5. Speculative drafting (the edges draft; the DC pays for verify passes only)\n")
	if s == nil {
		t.f("   not assessed: the assumptions have no speculative section\n")
		return
	}
	sp, c, c0, cur := a.Speculative, s.Capacity, t.r.Capacity, a.Cost.Currency
	t.f("   inputs: %s, γ = %d, c = %s (a verify pass of γ+1 tokens costs c decode passes)\n",
		t.in(KeyAcceptance, "α", num(sp.Acceptance, -1)), sp.Gamma, num(sp.VerifyCost, -1))
	t.row("tokens per pass E", "(1−α^(γ+1))/(1−α)", num(s.TokensPerPass, 3))
	t.row("T_gpu with drafting", "T_gpu·E/c", fmt.Sprintf("%s tok/s per GPU (×%s)", num(c.ThroughputPerGPU, 0), num(s.Speedup, 2)))
	t.row("GPUs, nodes, deployed", "as in step 3", fmt.Sprintf("%d, %d, %d (without drafting: %d, %d, %d)",
		c.GPUs, c.Nodes, c.NodesDeployed, c0.GPUs, c0.Nodes, c0.NodesDeployed))
	t.row("concurrency", fmt.Sprintf("as in step 4, %d replicas", c.Replicas),
		fmt.Sprintf("%s sequences per replica (KV holds %s)", num(c.SLOConcurrencyPerReplica, 0), num(t.r.Memory.MaxSequences, 0)))
	t.row("c by roofline", "at that concurrency", num(s.VerifyCostRoofline, 1)+" decode passes")
	t.row("per 1M output tokens", "at the mean utilisation", fmt.Sprintf("%s %s (without: %s)", num(s.PerMTokAtMean, 2), cur, num(t.r.Cost.PerMTokAtMean, 2)))
	t.row("fleet per year", "deployed nodes·node-year", fmt.Sprintf("%s %s (without: %s)", num(s.FleetYear, 0), cur, num(t.r.Cost.FleetYear, 0)))
}

func (t *textReport) cost() {
	a, k, c := t.r.Assumptions, t.r.Cost, t.r.Capacity
	in, gpn := a.Cost, a.Hardware.GPUsPerNode
	t.f("\n6. Cost (%s)\n", in.Currency)
	cloud := "none"
	if in.CloudGPUHour > 0 {
		cloud = num(in.CloudGPUHour, -1) + " per GPU-hour"
	}
	t.f("   inputs: node capex = %s over %s years, node opex = %s per year, cloud = %s\n",
		num(in.NodeCapex, -1), num(in.Years, -1), num(in.NodeOpexPerYear, -1), cloud)
	t.row("node-year", "capex/years + opex", num(k.NodeYear, 0))
	t.row("fleet-year", fmt.Sprintf("%d nodes·node-year", c.NodesDeployed), num(k.FleetYear, 0))
	t.row("per GPU-hour", fmt.Sprintf("node-year/(%d·8760·ρ)", gpn),
		fmt.Sprintf("%s at ρ_max %s; %s at the mean %s", num(k.GPUHourAtRhoMax, 2), num(t.r.Utilisation.RhoMax, 3), num(k.GPUHourAtMean, 2), num(c.MeanUtilisation, 3)))
	t.row("per 1M output tokens", "GPU-hour·1e6/(T_gpu·3600)",
		fmt.Sprintf("%s at ρ_max; %s at the mean", num(k.PerMTokAtRhoMax, 2), num(k.PerMTokAtMean, 2)))
	cl := k.Cloud
	if cl == nil {
		t.f("   no cloud comparison (cost.cloud_gpu_hour not given)\n")
		return
	}
	t.row("break-even utilisation", fmt.Sprintf("node-year/(%d·8760·cloud)", gpn),
		fmt.Sprintf("%s (the fleet's mean: %s)", num(cl.BreakEvenUtilisation, 3), num(c.MeanUtilisation, 3)))
	t.row("cloud rent per node", fmt.Sprintf("cloud·%d·730 h", gpn), num(cl.RentPerNodeMonth, 0)+" per month")
	t.row("payback", "capex/(rent − opex/12)",
		fmt.Sprintf("%s renting every hour; %s renting only the hours used (depreciation: %s months)",
			months(cl.PaybackMonthsAlwaysOn), months(cl.PaybackMonthsAsUsed), num(in.Years*12, -1)))
}

func (t *textReport) checks() {
	t.f("\nChecks\n")
	for _, c := range t.r.Checks {
		t.f("   %-5s %-24s %s\n", strings.ToUpper(c.Status), c.Name, c.Detail)
	}
}

func months(m *float64) string {
	if m == nil {
		return "never"
	}
	return num(*m, 1) + " months"
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// num formats v with dec decimals (-1: as few as needed) and groups the integer part by three
// with spaces: 40 000, 327 680.
func num(v float64, dec int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	s := strconv.FormatFloat(v, 'f', dec, 64)
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	intPart, frac, hasFrac := strings.Cut(s, ".")
	var b strings.Builder
	for i, ch := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(ch)
	}
	if hasFrac {
		b.WriteString("." + frac)
	}
	return sign + b.String()
}
