package main

import (
	"os"
	"runtime"
)

// edgeMaxProcs is how many threads at most run the agent's Go code at once, unless GOMAXPROCS
// says otherwise (issue #20, docs/PERFORMANCE.md). A branch NUC's cores belong mostly to the
// guard, NER and drafting models; the relay needs little CPU per chunk but pays for every idle
// thread the Go scheduler wakes to look for work (one more P is one more thread to wake and park
// at each hand-off). Two keep a request's redaction or a burst of chunks from holding up the
// link's QUIC loop (acknowledgements, pings) on a NUC with cores to spare; more would only add
// wake-ups. GOMAXPROCS in the environment (e.g. in the systemd unit) wins.
const edgeMaxProcs = 2

// limitProcs applies edgeMaxProcs, never raising what the runtime chose (a container's CPU
// quota, a machine with fewer cores).
func limitProcs() {
	if os.Getenv("GOMAXPROCS") != "" {
		return
	}
	if n := runtime.GOMAXPROCS(0); n > edgeMaxProcs {
		runtime.GOMAXPROCS(edgeMaxProcs)
	}
}
