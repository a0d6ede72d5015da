package sizing

import (
	"fmt"
	"maps"
	"slices"
	"time"
)

// Keys of the inputs the fleet can measure, as written in the assumptions file.
const (
	KeyRequestsPerDay   = "demand.requests_per_day"
	KeyInputTokensMean  = "demand.input_tokens_mean"
	KeyOutputTokensMean = "demand.output_tokens_mean"
	KeyPeakFactor       = "demand.peak_factor"
	KeyActiveHours      = "demand.active_hours"
	KeyAcceptance       = "speculative.acceptance"
)

// FleetDemand is demand measured by the edges over Window (`fleetctl size --from-fleet` reads it
// from the fleet's usage history: FromUsage).
type FleetDemand struct {
	RequestsPerDay, InputTokensMean, OutputTokensMean, PeakFactor, ActiveHours, Acceptance float64
	// Samples counts the measurements behind each field, keyed by the field's assumptions key
	// (KeyRequestsPerDay …). A field without samples is not used: its assumption stays. This,
	// not a zero value, decides, because a measured zero (acceptance 0) is still a measurement.
	Samples map[string]int
	Window  time.Duration
	// Notes say why a measurable input was not measured (and so stays an assumption), and what
	// else the history held (acceptance of models other than the one sized).
	Notes []string
}

// Provenance says which inputs of a sizing came from the fleet; the zero value says none did.
type Provenance struct {
	Window  time.Duration
	Samples map[string]int // assumptions key → samples, only for the inputs taken from the fleet
	Notes   []string
}

// FleetSources is Provenance as a report carries it.
type FleetSources struct {
	Window  string         `json:"window" yaml:"window"`
	Samples map[string]int `json:"samples" yaml:"samples"`
	Notes   []string       `json:"notes,omitempty" yaml:"notes,omitempty"`
}

func (p Provenance) sources() *FleetSources {
	if len(p.Samples) == 0 && len(p.Notes) == 0 {
		return nil
	}
	return &FleetSources{Window: p.Window.String(), Samples: maps.Clone(p.Samples), Notes: slices.Clone(p.Notes)}
}

// Describe is one line per input taken from the fleet, in key order, for reports and file headers.
func (p Provenance) Describe() []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(p.Samples)) {
		out = append(out, fmt.Sprintf("%s from the fleet: %d samples over %s", k, p.Samples[k], p.Window))
	}
	return out
}

// Overlay returns a copy of a in which every input the fleet has samples for is the fleet's value,
// and the provenance that says so. a itself is not changed. The result is validated by Size.
func (f FleetDemand) Overlay(a Assumptions) (Assumptions, Provenance, error) {
	fields := map[string]struct {
		dst *float64
		src float64
	}{
		KeyRequestsPerDay:   {&a.Demand.RequestsPerDay, f.RequestsPerDay},
		KeyInputTokensMean:  {&a.Demand.InputTokensMean, f.InputTokensMean},
		KeyOutputTokensMean: {&a.Demand.OutputTokensMean, f.OutputTokensMean},
		KeyPeakFactor:       {&a.Demand.PeakFactor, f.PeakFactor},
		KeyActiveHours:      {&a.Demand.ActiveHours, f.ActiveHours},
	}
	if a.Speculative != nil {
		sp := *a.Speculative // a is a copy, but Speculative still points at the caller's
		a.Speculative = &sp
		fields[KeyAcceptance] = struct {
			dst *float64
			src float64
		}{&sp.Acceptance, f.Acceptance}
	}
	p := Provenance{Window: f.Window, Samples: map[string]int{}, Notes: slices.Clone(f.Notes)}
	var problems []string
	for _, k := range slices.Sorted(maps.Keys(f.Samples)) {
		n := f.Samples[k]
		field, known := fields[k]
		switch {
		case k == KeyAcceptance && !known:
			problems = append(problems, "the fleet measured speculative.acceptance but the assumptions have no speculative section (gamma and verify_cost are unknown)")
		case !known:
			problems = append(problems, fmt.Sprintf("the fleet sent samples for %q, which is not an input it can measure", k))
		case n < 0:
			problems = append(problems, fmt.Sprintf("%s: %d samples", k, n))
		case n > 0:
			*field.dst = field.src
			p.Samples[k] = n
		}
	}
	if len(problems) > 0 {
		return a, Provenance{}, &InvalidError{Problems: problems}
	}
	if len(p.Samples) > 0 && f.Window <= 0 {
		return a, Provenance{}, &InvalidError{Problems: []string{"fleet demand without a measurement window"}}
	}
	return a, p, nil
}
