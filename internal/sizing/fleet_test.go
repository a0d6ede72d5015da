package sizing

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestSizeFleetOverlay(t *testing.T) {
	a := example(t)
	f := FleetDemand{
		RequestsPerDay: 4e6, OutputTokensMean: 300, Acceptance: 0, PeakFactor: 99,
		Samples: map[string]int{KeyRequestsPerDay: 1200, KeyOutputTokensMean: 950000, KeyAcceptance: 40000},
		Window:  7 * 24 * time.Hour,
	}
	got, p, err := f.Overlay(a)
	if err != nil {
		t.Fatal(err)
	}
	if got.Demand.RequestsPerDay != 4e6 || got.Demand.OutputTokensMean != 300 || got.Speculative.Acceptance != 0 {
		t.Errorf("fleet values not taken: %+v %+v", got.Demand, *got.Speculative)
	}
	if got.Demand.PeakFactor != 1.8 || got.Demand.InputTokensMean != 512 {
		t.Errorf("a field without samples must keep its assumption: %+v", got.Demand)
	}
	if a.Demand.RequestsPerDay != 5e6 || a.Speculative.Acceptance != 0.65 {
		t.Errorf("Overlay changed the caller's assumptions: %+v %+v", a.Demand, *a.Speculative)
	}

	r, err := Size(got, p)
	if err != nil {
		t.Fatal(err)
	}
	if r.Fleet == nil || r.Fleet.Samples[KeyRequestsPerDay] != 1200 || r.Fleet.Window != "168h0m0s" || len(r.Fleet.Samples) != 3 {
		t.Errorf("report fleet sources %+v", r.Fleet)
	}
	text := r.Text()
	for _, want := range []string{
		"Inputs: from the fleet over 168h0m0s: demand.output_tokens_mean (950000 samples), demand.requests_per_day (1200 samples), speculative.acceptance (40000 samples); every other input is an assumption from the file.",
		"D = 4 000 000 requests/day [fleet: 1200 samples]",
		"L_out = 300 tokens [fleet: 950000 samples]",
		"α = 0 [fleet: 40000 samples]",
		"L_in = 512 tokens,", // still an assumption: unmarked
		"k = 1.8,",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text report lacks %q:\n%s", want, text)
		}
	}
	if d := p.Describe(); len(d) != 3 || d[0] != "demand.output_tokens_mean from the fleet: 950000 samples over 168h0m0s" {
		t.Errorf("Describe() = %q", d)
	}

	// Without fleet data the report says every input is an assumption.
	if r := sizeOf(t, a); r.Fleet != nil || !strings.Contains(r.Text(), "none from the fleet") {
		t.Errorf("plain report claims fleet inputs: %+v", r.Fleet)
	}
}

func TestSizeFleetOverlayRefuses(t *testing.T) {
	noSpec := example(t)
	noSpec.Speculative = nil
	tests := []struct {
		name string
		a    Assumptions
		f    FleetDemand
		want string
	}{
		{"acceptance without a speculative section", noSpec,
			FleetDemand{Acceptance: 0.7, Samples: map[string]int{KeyAcceptance: 10}, Window: time.Hour}, "no speculative section"},
		{"a key the fleet cannot measure", example(t),
			FleetDemand{Samples: map[string]int{"hardware.vram_gb": 3}, Window: time.Hour}, `"hardware.vram_gb"`},
		{"negative samples", example(t),
			FleetDemand{PeakFactor: 2, Samples: map[string]int{KeyPeakFactor: -1}, Window: time.Hour}, "-1 samples"},
		{"no window", example(t),
			FleetDemand{PeakFactor: 2, Samples: map[string]int{KeyPeakFactor: 5}}, "window"},
	}
	for _, tt := range tests {
		if _, _, err := tt.f.Overlay(tt.a); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want ErrInvalid mentioning %q", tt.name, err, tt.want)
		}
	}

	// A fleet value that breaks the assumptions is caught by Size like any other.
	a, p, err := FleetDemand{ActiveHours: 30, Samples: map[string]int{KeyActiveHours: 9}, Window: time.Hour}.Overlay(example(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Size(a, p); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "demand.active_hours") {
		t.Errorf("fleet active hours 30: %v", err)
	}
}
