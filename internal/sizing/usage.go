package sizing

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/sucursal/sucursal/internal/fleetapi"
)

// Rules of FromUsage, written down in docs/SIZING.md.
const (
	// ActiveHourShare: an hour of the history is active when it carried at least this share of
	// the busiest hour's requests.
	ActiveHourShare = 0.10
	// MinPeakHistory is the least history that measures k and H (a whole day of hours).
	MinPeakHistory = 24 * time.Hour
)

// FromUsage turns the usage records the edges appended to the fleet's history (one per edge per
// usage window) into demand, for the records whose window ended in (now−since, now]:
//
//   - D: the requests of every record, over the span the history covers (since, or less when the
//     oldest record is younger), per day; samples: records.
//   - L_in, L_out: means weighted by each record's samples; samples: requests measured. Input
//     tokens are the edges' estimates (four bytes a token), output tokens the answers' usage or
//     chunk counts (fleetapi.Usage says which).
//   - k and H from the fleet's requests per clock hour (UTC): an hour is active when it carried at
//     least ActiveHourShare of the busiest hour; H = active hours per day, k = the busiest hour
//     over the mean of the active hours. Hourly, so bursts inside an hour do not show; needs at
//     least MinPeakHistory. Samples: hours.
//   - α for model: accepted over drafted tokens of the records whose window served that model and
//     no other (an edge's drafting is not split by model); samples: drafted tokens. Other models'
//     acceptance is listed in Notes.
//
// A field without samples stays an assumption; Notes say why.
func FromUsage(records []fleetapi.UsageRecord, since time.Duration, now time.Time, model string) FleetDemand {
	u := NewUsageSum(since, now)
	for _, r := range records {
		u.Add(r)
	}
	return u.Demand(model)
}

// UsageSum accumulates usage records one at a time, in memory that does not grow with the number
// of records (only with the hours of the window and the models seen), for FromUsage.
type UsageSum struct {
	since                       time.Duration
	now, from, oldest           time.Time
	n                           int
	requests, inN, outN         float64
	inSum, outSum               float64
	hours                       map[int64]float64
	drafted, accepted           map[string]uint64
	mixedDrafting, mixedRecords uint64
}

// NewUsageSum takes the records whose window ended in (now−since, now].
func NewUsageSum(since time.Duration, now time.Time) *UsageSum {
	return &UsageSum{since: since, now: now, from: now.Add(-since), oldest: now,
		hours: map[int64]float64{}, drafted: map[string]uint64{}, accepted: map[string]uint64{}}
}

// Add counts one record (or skips it, outside the window).
func (s *UsageSum) Add(r fleetapi.UsageRecord) {
	if !r.At.After(s.from) || r.At.After(s.now) {
		return
	}
	u := r.Usage
	s.n++
	window := time.Duration(u.WindowSeconds * float64(time.Second))
	if start := r.At.Add(-window); start.Before(s.oldest) {
		s.oldest = start
	}
	s.requests += float64(u.Requests)
	s.inSum += u.InputTokens.Mean * float64(u.InputTokens.Samples)
	s.inN += float64(u.InputTokens.Samples)
	s.outSum += u.OutputTokens.Mean * float64(u.OutputTokens.Samples)
	s.outN += float64(u.OutputTokens.Samples)
	// A window lies in the hour of its middle.
	s.hours[r.At.Add(-window/2).Unix()/3600] += float64(u.Requests)
	if d := u.Drafting; d != nil && d.DraftedTokens > 0 {
		if len(u.Models) == 1 {
			s.drafted[u.Models[0]] += d.DraftedTokens
			s.accepted[u.Models[0]] += d.AcceptedTokens
		} else {
			s.mixedDrafting += d.DraftedTokens
			s.mixedRecords++
		}
	}
}

// Records is how many records were counted.
func (s *UsageSum) Records() int { return s.n }

// Demand is the demand the counted records measured, α for model.
func (s *UsageSum) Demand(model string) FleetDemand {
	f := FleetDemand{Samples: map[string]int{}}
	since, now, from, oldest, n := s.since, s.now, s.from, s.oldest, s.n
	requests, inN, outN, inSum, outSum, hours := s.requests, s.inN, s.outN, s.inSum, s.outSum, s.hours
	drafted, accepted, mixedDrafting, mixedRecords := s.drafted, s.accepted, s.mixedDrafting, s.mixedRecords
	if n == 0 {
		f.Notes = append(f.Notes, fmt.Sprintf("the usage history has no record in the last %s: every input is an assumption", since))
		return f
	}
	span := now.Sub(oldest)
	if oldest.Before(from) {
		span = since
	}
	f.Window = span
	days := span.Hours() / 24
	f.RequestsPerDay = requests / days
	f.Samples[KeyRequestsPerDay] = n
	if inN > 0 {
		f.InputTokensMean, f.Samples[KeyInputTokensMean] = inSum/inN, int(inN)
	} else {
		f.Notes = append(f.Notes, "no request measured its input tokens: demand.input_tokens_mean is an assumption")
	}
	if outN > 0 {
		f.OutputTokensMean, f.Samples[KeyOutputTokensMean] = outSum/outN, int(outN)
	} else {
		f.Notes = append(f.Notes, "no answer measured its output tokens: demand.output_tokens_mean is an assumption")
	}

	switch {
	case span < MinPeakHistory:
		f.Notes = append(f.Notes, fmt.Sprintf("the history covers %s, less than %s: demand.peak_factor and demand.active_hours are assumptions, and D extrapolates those hours to a day", span.Round(time.Minute), MinPeakHistory))
	case requests == 0:
		f.Notes = append(f.Notes, "no requests in the history: demand.peak_factor and demand.active_hours are assumptions")
	default:
		busiest := slices.Max(slices.Collect(maps.Values(hours)))
		var active, activeSum float64
		for _, r := range hours {
			if r >= ActiveHourShare*busiest {
				active++
				activeSum += r
			}
		}
		f.ActiveHours = math.Min(active/days, 24)
		f.PeakFactor = busiest / (activeSum / active)
		nh := int(math.Ceil(span.Hours()))
		f.Samples[KeyActiveHours], f.Samples[KeyPeakFactor] = nh, nh
	}

	if d := drafted[model]; d > 0 {
		f.Acceptance = float64(accepted[model]) / float64(d)
		f.Samples[KeyAcceptance] = int(d)
	} else {
		f.Notes = append(f.Notes, fmt.Sprintf("no drafting measured for model %q: speculative.acceptance is an assumption", model))
	}
	var others []string
	for _, m := range slices.Sorted(maps.Keys(drafted)) {
		if m != model {
			others = append(others, fmt.Sprintf("%s α = %.3f over %d drafted tokens", m, float64(accepted[m])/float64(drafted[m]), drafted[m]))
		}
	}
	if len(others) > 0 {
		f.Notes = append(f.Notes, "other models drafted in the history (size one with --model NAME): "+strings.Join(others, "; "))
	}
	if mixedRecords > 0 {
		f.Notes = append(f.Notes, fmt.Sprintf("%d drafted tokens in %d windows that served several models are not attributed to any", mixedDrafting, mixedRecords))
	}
	return f
}
