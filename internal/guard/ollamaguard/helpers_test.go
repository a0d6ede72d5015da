package ollamaguard_test

import (
	"maps"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

// counter is the value of the counter series with exactly these labels; the test fails if there is
// none.
func counter(t *testing.T, reg *prometheus.Registry, name string, labels map[string]string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			got := map[string]string{}
			for _, l := range m.GetLabel() {
				got[l.GetName()] = l.GetValue()
			}
			if maps.Equal(got, labels) {
				return m.GetCounter().GetValue()
			}
		}
	}
	t.Fatalf("no %s%v", name, labels)
	return 0
}

// histCount is the number of observations over every series of a histogram family.
func histCount(t *testing.T, reg *prometheus.Registry, name string) uint64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var n uint64
	for _, mf := range mfs {
		if mf.GetName() == name {
			for _, m := range mf.GetMetric() {
				n += m.GetHistogram().GetSampleCount()
			}
		}
	}
	return n
}

func assertNoLeak(t *testing.T, e env, secret string) {
	t.Helper()
	if strings.Contains(e.log.String(), secret) {
		t.Error("log contains the scanned text")
	}
	mfs, err := e.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if strings.Contains(l.GetValue(), secret) {
					t.Errorf("%s label %s contains the scanned text", mf.GetName(), l.GetName())
				}
			}
		}
	}
}
