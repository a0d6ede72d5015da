package buildinfo

import (
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

func TestCollectorExportsBuildInfo(t *testing.T) {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collector(Info{Version: "v1.2.3", Commit: "abc123", GoVersion: "go1.26.0"}))
	want := `
# HELP sucursal_build_info Always 1; the labels say which build of the binary this is.
# TYPE sucursal_build_info gauge
sucursal_build_info{commit="abc123",goversion="go1.26.0",version="v1.2.3"} 1
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "sucursal_build_info"); err != nil {
		t.Fatal(err)
	}
	// The real one registers too (labels from this test binary).
	if err := prometheus.NewRegistry().Register(Collector()); err != nil {
		t.Fatal(err)
	}
}
