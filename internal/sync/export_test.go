package sync

import "time"

// SetUsageEvery shortens how often a usage record goes to the history (before Run).
func SetUsageEvery(a *Agent, d time.Duration) { a.usageEvery = d }
