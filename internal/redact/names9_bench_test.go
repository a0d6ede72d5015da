package redact

import (
	"os"
	"testing"
)

// BenchmarkAppendNamesR9Cost times the names pass as BenchmarkAppendNames4KiB does, with this
// round's pass on, or off when N9OFF is set: the round's own cost, measured with one binary (the
// same code layout) at the same moment on a noisy host. (Round 9, issue #13.)
func BenchmarkAppendNamesR9Cost(b *testing.B) {
	out := make([]Span, 0, 256)
	r9Off = os.Getenv("N9OFF") != ""
	defer func() { r9Off = false }()
	benchWordPass(b, true, func(text string, ws []word, fc *folder) { out = appendNames(out[:0], ws, fc, text) })
}
