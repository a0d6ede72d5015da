package main

import (
	"cmp"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime/debug"
)

// defaultGCPercent is the gateway's garbage-collector target when neither gc_percent nor GOGC
// says otherwise. A gateway's memory is mostly its idle edge connections (quic-go's and
// crypto/tls's state and a few goroutine stacks each), and Go lets the heap grow by GOGC percent
// of what is live and of the stacks before collecting: at Go's 100 a gateway with many idle
// edges holds about twice what they need. What the lower target costs and saves is measured in
// docs/SCALE.md ("Where a gateway's idle connection goes").
const defaultGCPercent = 25

func (o options) validateGC() []error {
	var errs []error
	if o.gcPercent != 0 && (o.gcPercent < 10 || o.gcPercent > 1000) {
		errs = append(errs, fmt.Errorf("--gc-percent: %d; want 10 to 1000 (Go's own default is 100), or 0 for the gateway's (%d)", o.gcPercent, defaultGCPercent))
	}
	if o.memoryLimit < 0 || o.memoryLimit > 0 && o.memoryLimit < 64<<20 {
		errs = append(errs, errors.New("--memory-limit: want 0 (none) or at least 64 MiB (67108864)"))
	}
	return errs
}

// applyGC sets the process's collector from the options; GOGC and GOMEMLIMIT in the environment
// win, as they do for any Go program. Process-wide, so set by the binary only.
func applyGC(o options, log *slog.Logger) {
	gc, limit := "GOGC="+os.Getenv("GOGC"), "GOMEMLIMIT"
	if os.Getenv("GOGC") == "" {
		pct := cmp.Or(o.gcPercent, defaultGCPercent)
		debug.SetGCPercent(pct)
		gc = fmt.Sprint(pct)
	}
	if o.memoryLimit > 0 && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(o.memoryLimit)
		limit = "memory_limit"
	}
	// SetMemoryLimit with a negative value only reads it (math.MaxInt64: none).
	log.Info("garbage collector", "gc_percent", gc, "memory_limit", debug.SetMemoryLimit(-1), "limit_from", limit)
}
