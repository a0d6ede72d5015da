package fleet

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrBadGate is returned for a gate expression that does not parse.
var ErrBadGate = errors.New("fleet: bad gate")

// Gate metrics, computed over the edges of a wave from what they report.
const (
	MetricInstallFailures = "install_failures" // edges that failed or rejected the version
	MetricErrorRate       = "error_rate"       // errors / requests on the new version
	MetricFailoverRate    = "failover_rate"    // failovers / requests on the new version
	MetricTTFTRatio       = "ttft_p95_ratio"   // mean TTFT p95 on the new version / on the old one
)

// Gate is one condition a wave must hold to advance, e.g. "error_rate<0.02".
type Gate struct {
	Metric string  `json:"metric"`
	Op     string  `json:"op"`
	Value  float64 `json:"value"`
}

func (g Gate) String() string {
	return g.Metric + g.Op + strconv.FormatFloat(g.Value, 'g', -1, 64)
}

// ParseGate parses "metric op number" (spaces optional); ops are < <= > >= ==.
func ParseGate(s string) (Gate, error) {
	s = strings.TrimSpace(s)
	i := strings.IndexAny(s, "<>=")
	if i <= 0 {
		return Gate{}, fmt.Errorf("%w: %q: want metric<op>number", ErrBadGate, s)
	}
	metric := strings.TrimSpace(s[:i])
	rest := s[i:]
	var op string
	for _, cand := range []string{"<=", ">=", "==", "<", ">"} {
		if strings.HasPrefix(rest, cand) {
			op = cand
			break
		}
	}
	if op == "" {
		return Gate{}, fmt.Errorf("%w: %q: unknown operator", ErrBadGate, s)
	}
	switch metric {
	case MetricInstallFailures, MetricErrorRate, MetricFailoverRate, MetricTTFTRatio:
	default:
		return Gate{}, fmt.Errorf("%w: unknown metric %q", ErrBadGate, metric)
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(rest[len(op):]), 64)
	if err != nil || v != v { // NaN never compares true, which would make a gate unpassable
		return Gate{}, fmt.Errorf("%w: %q: value must be a number", ErrBadGate, s)
	}
	return Gate{Metric: metric, Op: op, Value: v}, nil
}

// Holds reports whether the gate holds for the measured value.
func (g Gate) Holds(v float64) bool {
	switch g.Op {
	case "<":
		return v < g.Value
	case "<=":
		return v <= g.Value
	case ">":
		return v > g.Value
	case ">=":
		return v >= g.Value
	case "==":
		return v == g.Value
	}
	return false
}
