package main

import (
	"time"

	"github.com/sucursal/sucursal/internal/procs"
)

// A gateway serving a few streams relays them on one P (one thread running Go code): every
// extra P is one more idle thread the Go scheduler wakes and parks at each hand-off inside
// quic-go and the netpoller, for a few microseconds of work each (issue #20,
// docs/PERFORMANCE.md). With more than gatewayBusy request streams in flight it uses every core
// the runtime gives it (all of them, or a container's CPU quota): a datacenter gateway serving
// many branches needs their throughput. Back to one P after gatewayQuiet at or under
// gatewayBusy. GOMAXPROCS in the environment turns this off and wins.
const (
	gatewayBusy  = 8
	gatewayQuiet = 2 * time.Second
)

// limitProcs applies the policy above; main calls it before anything is served. Test binaries
// of this package do not run main and keep the runtime's defaults (and the binary links no
// testing code to tell them apart: internal/deptest).
func limitProcs() {
	procs.Start(procs.Policy{Busy: gatewayBusy, Quiet: gatewayQuiet})
}
