package fleet

import "github.com/sucursal/sucursal/internal/fleetapi"

// measuredRequests is in Measure's output for Spec.MinRequests; it is not a gate metric.
const measuredRequests = "requests"

// Measure computes the gate metrics of a wave. inWave are the wave's edges, baseline the eligible
// edges outside it (the old version's reference for the TTFT ratio). With no traffic yet, rates
// are 0 and the ratio is 1: a wave is judged on install results until edges report traffic.
func Measure(role, version string, inWave, baseline []fleetapi.EdgeStatus) map[string]float64 {
	var failures, requests, errs, failovers float64
	var newTTFT, newN float64
	for _, e := range inWave {
		if failedVersion(e, role, version) {
			failures++
			continue
		}
		rs := e.Roles[role]
		if rs.Version != version {
			continue
		}
		requests += float64(rs.Health.Requests)
		errs += float64(rs.Health.Errors)
		failovers += float64(rs.Health.Failovers)
		if rs.Health.Requests > 0 {
			newTTFT += rs.Health.TTFTP95Ms
			newN++
		}
	}
	var oldTTFT, oldN float64
	for _, e := range baseline {
		rs := e.Roles[role]
		if rs.Version != version && rs.Health.Requests > 0 {
			oldTTFT += rs.Health.TTFTP95Ms
			oldN++
		}
	}
	out := map[string]float64{
		measuredRequests:      requests,
		MetricInstallFailures: failures,
		MetricErrorRate:       0,
		MetricFailoverRate:    0,
		MetricTTFTRatio:       1,
	}
	if requests > 0 {
		out[MetricErrorRate] = errs / requests
		out[MetricFailoverRate] = failovers / requests
	}
	if newN > 0 && oldN > 0 && oldTTFT > 0 {
		out[MetricTTFTRatio] = (newTTFT / newN) / (oldTTFT / oldN)
	}
	return out
}
