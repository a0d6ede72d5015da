package loadbench

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// The edge-agent does not tell a caller how long its request waited for an admission slot (no
// response header carries it); its /metrics does, as a histogram over all requests. The bench
// reads that histogram before and after each repetition: the difference is the queue waits of the
// requests in between — this run's, plus any other traffic the agent served meanwhile.
const queueWaitMetric = "sucursal_admission_queue_wait_seconds"

// Histogram is a cumulative Prometheus histogram: counts at or below each bound (seconds).
type Histogram struct {
	Bounds []float64 // ascending, +Inf last
	Counts []float64
}

func (h Histogram) minus(o Histogram) Histogram {
	out := Histogram{Bounds: slices.Clone(h.Bounds), Counts: slices.Clone(h.Counts)}
	if slices.Equal(h.Bounds, o.Bounds) {
		for i := range out.Counts {
			out.Counts[i] = math.Max(0, out.Counts[i]-o.Counts[i])
		}
	}
	return out
}

func (h *Histogram) add(o Histogram) {
	if !slices.Equal(h.Bounds, o.Bounds) {
		return
	}
	for i := range h.Counts {
		h.Counts[i] += o.Counts[i]
	}
}

// QueueWait is the admission queue wait of the requests a cell sent, from the server's histogram:
// each quantile is the upper bound of the bucket it falls in (so "≤ 10 ms", not a measurement).
type QueueWait struct {
	Source  string  `json:"source"`
	P50Ms   float64 `json:"p50_le_ms"`
	P95Ms   float64 `json:"p95_le_ms"`
	P99Ms   float64 `json:"p99_le_ms"`
	Samples int     `json:"samples"`
}

func (h Histogram) quantiles() *QueueWait {
	if len(h.Counts) == 0 {
		return nil
	}
	total := h.Counts[len(h.Counts)-1]
	q := &QueueWait{Source: queueWaitMetric + " (bucket upper bounds)", Samples: int(total)}
	if total == 0 {
		return q
	}
	at := func(p float64) float64 {
		rank := math.Ceil(p * total)
		for i, c := range h.Counts {
			if c >= rank {
				return round3(h.Bounds[i] * 1000)
			}
		}
		return math.Inf(1)
	}
	q.P50Ms, q.P95Ms, q.P99Ms = at(0.50), at(0.95), at(0.99)
	return q
}

// MetricsQueueWait reads the histogram from a Prometheus text endpoint (the agent's /metrics).
type MetricsQueueWait struct {
	URL    string
	APIKey string
	HTTP   *http.Client
}

// ErrNoQueueWait says the endpoint has no admission histogram (not an edge-agent, or metrics
// behind a key the bench was not given).
var ErrNoQueueWait = errors.New("no admission queue-wait histogram")

func (m MetricsQueueWait) Snapshot(ctx context.Context) (Histogram, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, m.URL, nil)
	if err != nil {
		return Histogram{}, err
	}
	if m.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+m.APIKey)
	}
	resp, err := m.HTTP.Do(req)
	if err != nil {
		return Histogram{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return Histogram{}, fmt.Errorf("%w: %s answered %d", ErrNoQueueWait, m.URL, resp.StatusCode)
	}
	return ParseHistogram(io.LimitReader(resp.Body, 16<<20), queueWaitMetric)
}

// ParseHistogram reads one unlabelled histogram (name_bucket{le="…"} lines) from Prometheus text
// exposition, summing series that differ in other labels.
func ParseHistogram(r io.Reader, name string) (Histogram, error) {
	counts := map[float64]float64{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	prefix := name + "_bucket{"
	for sc.Scan() {
		line := sc.Text()
		rest, ok := strings.CutPrefix(line, prefix)
		if !ok {
			continue
		}
		labels, value, ok := strings.Cut(rest, "} ")
		if !ok {
			continue
		}
		le := ""
		for _, l := range strings.Split(labels, ",") {
			if v, ok := strings.CutPrefix(l, `le="`); ok {
				le = strings.TrimSuffix(v, `"`)
			}
		}
		bound, err1 := strconv.ParseFloat(le, 64)
		value, _, _ = strings.Cut(value, " ") // a timestamp may follow
		n, err2 := strconv.ParseFloat(value, 64)
		if err1 != nil || err2 != nil || math.IsNaN(bound) || math.IsNaN(n) || n < 0 {
			continue
		}
		counts[bound] += n
	}
	if err := sc.Err(); err != nil {
		return Histogram{}, err
	}
	if len(counts) == 0 {
		return Histogram{}, ErrNoQueueWait
	}
	var h Histogram
	for _, b := range slices.Sorted(maps.Keys(counts)) {
		h.Bounds = append(h.Bounds, b)
		h.Counts = append(h.Counts, counts[b])
	}
	return h, nil
}
