package guard

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sucursal/sucursal/internal/gopanic"
)

// panics is a classifier backend with a bug: it panics with a value that holds the text.
func panics(_ context.Context, text string) (Verdict, error) {
	panic("cannot read verdict for " + text)
}

// A classifier that panics is a failed classifier: the DC guard is asked on the redacted text,
// the fail mode applies when there is none, the failure is counted with reason "panic", the log
// has the panic's type and stack but not its value, and the process (this test) goes on.
func TestClassifierPanicIsAFailure(t *testing.T) {
	const secret = "Maria Gonzalez"
	text := "transfer all of " + secret + "'s savings"

	t.Run("failover", func(t *testing.T) {
		dc := &fake{name: "dc", kind: KindSafety, fn: safetySays()}
		h := newHarness(t, DefaultPolicy(), []Classifier{&fake{name: "lg", kind: KindSafety, fn: panics}}, nil, dc)
		var calls atomic.Int32
		d, err := h.g.CheckInput(context.Background(), []ScanText{redactedAs(text, secret, &calls)})
		if err != nil || d.Action != ActionAllow || !d.FailedOver {
			t.Fatalf("decision %+v err %v, want allow after failover", d, err)
		}
		if seen := dc.texts(); len(seen) != 1 || strings.Contains(seen[0], secret) {
			t.Fatalf("DC guard saw %q", seen)
		}
		if got := h.counter(t, "sucursal_guard_failures_total", map[string]string{"classifier": "lg", "reason": "panic"}); got != 1 {
			t.Errorf("panic failures = %v", got)
		}
		if !strings.Contains(h.log.String(), `"panic_type":"string"`) || !strings.Contains(h.log.String(), "guard.panics") {
			t.Errorf("log lacks the panic's type or stack:\n%s", h.log.String())
		}
		h.assertNoLeak(t, secret)
	})

	t.Run("fail closed", func(t *testing.T) {
		h := newHarness(t, DefaultPolicy(), []Classifier{&fake{name: "lg", kind: KindSafety, fn: panics}}, nil, nil)
		_, err := h.g.CheckInput(context.Background(), user(text))
		if !errors.Is(err, ErrGuardUnavailable) || !errors.Is(err, ErrClassifierPanicked) {
			t.Fatalf("err = %v, want unavailable because the classifier panicked", err)
		}
		if strings.Contains(err.Error(), secret) {
			t.Errorf("error holds the text: %v", err)
		}
		h.assertNoLeak(t, secret)
	})
}

// kindBomb is a classifier whose Kind panics once armed: a bug outside the classifier call, in
// code the output scanner runs in its background goroutine.
type kindBomb struct {
	fake
	armed atomic.Bool
}

func (k *kindBomb) Kind() Kind {
	if k.armed.Load() {
		panic("kind of a broken classifier")
	}
	return KindSafety
}

// A panic in the output scanner's background check reaches the goroutine that owns the scanner
// (gopanic.Panic, with the background goroutine's stack), where the API answers it; unrecovered in
// the background it would stop the process.
func TestOutputScannerCarriesBackgroundPanic(t *testing.T) {
	p := DefaultPolicy()
	p.Output.Async = true
	p.Output.CheckEvery, p.Output.Window = 4, 16
	k := &kindBomb{fake: fake{name: "lg", kind: KindSafety, fn: safetySays()}}
	h := newHarness(t, p, nil, []Classifier{k}, nil)
	o := h.g.NewOutputScanner(context.Background())
	k.armed.Store(true)
	var got any
	func() {
		defer func() { got = recover() }()
		_, _ = o.Write("hola que tal")
		_, _ = o.Close()
	}()
	gp, ok := got.(*gopanic.Panic)
	if !ok {
		t.Fatalf("recovered %T %v, want *gopanic.Panic", got, got)
	}
	if gp.Value != "kind of a broken classifier" || !strings.Contains(string(gp.Stack), "guard.(*OutputScanner).check") {
		t.Fatalf("carried %v with stack\n%s", gp.Value, gp.Stack)
	}
	if _, err := o.Close(); err != nil {
		t.Fatalf("Close after the panic: %v", err) // closed already: returns at once, never waits again
	}
}
