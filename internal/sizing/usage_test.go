package sizing

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/fleetapi"
)

// simEdge is an edge with a known daily profile: idle at night, 10 requests per 5-minute window
// from 08:00 to 20:00 UTC, 30 in the 11:00 hour.
type simEdge struct {
	id            string
	model         string
	in, out       float64
	drafted, acc  uint64 // per busy window
	requestsScale uint64
}

func (e simEdge) records(from time.Time, windows int) []fleetapi.UsageRecord {
	var out []fleetapi.UsageRecord
	for i := range windows {
		at := from.Add(time.Duration(i+1) * fleetapi.UsageWindow)
		mid := at.Add(-fleetapi.UsageWindow / 2)
		var req uint64
		switch h := mid.Hour(); {
		case h == 11:
			req = 30
		case h >= 8 && h < 20:
			req = 10
		}
		req *= max(e.requestsScale, 1)
		u := fleetapi.Usage{WindowSeconds: fleetapi.UsageWindow.Seconds(), Requests: req,
			InputTokens: fleetapi.Tokens{Mean: e.in, Samples: req}, OutputTokens: fleetapi.Tokens{Mean: e.out, Samples: req}}
		if req > 0 {
			u.Models = []string{e.model}
			if e.drafted > 0 {
				u.Drafting = &fleetapi.Drafting{DraftedTokens: e.drafted, AcceptedTokens: e.acc}
			}
		}
		out = append(out, fleetapi.UsageRecord{EdgeID: e.id, At: at, Usage: u})
	}
	return out
}

func TestFromUsage(t *testing.T) {
	day0 := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
	now := day0.Add(7 * 24 * time.Hour)
	week := int(7 * 24 * time.Hour / fleetapi.UsageWindow)
	a := simEdge{id: "a", model: "llama-70b", in: 400, out: 200, drafted: 100, acc: 70}
	b := simEdge{id: "b", model: "qwen-7b", in: 600, out: 300, drafted: 100, acc: 50}
	var recs []fleetapi.UsageRecord
	recs = append(recs, a.records(day0, week)...)
	recs = append(recs, b.records(day0, week)...)
	// Older than the window: left out.
	recs = append(recs, fleetapi.UsageRecord{EdgeID: "a", At: day0.Add(-time.Hour), Usage: fleetapi.Usage{WindowSeconds: 300, Requests: 1e6}})

	f := FromUsage(recs, 7*24*time.Hour, now, "llama-70b")
	// Per edge and day: 11 hours × 12 windows × 10 + 12 × 30 = 1680 requests.
	perDay := 2.0 * 1680
	if f.RequestsPerDay != perDay || f.Samples[KeyRequestsPerDay] != 2*week || f.Window != 7*24*time.Hour {
		t.Errorf("D = %v over %s (%d samples), want %v over 168h from %d records", f.RequestsPerDay, f.Window, f.Samples[KeyRequestsPerDay], perDay, 2*week)
	}
	if f.InputTokensMean != 500 || f.OutputTokensMean != 250 || f.Samples[KeyInputTokensMean] != int(7*perDay) {
		t.Errorf("L_in %v, L_out %v (%d samples): want 500, 250 weighted by requests", f.InputTokensMean, f.OutputTokensMean, f.Samples[KeyInputTokensMean])
	}
	// 12 active hours a day; the busiest (11:00, 2×360) over their mean (3360/12 = 280).
	if f.ActiveHours != 12 || math.Abs(f.PeakFactor-720.0/280) > 1e-12 || f.Samples[KeyPeakFactor] != 168 {
		t.Errorf("H = %v, k = %v (%d samples), want 12 and %v over 168 hours", f.ActiveHours, f.PeakFactor, f.Samples[KeyPeakFactor], 720.0/280)
	}
	if f.Acceptance != 0.7 || f.Samples[KeyAcceptance] != int(7*12*12*100) {
		t.Errorf("α = %v over %d drafted tokens, want 0.7 (llama-70b only)", f.Acceptance, f.Samples[KeyAcceptance])
	}
	if len(f.Notes) != 1 || !strings.Contains(f.Notes[0], "qwen-7b α = 0.500 over 100800 drafted tokens") {
		t.Errorf("notes %q: want the other model's acceptance", f.Notes)
	}

	// The overlay puts them into the sizing, each marked with its samples.
	sized, p, err := f.Overlay(example(t))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Size(sized, p)
	if err != nil {
		t.Fatal(err)
	}
	text := r.Text()
	for _, want := range []string{"D = 3 360 requests/day [fleet: 4032 samples]", "L_in = 500 tokens [fleet: 23520 samples]",
		"α = 0.7 [fleet: 100800 samples]", "H = 12 active hours [fleet: 168 samples]", "fleet: other models drafted"} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q:\n%s", want, text)
		}
	}
}

func TestFromUsageLeavesAssumptions(t *testing.T) {
	day0 := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name     string
		recs     []fleetapi.UsageRecord
		since    time.Duration
		now      time.Time
		unset    []string
		noteHas  string
		wantSpan time.Duration
	}{
		{"no records", nil, 24 * time.Hour, day0, []string{KeyRequestsPerDay, KeyAcceptance, KeyPeakFactor}, "no record in the last 24h0m0s", 0},
		{"six hours of history: no k or H", simEdge{id: "a", model: "m", in: 1, out: 1}.records(day0, 72), 7 * 24 * time.Hour, day0.Add(6 * time.Hour),
			[]string{KeyPeakFactor, KeyActiveHours, KeyAcceptance}, "covers 6h0m0s, less than 24h0m0s", 6 * time.Hour},
		{"no drafting for the model", simEdge{id: "a", model: "other", in: 1, out: 1, drafted: 10, acc: 5}.records(day0, 288), 24 * time.Hour, day0.Add(24 * time.Hour),
			[]string{KeyAcceptance}, `no drafting measured for model "m"`, 24 * time.Hour},
	}
	for _, tt := range tests {
		f := FromUsage(tt.recs, tt.since, tt.now, "m")
		for _, k := range tt.unset {
			if n, ok := f.Samples[k]; ok {
				t.Errorf("%s: %s measured (%d samples)", tt.name, k, n)
			}
		}
		if !strings.Contains(strings.Join(f.Notes, "\n"), tt.noteHas) {
			t.Errorf("%s: notes %q lack %q", tt.name, f.Notes, tt.noteHas)
		}
		if f.Window != tt.wantSpan {
			t.Errorf("%s: window %s, want %s", tt.name, f.Window, tt.wantSpan)
		}
	}
}
