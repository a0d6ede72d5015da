//go:build race

package sync_test

// raceEnabled: the race detector multiplies memory use, so RSS bounds do not apply.
const raceEnabled = true
