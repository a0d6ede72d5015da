package main

import (
	"time"

	"github.com/sucursal/sucursal/internal/procs"
)

// edgeMaxProcs is how many threads at most run the agent's Go code at once when it is busy,
// unless GOMAXPROCS says otherwise (issue #20, docs/PERFORMANCE.md). A branch NUC's cores belong
// mostly to the guard, NER and drafting models; the relay needs little CPU per chunk but pays for
// every idle thread the Go scheduler wakes to look for work (one more P is one more thread to
// wake and park at each hand-off). With one request to the datacenter in flight the agent runs on
// one P; with two or more, two, so that one request's redaction or a burst of chunks does not
// hold up the others' relaying or the link's QUIC loop (acknowledgements, pings); back to one P
// after edgeQuiet with at most one in flight. GOMAXPROCS in the environment (e.g. in the systemd
// unit) turns this off and wins.
const (
	edgeMaxProcs = 2
	edgeBusy     = 1
	edgeQuiet    = 2 * time.Second
)

// limitProcs applies the policy above (package procs), never raising what the runtime chose (a
// container's CPU quota, a machine with fewer cores). The requests are counted by package link
// (each request stream open to the datacenter).
func limitProcs() {
	procs.Start(procs.Policy{Max: edgeMaxProcs, Busy: edgeBusy, Quiet: edgeQuiet})
}
