package sizing

import (
	"fmt"
	"math"
)

// RhoFromTable returns the utilisation ceiling for a TTFT p99 target, and how it was chosen.
//
// Between two rows it interpolates linearly: the table is a monotone rule of thumb and a straight
// line between neighbours is the least presumptuous reading of it. Above the last row it keeps
// the last row's ρ: a looser SLO would allow more, so staying put over-provisions rather than
// under-provisions. Below the first row it refuses: a tighter SLO needs a lower ρ than any row
// says, and guessing one would under-provision.
func RhoFromTable(table []RhoRow, ttftMs float64) (rho float64, how string, err error) {
	if len(table) == 0 {
		return 0, "", fmt.Errorf("%w: empty rho table", ErrInvalid)
	}
	first, last := table[0], table[len(table)-1]
	switch {
	case ttftMs < first.TTFTP99Ms:
		return 0, "", fmt.Errorf("%w: TTFT p99 %g ms is tighter than the rho table's first row (%g ms)", ErrInvalid, ttftMs, first.TTFTP99Ms)
	case ttftMs >= last.TTFTP99Ms:
		if ttftMs == last.TTFTP99Ms {
			return last.RhoMax, fmt.Sprintf("row %s ms", num(last.TTFTP99Ms, 0)), nil
		}
		return last.RhoMax, fmt.Sprintf("last row %s ms (the table is not extrapolated upwards)", num(last.TTFTP99Ms, 0)), nil
	}
	for i := 1; i < len(table); i++ {
		lo, hi := table[i-1], table[i]
		if ttftMs == lo.TTFTP99Ms {
			return lo.RhoMax, fmt.Sprintf("row %s ms", num(lo.TTFTP99Ms, 0)), nil
		}
		if ttftMs < hi.TTFTP99Ms {
			f := (ttftMs - lo.TTFTP99Ms) / (hi.TTFTP99Ms - lo.TTFTP99Ms)
			return lo.RhoMax + f*(hi.RhoMax-lo.RhoMax),
				fmt.Sprintf("linear between rows %s ms and %s ms", num(lo.TTFTP99Ms, 0), num(hi.TTFTP99Ms, 0)), nil
		}
	}
	return last.RhoMax, "", nil // unreachable: the cases above cover every ttftMs
}

// RhoMM1 is the utilisation at which an M/M/1 queue with mean service time s has mean queue
// wait W: Wq = s·ρ/(1−ρ), so ρ = (W/s)/(1+W/s). It grows with the wait allowed (W → 0 gives
// ρ → 0, W = s gives 0.5) and is a mean, not a percentile.
func RhoMM1(waitMs, serviceMs float64) (float64, error) {
	if !(waitMs > 0) || !(serviceMs > 0) || math.IsInf(waitMs, 0) || math.IsInf(serviceMs, 0) {
		return 0, fmt.Errorf("%w: M/M/1 needs a queue wait and a service time > 0, got %g ms and %g ms", ErrInvalid, waitMs, serviceMs)
	}
	r := waitMs / serviceMs
	return r / (1 + r), nil
}
