//go:build !race

package sync_test

const raceEnabled = false
