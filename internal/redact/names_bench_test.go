package redact

import (
	"strings"
	"testing"

	"github.com/sucursal/sucursal/internal/benchclock"
)

// BenchmarkAppendNames4KiB times the names pass alone on the 4 KiB benchmark prompt and on 4 KiB
// of realistic dev text, in thread CPU time (cpu-p50-ns): the pass is a share of Redact4KiB, and
// alone its cost moves far less with the machine's noise. (Round 5, issue #13.) The words'
// cached classes are cleared before each run, outside the clock, as a new request has none.
func BenchmarkAppendNames4KiB(b *testing.B) {
	out := make([]Span, 0, 256)
	benchWordPass(b, true, func(text string, ws []word, fc *folder) { out = appendNames(out[:0], ws, fc, text) })
}

// benchWordPass times pass on the two 4 KiB texts ("mixed": the benchmark prompt; "dev":
// realistic dev items) in thread CPU time, with the words split and lower-cased beforehand;
// freshClasses clears the words' cached classes before each run, outside the clock.
func benchWordPass(b *testing.B, freshClasses bool, pass func(text string, ws []word, fc *folder)) {
	var dev strings.Builder
	for _, f := range []string{"realistic-dev4.jsonl", "realistic-dev2.jsonl"} {
		for _, it := range loadItems(b, f) {
			if dev.Len() >= 4096 {
				break
			}
			dev.WriteString(it.Text)
			dev.WriteString("\n")
		}
	}
	for _, c := range []struct{ name, text string }{{"mixed", mixedPrompt(b, 4096)}, {"dev", dev.String()[:4096]}} {
		b.Run(c.name, func(b *testing.B) {
			ws := splitWords(nil, c.text)
			lower := appendLowerSameLength(nil, c.text)
			clk := benchclock.New(b)
			b.SetBytes(int64(len(c.text)))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if freshClasses {
					for k := range ws {
						ws[k].clsDone = false
					}
				}
				fc := &folder{lower: lower}
				clk.Start()
				pass(c.text, ws, fc)
				clk.Stop()
			}
			clk.Report(b)
		})
	}
}
