package guard

import (
	"context"
	"errors"

	"unicode/utf8"
)

// ErrScannerClosed is returned by Write after Close.
var ErrScannerClosed = errors.New("guard: output scanner closed")

// OutputScanner checks an answer as it streams: every Output.CheckEvery bytes it classifies the
// trailing Output.Window bytes, and Close checks what is left. The first block (or fail-closed
// failure) is sticky: every later call returns it, so the pipeline can cut the stream with a
// terminal error event. It never fails over to the DC: the answer it sees is rehydrated and may
// hold personal data. Not safe for concurrent use; one scanner per answer.
type OutputScanner struct {
	g         *Guard
	ctx       context.Context
	buf       []byte // the trailing part of the answer still needed for context
	unchecked int    // bytes at the end of buf not yet seen by a check
	d         Decision
	err       error
	closed    bool
}

// NewOutputScanner starts scanning one answer. ctx bounds every check (the request's context).
func (g *Guard) NewOutputScanner(ctx context.Context) *OutputScanner {
	return &OutputScanner{g: g, ctx: ctx, d: Decision{Action: ActionAllow}}
}

func (o *OutputScanner) active() bool { return o.g.p.Output.Enabled && len(o.g.output) > 0 }

// Write adds a delta of the answer. It blocks only when a check is due. The decision is
// cumulative over the answer so far.
func (o *OutputScanner) Write(delta string) (Decision, error) {
	if o.closed {
		return o.d, ErrScannerClosed
	}
	if o.err != nil || !o.active() {
		return o.d, o.err
	}
	o.buf = append(o.buf, delta...)
	o.unchecked += len(delta)
	if o.unchecked >= o.g.p.Output.CheckEvery {
		o.check()
	}
	return o.d, o.err
}

// Close checks the rest of the answer and returns the decision on the whole of it.
func (o *OutputScanner) Close() (Decision, error) {
	if o.closed {
		return o.d, o.err
	}
	o.closed = true
	if o.err == nil && o.active() && o.unchecked > 0 {
		o.check()
	}
	return o.d, o.err
}

func (o *OutputScanner) check() {
	p := o.g.p.Output
	// Every unchecked byte, plus as much earlier context as fits in the window.
	from := runeStart(o.buf, len(o.buf)-max(p.Window, o.unchecked))
	text := string(o.buf[from:])
	o.unchecked = 0
	var tasks []task
	for _, c := range o.g.output {
		tasks = append(tasks, task{c: c, windows: o.g.windows(c.Kind(), text)})
	}
	d, err := o.g.run(o.ctx, stageOutput, []ScanText{{Text: text}}, tasks, p.Timeout, o.g.p.outputFailMode(), false)
	if err != nil && !errors.Is(err, ErrBlocked) {
		o.err = err
		return
	}
	o.d.add(d.Action, d.Categories)
	o.d.Degraded = o.d.Degraded || d.Degraded
	o.d.Refusal = d.Refusal
	o.err = err
	// Keep only the context the next check needs.
	keep := runeStart(o.buf, len(o.buf)-(p.Window-p.CheckEvery))
	o.buf = append(o.buf[:0], o.buf[keep:]...)
}

// runeStart moves i forward to the start of a rune, so windows never split a character.
func runeStart(b []byte, i int) int {
	if i <= 0 {
		return 0
	}
	for i < len(b) && !utf8.RuneStart(b[i]) {
		i++
	}
	return i
}
