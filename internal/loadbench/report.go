package loadbench

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// Report is one bench run: what was measured (Snapshot), the file as run (defaults filled in),
// and every scenario's cells.
type Report struct {
	Snapshot Snapshot         `json:"snapshot"`
	File     File             `json:"file"`
	Results  []ScenarioResult `json:"results"`
}

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

// WriteMarkdown writes the report as a readable page: the snapshot, then one table per scenario.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	s := r.Snapshot
	f := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	f("# edge-agent bench: %s\n\n", s.ScenarioFile)
	f("Run %s – %s. Reproduce with the same binary and scenario file (sha256 `%s`):\n\n```sh\n%s\n```\n\n",
		s.Started.UTC().Format("2006-01-02 15:04:05Z"), s.Finished.UTC().Format("15:04:05Z"), short(s.ScenarioSHA256), shellJoin(s.Command))
	f("## Snapshot\n\n| | |\n|---|---|\n")
	row := func(k, v string) { f("| %s | %s |\n", k, cell(v)) }
	row("binary", fmt.Sprintf("%s (commit %s, built %s, %s %s)", s.Binary.Version, short(s.Binary.Commit), s.Binary.Built, s.Binary.Go, s.Binary.Platform))
	row("target", s.Target)
	if len(s.Models) > 0 {
		var ms []string
		for _, m := range s.Models {
			x := m.ID
			if m.OwnedBy != "" {
				x += " (" + m.OwnedBy + ")"
			}
			ms = append(ms, x)
		}
		row("models (/v1/models)", strings.Join(ms, ", "))
	} else {
		row("models (/v1/models)", "unavailable: "+s.ModelsError)
	}
	row("bench machine", fmt.Sprintf("%s, %d cores, %.1f GiB; load average %s at start, %s at end", s.Machine.CPU, s.Machine.Cores,
		float64(s.Machine.MemoryBytes)/(1<<30), s.Machine.LoadStart, s.Machine.LoadEnd))
	row("runtime (declared)", orDash(s.Declared.Runtime))
	row("serving hardware (declared)", orDash(s.Declared.Hardware))
	var rep []string
	for _, sc := range r.File.Scenarios {
		rep = append(rep, fmt.Sprintf("%s: %s", sc.Name, yesNo(sc.RepeatedPrompts)))
	}
	row("prefix caching (declared)", orDash(s.Declared.PrefixCaching))
	row("repeated prompts", strings.Join(rep, "; "))
	if len(s.Agent) > 0 {
		for _, k := range slices.Sorted(maps.Keys(s.Agent)) {
			v, _ := json.Marshal(s.Agent[k])
			row("agent "+k, "`"+string(v)+"`")
		}
	} else {
		row("agent settings", orDash(s.AgentNote))
	}
	row("SLO", r.File.SLO.String())
	row("queue wait", s.QueueWait)
	row("seed", fmt.Sprint(s.Seed))
	row("phases", fmt.Sprintf("warm-up %s, measure %s, %d repetitions, timeout %s per request",
		r.File.Warmup.String(), r.File.Measure.String(), r.File.Repetitions, fmt.Sprint(durationText(r.File.Timeout))))
	if s.Declared.Notes != "" {
		row("notes", s.Declared.Notes)
	}
	for _, res := range r.Results {
		sc := res.Scenario
		f("\n## %s\n\n", sc.Name)
		mode := "streamed"
		if !*sc.Stream {
			mode = "not streamed"
		}
		sampling := sc.Sampling
		if sc.Sampling == Sampled {
			sampling = fmt.Sprintf("sampled (temperature %g, a seed per request)", sc.Temperature)
		}
		f("Model `%s`, %s, %s; input %s words, output up to %s tokens (max_tokens); arrival %s.\n\n",
			sc.Model, mode, sampling, sc.InputTokens.String(), sc.OutputTokens.String(), sc.Arrival.Mode)
		f("| %s | sent | answered | 429 | 503 | errors | queue wait p50/p95/p99 (≤ ms) | TTFT p50/p95/p99 ms (n) | inter-token p50/p95/p99 ms (n) | e2e p50/p95/p99 ms (n) | output tok/s | goodput req/s | met SLO | cell |\n",
			loadUnit(sc.Arrival.Mode))
		f("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
		for _, c := range res.Cells {
			qw := "–"
			if c.QueueWait != nil && c.QueueWait.Samples > 0 {
				qw = fmt.Sprintf("%g / %g / %g (%d)", c.QueueWait.P50Ms, c.QueueWait.P95Ms, c.QueueWait.P99Ms, c.QueueWait.Samples)
			}
			verdict := "misses"
			if c.MeetsSLO {
				verdict = "**meets**"
			}
			f("| %g | %d | %d | %d | %d | %d | %s | %s | %s | %s | %.1f | %.3f | %.0f%% | %s |\n", c.Load, c.Attempted, c.Answered,
				c.Rejected429, c.Rejected503, c.Errors, qw, c.TTFT.text(), c.ITL.text(), c.E2E.text(), c.OutputTokS, c.Goodput, 100*c.Attainment, verdict)
		}
		if res.MaxLoadMeetingSLO != nil {
			f("\nHighest load that met the SLO: **%g %s**.\n", *res.MaxLoadMeetingSLO, loadUnit(sc.Arrival.Mode))
		} else {
			f("\nNo load met the SLO.\n")
		}
		for _, c := range res.Cells {
			if len(c.ErrorKinds) > 0 || len(c.RejectCodes) > 0 {
				f("- at %g: errors %s; refusals %s\n", c.Load, kinds(c.ErrorKinds), kinds(c.RejectCodes))
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func (p Percentiles) text() string {
	if p.Samples == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f / %.1f / %.1f (%d)", p.P50, p.P95, p.P99, p.Samples)
}

func (s SLO) String() string {
	var parts []string
	if s.TTFTMs > 0 {
		parts = append(parts, fmt.Sprintf("TTFT ≤ %g ms", s.TTFTMs))
	}
	if s.ITLMs > 0 {
		parts = append(parts, fmt.Sprintf("mean inter-token gap ≤ %g ms", s.ITLMs))
	}
	if s.E2EMs > 0 {
		parts = append(parts, fmt.Sprintf("end-to-end ≤ %g ms", s.E2EMs))
	}
	meets := "answered"
	if len(parts) > 0 {
		meets += " with " + strings.Join(parts, ", ")
	}
	return fmt.Sprintf("a request meets it when %s; a cell meets it when ≥ %g%% of the requests sent do (refused and failed ones count as missed)",
		meets, 100*s.Attainment)
}

func (p Phase) String() string {
	if p.Requests > 0 {
		return fmt.Sprintf("%d requests", p.Requests)
	}
	if p.Duration > 0 {
		return durationText(p.Duration)
	}
	return "none"
}

func (d Distribution) String() string {
	if len(d.Values) > 0 {
		return fmt.Sprintf("from %v", d.Values)
	}
	return fmt.Sprintf("p50 %d / p95 %d / p99 %d", d.P50, d.P95, d.P99)
}

func durationText(d Duration) string { t, _ := d.MarshalText(); return string(t) }

func kinds(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s ×%d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}

func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

func yesNo(b bool) string {
	if b {
		return "yes (the same prompt for the same length)"
	}
	return "no (each prompt starts with its request number)"
}

func short(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}

// shellJoin quotes a command line for sh.
func shellJoin(args []string) string {
	var out []string
	for _, a := range args {
		if a != "" && strings.Trim(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@,+") == "" {
			out = append(out, a)
		} else {
			out = append(out, "'"+strings.ReplaceAll(a, "'", `'\''`)+"'")
		}
	}
	return strings.Join(out, " ")
}
