package redact

import "testing"

// BenchmarkAppendAddresses4KiB times the address grammar alone on the 4 KiB benchmark prompt and
// on 4 KiB of realistic dev text (addresses, postcodes, numbers next to words), in thread CPU
// time (cpu-p50-ns): the pass is a share of Redact4KiB, and alone its cost moves far less with
// the machine's noise.
func BenchmarkAppendAddresses4KiB(b *testing.B) {
	benchWordPass(b, false, func(text string, ws []word, fc *folder) { _ = appendAddresses(nil, text, ws, fc) })
}
