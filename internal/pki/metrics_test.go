package pki

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

func TestExpiryCollector(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pki")
	mustInit(t, Options{Dir: dir, Edges: []string{"branch-1"}, DCSANs: []string{"dc.example"}})
	certs, err := Inspect(dir, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(ExpiryCollector(dir))
	if n := testutil.CollectAndCount(ExpiryCollector(dir), "sucursal_certificate_expiry_timestamp_seconds"); n != len(certs) || n != 3 {
		t.Fatalf("%d expiry series for %d certificates", n, len(certs))
	}
	for _, c := range certs {
		mfs, _ := reg.Gather()
		found := false
		for _, mf := range mfs {
			for _, m := range mf.GetMetric() {
				labels := map[string]string{}
				for _, l := range m.GetLabel() {
					labels[l.GetName()] = l.GetValue()
				}
				if mf.GetName() == "sucursal_certificate_expiry_timestamp_seconds" && labels["role"] == string(c.Role) &&
					labels["name"] == c.Name && int64(m.GetGauge().GetValue()) == c.NotAfter.Unix() {
					found = true
				}
			}
		}
		if !found {
			t.Errorf("no series for %s %s expiring %s", c.Role, c.Name, c.NotAfter)
		}
	}
	// A directory that is not there: the scrape still works and says so.
	bad := prometheus.NewRegistry()
	bad.MustRegister(ExpiryCollector(filepath.Join(dir, "nope")))
	if err := testutil.GatherAndCompare(bad, strings.NewReader(`
# HELP sucursal_certificate_read_ok 1 when the PKI directory's certificates could be read at this scrape.
# TYPE sucursal_certificate_read_ok gauge
sucursal_certificate_read_ok 0
`), "sucursal_certificate_read_ok"); err != nil {
		t.Fatal(err)
	}
}
