package guard

import (
	"context"
	"errors"
	"unicode/utf8"

	"github.com/sucursal/sucursal/internal/gopanic"
)

// ErrScannerClosed is returned by Write after Close.
var ErrScannerClosed = errors.New("guard: output scanner closed")

// OutputScanner checks an answer as it streams: once Output.CheckEvery new bytes have arrived it
// classifies the trailing Output.Window bytes (in the background when Output.Async), and Close
// checks what is left and waits. The first block (or fail-closed failure) is sticky: every later
// call returns it, so the pipeline can cut the stream with a terminal error event. It never fails
// over to the DC: the answer it sees is rehydrated and may hold personal data.
//
// One scanner per answer, used from one goroutine. Close must be called: it owns and waits for
// the background check.
type OutputScanner struct {
	g         *Guard
	ctx       context.Context
	buf       []byte // the trailing part of the answer still needed for context
	unchecked int    // bytes at the end of buf not yet seen by a check
	inflight  chan checkResult
	d         Decision
	err       error
	closed    bool
}

type checkResult struct {
	d   Decision
	err error
	// panicked: the background check panicked; merge raises it again in the request's goroutine
	// (unrecovered in the background goroutine, it would stop the whole process).
	panicked *gopanic.Panic
}

// NewOutputScanner starts scanning one answer. ctx bounds every check (the request's context).
func (g *Guard) NewOutputScanner(ctx context.Context) *OutputScanner {
	return &OutputScanner{g: g, ctx: ctx, d: Decision{Action: ActionAllow}}
}

func (o *OutputScanner) active() bool { return o.g.p.Output.Enabled && len(o.g.output) > 0 }

// Write adds a delta of the answer and returns the decision so far (cumulative over the checks
// finished). In sync mode it blocks while a due check runs.
func (o *OutputScanner) Write(delta string) (Decision, error) {
	if o.closed {
		return o.d, ErrScannerClosed
	}
	if !o.active() {
		return o.d, nil
	}
	o.collect(false)
	if o.err != nil {
		return o.d, o.err
	}
	o.buf = append(o.buf, delta...)
	o.unchecked += len(delta)
	if o.unchecked >= o.g.p.Output.CheckEvery && o.inflight == nil {
		text := o.next()
		if o.g.p.Output.Async {
			o.inflight = make(chan checkResult, 1)
			go func(ch chan<- checkResult) {
				var p *gopanic.Panic
				defer func() {
					if p != nil {
						ch <- checkResult{panicked: p}
					}
				}()
				defer gopanic.Recover(&p)
				ch <- o.check(text)
			}(o.inflight)
		} else {
			o.merge(o.check(text))
		}
	}
	return o.d, o.err
}

// Close waits for a check in flight, checks the rest of the answer and returns the decision on the
// whole of it.
func (o *OutputScanner) Close() (Decision, error) {
	if o.closed {
		return o.d, o.err
	}
	o.closed = true
	if !o.active() {
		return o.d, nil
	}
	o.collect(true)
	if o.err == nil && o.unchecked > 0 {
		o.merge(o.check(o.next()))
	}
	return o.d, o.err
}

// collect merges the background check's result, waiting for it if wait is set.
func (o *OutputScanner) collect(wait bool) {
	if o.inflight == nil {
		return
	}
	var r checkResult
	if wait {
		r = <-o.inflight
	} else {
		select {
		case r = <-o.inflight:
		default:
			return
		}
	}
	o.inflight = nil // before merge, which may panic: a later Close must not wait for it again
	o.merge(r)
}

// next takes the text for a check: every unchecked byte, plus as much earlier context as fits in
// the window; it then drops what the following check will not need.
func (o *OutputScanner) next() string {
	p := o.g.p.Output
	from := runeStart(o.buf, len(o.buf)-max(p.Window, o.unchecked))
	text := string(o.buf[from:])
	o.unchecked = 0
	keep := runeStart(o.buf, len(o.buf)-(p.Window-p.CheckEvery))
	o.buf = append(o.buf[:0], o.buf[keep:]...)
	return text
}

// check classifies one window; it touches only its argument and the guard, so it may run in the
// background.
func (o *OutputScanner) check(text string) checkResult {
	var tasks []task
	for _, c := range o.g.output {
		tasks = append(tasks, task{c: c, windows: o.g.windows(c.Kind(), text)})
	}
	d, err := o.g.run(o.ctx, stageOutput, []ScanText{{Text: text}}, tasks, o.g.p.Output.Timeout, o.g.p.outputFailMode(), false)
	return checkResult{d: d, err: err}
}

func (o *OutputScanner) merge(r checkResult) {
	r.panicked.Repanic()
	if o.err != nil {
		return
	}
	if r.err != nil && !errors.Is(r.err, ErrBlocked) {
		o.err = r.err
		return
	}
	o.d.add(r.d.Action, r.d.Categories)
	o.d.Degraded = o.d.Degraded || r.d.Degraded
	if r.d.Refusal != "" {
		o.d.Refusal = r.d.Refusal
	}
	o.err = r.err
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
